package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runNewTTY runs toolctl new in dir with answers on a stdin that claims to
// be a terminal (testscript cannot give one).
func runNewTTY(t *testing.T, dir, answers string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	app := &App{
		IO:     &IOStreams{In: strings.NewReader(answers), Out: &out, ErrOut: &errOut, StdinTTY: true},
		Getenv: func(string) string { return "" },
	}
	code := Run(app, append([]string{"new"}, args...))
	return code, out.String(), errOut.String()
}

func TestNewAsksOnATerminal(t *testing.T) {
	dir := t.TempDir()
	// a bad name is asked again, then the entry type, description and
	// category (a bad category asked again)
	answers := "Bad Name\nword_count\npyton\npython\nCounts the words of a text. Use when a text must fit a limit.\nweb\nai\n"
	code, out, errOut := runNewTTY(t, dir, answers)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"Tool name (snake_case, e.g. get_weather): ",
		`tool name "Bad Name" is not snake_case`,
		"Entry type (builtin, http, javascript, python, command, mcp) [http]: ",
		`did you mean "python"?`,
		"Description: what it does and when to use it (Enter for a placeholder): ",
		"Category (http, database, file, ai, notification, custom) [custom]: ",
		`"web" is not one of http, database, file, ai, notification, custom`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if out != "created tools/word_count.yaml\ncreated tools/scripts/word_count.py\n" {
		t.Errorf("stdout:\n%s", out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "tools", "word_count.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\ndescription: Counts the words of a text. Use when a text must fit a limit.\n", "\ncategory: ai\n", "\n  type: python\n"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the file lacks %q:\n%s", want, data)
		}
	}
}

// Enter keeps the defaults; flags given are not asked again.
func TestNewAsksOnlyWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runNewTTY(t, dir, "calc\n\n\n", "--entry", "builtin")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if strings.Contains(errOut, "Entry type") {
		t.Errorf("asked for the entry type given by --entry:\n%s", errOut)
	}
	if out != "created tools/calc.yaml\n" {
		t.Errorf("stdout:\n%s", out)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tools", "calc.yaml"))
	if !bytes.Contains(data, []byte("\n  handler: calculator\n")) || !bytes.Contains(data, []byte("\ncategory: custom\n")) {
		t.Errorf("defaults not kept:\n%s", data)
	}
}

// The end of input stops the questions without writing anything.
func TestNewEndOfInput(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runNewTTY(t, dir, "")
	if code != ExitUsage || !strings.Contains(errOut, "no answer (end of input); nothing was written") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "tools")); err == nil {
		t.Error("something was written")
	}
}

// A NAME on the command line means no questions, terminal or not.
func TestNewWithNameDoesNotAsk(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runNewTTY(t, dir, "", "quiet_tool")
	if code != 0 || strings.Contains(errOut, "Tool name") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}

// TestNewModelineAtTheReleaseTag: a release build's modeline points at
// the schema of its own tag, which exists once the release is tagged.
func TestNewModelineAtTheReleaseTag(t *testing.T) {
	old := version
	version = "1.2.3" // as goreleaser sets it: without the v
	t.Cleanup(func() { version = old })
	dir := t.TempDir()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	app := &App{IO: &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" }}
	if code := Run(app, []string{"new", "get_customer", "--dir", "."}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "get_customer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# yaml-language-server: $schema=https://raw.githubusercontent.com/toolctl/toolctl/v1.2.3/schema/tool.schema.json\n"
	if first, _, _ := strings.Cut(string(data), "\n"); first+"\n" != want {
		t.Errorf("first line %q, want %q", first, want)
	}
}
