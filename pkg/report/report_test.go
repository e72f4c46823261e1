package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Source files the fixture findings point into: wide characters before a
// finding, a tab-indented line, and a path with a comma, colon and space.
var sources = map[string]string{
	"tools/cjk.yaml":        "name: 検索ツール\ndescription: 🚀 ロケット search_tool の説明です\n",
	"tools/tabbed.json":     "{\n\t\"name\": \"Tabbed\",\n\t\"description\": \"x\"\n}\n",
	"tools/odd, name:.yaml": "name: BadName\ndescription: short\n",
}

func sourceFiles() func(string) *spec.File {
	files := map[string]*spec.File{}
	for path, data := range sources {
		files[path] = spec.ParseFile(path, []byte(data))
	}
	return func(path string) *spec.File { return files[path] }
}

// span finds the first occurrence of text on line n of a fixture source and
// returns its exact span, counting columns in runes as pkg/spec does.
func span(t *testing.T, path string, n int, text string) spec.Span {
	t.Helper()
	line := strings.Split(sources[path], "\n")[n-1]
	i := strings.Index(line, text)
	if i < 0 {
		t.Fatalf("%q not on line %d of %s", text, n, path)
	}
	col := len([]rune(line[:i])) + 1
	return spec.Span{Start: spec.Pos{Line: n, Col: col}, End: spec.Pos{Line: n, Col: col + len([]rune(text))}}
}

func fixture(t *testing.T) ([]diag.Diagnostic, Summary) {
	t.Helper()
	findings := []diag.Diagnostic{
		{File: "tools/broken.yaml", Severity: diag.Error, Rule: "parse-error", Message: "cannot read the file: permission denied"},
		{File: "tools/cjk.yaml", Span: span(t, "tools/cjk.yaml", 1, "検索ツール"), Severity: diag.Error, Rule: "name-snake-case", Message: `name "検索ツール" is not snake_case`},
		{File: "tools/cjk.yaml", Span: span(t, "tools/cjk.yaml", 2, "search_tool"), Severity: diag.Info, Rule: "description-mentions-name", Message: "description repeats the tool name"},
		// A multi-line span gets a single caret.
		{File: "tools/odd, name:.yaml", Span: spec.Span{Start: spec.Pos{Line: 1, Col: 7}, End: spec.Pos{Line: 2, Col: 1}}, Severity: diag.Error, Rule: "name-snake-case", Message: `name "BadName" is not snake_case; rename it to "bad_name"`},
		{File: "tools/odd, name:.yaml", Span: span(t, "tools/odd, name:.yaml", 2, "short"), Severity: diag.Warning, Rule: "description-too-short", Message: "description is too short (5 characters)\nwrite at least 4 words: what it does, on what, and what it returns"},
		{File: "tools/tabbed.json", Span: span(t, "tools/tabbed.json", 2, `"Tabbed"`), Severity: diag.Warning, Rule: "name-snake-case", Message: `name "Tabbed" is not snake_case; use "tabbed" & keep <it> short`},
	}
	sum := Summary{Files: []string{"tools/broken.yaml", "tools/cjk.yaml", "tools/clean.yaml", "tools/odd, name:.yaml", "tools/tabbed.json"}}
	return findings, sum
}

// catalog is a fixed rule catalog, so the sarif golden file does not change
// whenever a rule is added to pkg/lint.
var catalog = []Rule{
	{ID: "parse-error", Severity: diag.Error, Description: "The file must be valid YAML/JSON.", Explain: "Bad:\n  name: [\n\nGood:\n  name: x"},
	{ID: "name-snake-case", Severity: diag.Error, Description: "Tool names are snake_case.", Explain: "Bad:\n  name: HttpRequest\n\nGood:\n  name: http_request"},
	{ID: "description-too-short", Severity: diag.Warning, Description: "Descriptions say enough to choose the tool."},
	{ID: "description-mentions-name", Severity: diag.Info, Description: "Descriptions do not repeat the name."},
	{ID: "experimental-off", Severity: diag.Off, Description: "A rule that is off by default."},
}

func options() Options {
	return Options{Source: sourceFiles(), Root: "", Version: "1.2.3", Rules: catalog}
}

func render(t *testing.T, format string, findings []diag.Diagnostic, sum Summary, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, findings, sum, opt); err != nil {
		t.Fatalf("Write(%s): %v", format, err)
	}
	// Same input, same bytes.
	var again bytes.Buffer
	if err := Write(&again, format, findings, sum, opt); err != nil {
		t.Fatalf("Write(%s) again: %v", format, err)
	}
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Fatalf("Write(%s) is not byte-stable", format)
	}
	return b.Bytes()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -update rewrites it)\n--- got:\n%s\n--- want:\n%s", name, path, got, want)
	}
}

func TestGolden(t *testing.T) {
	findings, sum := fixture(t)
	colored := options()
	colored.Color = true
	quiet := options()
	quiet.Quiet = true
	cases := []struct {
		name     string
		format   string
		findings []diag.Diagnostic
		opt      Options
	}{
		{"text", "text", findings, options()},
		{"text_color", "text", findings, colored},
		{"text_quiet", "text", findings, quiet},
		{"text_clean", "text", nil, options()},
		{"text_no_source", "text", findings, Options{}},
		{"json", "json", findings, options()},
		{"json_clean", "json", nil, options()},
		{"sarif", "sarif", findings, options()},
		{"sarif_clean", "sarif", nil, options()},
		{"github", "github", findings, options()},
		{"junit", "junit", findings, options()},
		{"junit_clean", "junit", nil, options()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			golden(t, c.name, render(t, c.format, c.findings, sum, c.opt))
		})
	}
}

func TestFormatsAllWork(t *testing.T) {
	findings, sum := fixture(t)
	for _, f := range Formats {
		if len(render(t, f, findings, sum, options())) == 0 {
			t.Errorf("%s: empty output", f)
		}
	}
	want := []string{"text", "json", "sarif", "github", "junit"}
	if strings.Join(Formats, ",") != strings.Join(want, ",") {
		t.Errorf("Formats = %v, want %v", Formats, want)
	}
}

func TestUnknownFormat(t *testing.T) {
	var b bytes.Buffer
	err := Write(&b, "xml", nil, Summary{}, Options{})
	if err == nil {
		t.Fatal("Write(xml) succeeded")
	}
	for _, f := range Formats {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not list %s", err, f)
		}
	}
	if b.Len() != 0 {
		t.Errorf("unknown format wrote %q", b.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrorIsWrapped(t *testing.T) {
	err := Write(failingWriter{}, "json", nil, Summary{}, Options{})
	if err == nil || !strings.Contains(err.Error(), "json report") || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v, want the format and the cause", err)
	}
}

func TestSummaryLine(t *testing.T) {
	cases := []struct {
		c     counts
		files int
		want  string
	}{
		{counts{}, 11, "no problems in 11 files"},
		{counts{}, 1, "no problems in 1 file"},
		{counts{}, 0, "no problems in 0 files"},
		{counts{errors: 2, warnings: 1}, 11, "2 errors, 1 warning in 11 files"},
		{counts{errors: 1, info: 2}, 3, "1 error, 2 info in 3 files"},
		{counts{warnings: 2}, 1, "2 warnings in 1 file"},
		{counts{info: 1}, 2, "1 info in 2 files"},
		{counts{errors: 1, warnings: 1, info: 1}, 1, "1 error, 1 warning, 1 info in 1 file"},
	}
	for _, c := range cases {
		if got := summaryLine(c.c, c.files); got != c.want {
			t.Errorf("summaryLine(%+v, %d) = %q, want %q", c.c, c.files, got, c.want)
		}
	}
}

var ansiSeq = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestColor(t *testing.T) {
	findings, sum := fixture(t)
	plain := render(t, "text", findings, sum, options())
	if bytes.ContainsRune(plain, '\x1b') {
		t.Errorf("colour off, output has an escape sequence:\n%q", plain)
	}
	opt := options()
	opt.Color = true
	colored := render(t, "text", findings, sum, opt)
	for _, want := range []string{"\x1b[1;31merror\x1b[0m", "\x1b[1;33mwarning\x1b[0m", "\x1b[36minfo\x1b[0m", "\x1b[2m[name-snake-case]\x1b[0m", "\x1b[1;31m^^^^^^^^^^\x1b[0m"} {
		if !bytes.Contains(colored, []byte(want)) {
			t.Errorf("colour on, output lacks %q:\n%s", want, colored)
		}
	}
	// Colour only adds styling: the text underneath is the plain output.
	if stripped := ansiSeq.ReplaceAll(colored, nil); !bytes.Equal(stripped, plain) {
		t.Errorf("colour output without escapes differs from plain output:\n%s\n---\n%s", stripped, plain)
	}
	// Other formats never colour.
	for _, f := range []string{"json", "sarif", "github", "junit"} {
		if bytes.ContainsRune(render(t, f, findings, sum, opt), '\x1b') {
			t.Errorf("%s with Color has an escape sequence", f)
		}
	}
}

// expandTabs expands tabs to 8-column stops, as a terminal does, measuring
// with lipgloss.Width so wide characters count two cells.
func expandTabs(s string) string {
	var b strings.Builder
	w := 0
	for _, r := range s {
		if r == '\t' {
			n := 8 - w%8
			b.WriteString(strings.Repeat(" ", n))
			w += n
			continue
		}
		b.WriteRune(r)
		w += lipgloss.Width(string(r))
	}
	return b.String()
}

// TestExcerptAlignment checks, as a terminal would draw it, that the carets
// start under the span's first character and are as wide as the span.
func TestExcerptAlignment(t *testing.T) {
	findings, sum := fixture(t)
	lines := strings.Split(string(render(t, "text", findings, sum, options())), "\n")
	checked := 0
	for _, f := range findings {
		if !f.Span.Start.IsValid() || f.Span.End.Line != f.Span.Start.Line {
			continue
		}
		src := strings.Split(sources[f.File], "\n")[f.Span.Start.Line-1]
		srcRunes := []rune(src)
		before := string(srcRunes[:f.Span.Start.Col-1])
		text := string(srcRunes[f.Span.Start.Col-1 : f.Span.End.Col-1])
		for i, l := range lines {
			if !strings.HasSuffix(l, "| "+src) || i+1 >= len(lines) {
				continue
			}
			gutter := l[:strings.Index(l, "| ")+2]
			shown := expandTabs(gutter + before)
			underline := expandTabs(lines[i+1])
			caretAt := strings.Index(underline, "^")
			if caretAt < 0 {
				t.Fatalf("no caret under %q", l)
			}
			if got, want := lipgloss.Width(underline[:caretAt]), lipgloss.Width(shown); got != want {
				t.Errorf("%s: caret at cell %d, span starts at cell %d\n%s\n%s", f.Rule, got, want, l, lines[i+1])
			}
			if got, want := strings.Count(underline, "^"), lipgloss.Width(text); got != want {
				t.Errorf("%s: %d carets under %q (%d cells)", f.Rule, got, text, want)
			}
			checked++
			break
		}
	}
	if checked != 4 {
		t.Errorf("checked %d excerpts, want 4 (the one-line spans)", checked)
	}
}

func TestExcerptEdges(t *testing.T) {
	src := spec.ParseFile("t.yaml", []byte("name: x\n\nbad: \x1b[31mred\u202e\n"))
	opt := Options{Source: func(string) *spec.File { return src }, Quiet: true}
	cases := []struct {
		name string
		span spec.Span
		want string // the excerpt after the header line; "" for none
	}{
		{"past end of line", spec.Span{Start: spec.Pos{Line: 1, Col: 20}, End: spec.Pos{Line: 1, Col: 21}}, "   |\n 1 | name: x\n   |        ^\n"},
		{"empty line", spec.Span{Start: spec.Pos{Line: 2, Col: 1}, End: spec.Pos{Line: 2, Col: 2}}, "   |\n 2 |\n   | ^\n"},
		{"end before start", spec.Span{Start: spec.Pos{Line: 1, Col: 7}, End: spec.Pos{Line: 1, Col: 3}}, "   |\n 1 | name: x\n   |       ^\n"},
		{"no end", spec.Span{Start: spec.Pos{Line: 1, Col: 1}}, "   |\n 1 | name: x\n   | ^\n"},
		{"control characters are shown as U+FFFD", spec.Span{Start: spec.Pos{Line: 3, Col: 6}, End: spec.Pos{Line: 3, Col: 14}}, "   |\n 3 | bad: \ufffd[31mred\ufffd\n   |      ^^^^^^^^\n"},
		{"line past end of file", spec.Span{Start: spec.Pos{Line: 9, Col: 1}, End: spec.Pos{Line: 9, Col: 2}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := diag.Diagnostic{File: "t.yaml", Span: c.span, Severity: diag.Error, Rule: "r", Message: "m"}
			out := string(render(t, "text", []diag.Diagnostic{f}, Summary{}, opt))
			header, excerpt, _ := strings.Cut(out, "\n")
			if !strings.HasPrefix(header, "t.yaml:") {
				t.Fatalf("header = %q", header)
			}
			if excerpt != c.want {
				t.Errorf("excerpt:\n%q\nwant:\n%q", excerpt, c.want)
			}
		})
	}
	// A Source that knows no file gives no excerpt.
	f := diag.Diagnostic{File: "other.yaml", Span: spec.Span{Start: spec.Pos{Line: 1, Col: 1}}, Severity: diag.Warning, Rule: "r", Message: "m"}
	none := Options{Source: func(string) *spec.File { return nil }, Quiet: true}
	if got := string(render(t, "text", []diag.Diagnostic{f}, Summary{}, none)); got != "other.yaml:1:1: warning: m [r]\n" {
		t.Errorf("nil source: %q", got)
	}
}

func TestJSONDecodes(t *testing.T) {
	findings, sum := fixture(t)
	var got struct {
		Findings []struct {
			File      string `json:"file"`
			Line      int    `json:"line"`
			Column    int    `json:"column"`
			EndLine   int    `json:"end_line"`
			EndColumn int    `json:"end_column"`
			Severity  string `json:"severity"`
			Rule      string `json:"rule"`
			Message   string `json:"message"`
		} `json:"findings"`
		Summary struct {
			Files, Errors, Warnings, Info int
		} `json:"summary"`
	}
	out := render(t, "json", findings, sum, options())
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decoding: %v\n%s", err, out)
	}
	if !bytes.HasSuffix(out, []byte("}\n")) {
		t.Error("no trailing newline")
	}
	if len(got.Findings) != len(findings) {
		t.Fatalf("%d findings, want %d", len(got.Findings), len(findings))
	}
	if s := got.Summary; s.Files != 5 || s.Errors != 3 || s.Warnings != 2 || s.Info != 1 {
		t.Errorf("summary = %+v, want 5 files, 3 errors, 2 warnings, 1 info", s)
	}
	for i, f := range findings {
		g := got.Findings[i]
		if g.File != f.File || g.Rule != f.Rule || g.Message != f.Message || g.Severity != f.Severity.String() || g.Line != f.Span.Start.Line || g.Column != f.Span.Start.Col {
			t.Errorf("finding %d = %+v, want %+v", i, g, f)
		}
		if f.Span.Start.IsValid() && (g.EndLine != f.Span.End.Line || g.EndColumn != f.Span.End.Col) {
			t.Errorf("finding %d ends at %d:%d, want %d:%d", i, g.EndLine, g.EndColumn, f.Span.End.Line, f.Span.End.Col)
		}
	}
	if !bytes.Contains(out, []byte(`& keep <it>`)) {
		t.Error("HTML characters are escaped")
	}
	clean := render(t, "json", nil, Summary{Files: []string{"a.yaml"}}, Options{})
	if !bytes.Contains(clean, []byte(`"findings": []`)) {
		t.Errorf("clean report does not have an empty findings list:\n%s", clean)
	}
}

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	c := jsonschema.NewCompiler()
	c.AssertFormat = true
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	return sch
}

func decodeAny(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding: %v\n%s", err, data)
	}
	return v
}

func TestSARIFValidates(t *testing.T) {
	sch := sarifSchema(t)
	findings, sum := fixture(t)
	real := options()
	real.Rules = testRules()
	real.Version = ""
	abs := options()
	abs.Root = filepath.Join(string(filepath.Separator), "repo")
	absFindings := append([]diag.Diagnostic{{File: filepath.Join(abs.Root, "..", "elsewhere", "x y.yaml"), Severity: diag.Info, Rule: "unknown-rule", Message: "m"}}, findings...)
	cases := map[string][]byte{
		"fixture":          render(t, "sarif", findings, sum, options()),
		"clean":            render(t, "sarif", nil, sum, options()),
		"real catalog":     render(t, "sarif", findings, sum, real),
		"outside root":     render(t, "sarif", absFindings, sum, abs),
		"no rules, no sum": render(t, "sarif", findings, Summary{}, Options{}),
	}
	for name, out := range cases {
		if err := sch.Validate(decodeAny(t, out)); err != nil {
			t.Errorf("%s: not valid SARIF 2.1.0: %#v", name, err)
		}
	}
	// The schema is strict enough to catch a broken log.
	if err := sch.Validate(decodeAny(t, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"level":"info","message":{"text":"m"}}]}]}`))); err == nil {
		t.Error("schema accepted level info")
	}
}

func TestSARIFContent(t *testing.T) {
	findings, sum := fixture(t)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name, Version string
					Rules         []struct {
						ID, Name             string
						Help                 *struct{ Text string }
						DefaultConfiguration struct {
							Enabled *bool
							Level   string
						}
					}
				}
			}
			Artifacts []struct {
				Location struct{ URI string }
			}
			Results []struct {
				RuleID    string
				RuleIndex *int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI   string
							Index *int
						}
						Region *struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
			ColumnKind string
		}
	}
	if err := json.Unmarshal(render(t, "sarif", findings, sum, options()), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "toolctl" || run.Tool.Driver.Version != "1.2.3" || run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("driver %+v, columnKind %q", run.Tool.Driver, run.ColumnKind)
	}
	rules := run.Tool.Driver.Rules
	for i := 1; i < len(rules); i++ {
		if rules[i-1].ID >= rules[i].ID {
			t.Errorf("rules not sorted by ID: %s before %s", rules[i-1].ID, rules[i].ID)
		}
	}
	levels := map[string]string{}
	for _, r := range rules {
		levels[r.ID] = r.DefaultConfiguration.Level
		if r.ID == "name-snake-case" && (r.Name != "NameSnakeCase" || r.Help == nil || !strings.Contains(r.Help.Text, "http_request")) {
			t.Errorf("rule %+v", r)
		}
		if r.ID == "experimental-off" && (r.DefaultConfiguration.Enabled == nil || *r.DefaultConfiguration.Enabled) {
			t.Errorf("an off rule is not disabled: %+v", r)
		}
	}
	if levels["description-mentions-name"] != "note" || levels["description-too-short"] != "warning" || levels["parse-error"] != "error" {
		t.Errorf("default levels = %v", levels)
	}
	if len(run.Results) != len(findings) {
		t.Fatalf("%d results, want %d", len(run.Results), len(findings))
	}
	for i, r := range run.Results {
		f := findings[i]
		if r.RuleIndex == nil || rules[*r.RuleIndex].ID != f.Rule {
			t.Errorf("result %d: ruleIndex does not point at %s", i, f.Rule)
		}
		loc := r.Locations[0].PhysicalLocation
		if idx := loc.ArtifactLocation.Index; idx == nil || run.Artifacts[*idx].Location.URI != loc.ArtifactLocation.URI {
			t.Errorf("result %d: artifact index does not point at %s", i, loc.ArtifactLocation.URI)
		}
		if f.Span.Start.IsValid() != (loc.Region != nil) {
			t.Errorf("result %d: region %v for span %v", i, loc.Region, f.Span)
		}
		if loc.Region != nil && (loc.Region.StartLine != f.Span.Start.Line || loc.Region.StartColumn != f.Span.Start.Col || loc.Region.EndColumn != f.Span.End.Col) {
			t.Errorf("result %d: region %+v for span %v", i, *loc.Region, f.Span)
		}
	}
	if got := run.Results[2].Level; got != "note" {
		t.Errorf("info finding has level %q, want note", got)
	}
	if got := run.Results[3].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "tools/odd,%20name:.yaml" {
		t.Errorf("uri = %q, want the space escaped", got)
	}
	if len(run.Artifacts) != len(sum.Files) {
		t.Errorf("%d artifacts, want one per linted file (%d)", len(run.Artifacts), len(sum.Files))
	}
}

func TestSARIFURI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	cases := []struct{ root, path, want string }{
		{"/repo", "/repo/tools/a.yaml", "tools/a.yaml"},
		{"/repo", "tools/a b.yaml", "tools/a%20b.yaml"},
		{"/repo", "./tools/../x.yaml", "x.yaml"},
		{"/repo", "/other/x.yaml", "file:///other/x.yaml"},
		{"/repo", "a:b.yaml", "./a:b.yaml"},
		{"/repo", "tools/100%.yaml", "tools/100%25.yaml"},
		{"/repo", "tools/名前.yaml", "tools/%E5%90%8D%E5%89%8D.yaml"},
		{"", "/abs/x.yaml", "file:///abs/x.yaml"},
	}
	for _, c := range cases {
		if got := sarifURI(c.root, c.path); got != c.want {
			t.Errorf("sarifURI(%q, %q) = %q, want %q", c.root, c.path, got, c.want)
		}
	}
}

func TestGitHubEscaping(t *testing.T) {
	cases := []struct{ in, data, property string }{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"},
		{"a: b, c", "a: b, c", "a%3A b%2C c"},
		{"%0A", "%250A", "%250A"},
		{"::error::", "::error::", "%3A%3Aerror%3A%3A"},
	}
	for _, c := range cases {
		if got := escapeData(c.in); got != c.data {
			t.Errorf("escapeData(%q) = %q, want %q", c.in, got, c.data)
		}
		if got := escapeProperty(c.in); got != c.property {
			t.Errorf("escapeProperty(%q) = %q, want %q", c.in, got, c.property)
		}
	}
}

func TestGitHubCommands(t *testing.T) {
	findings, sum := fixture(t)
	opt := options()
	if runtime.GOOS != "windows" {
		opt.Root = "/repo"
		findings[1].File = "/repo/tools/cjk.yaml"
	}
	lines := strings.Split(strings.TrimSuffix(string(render(t, "github", findings, sum, opt)), "\n"), "\n")
	want := []string{
		"::error file=tools/broken.yaml,title=parse-error::cannot read the file: permission denied",
		"::error file=tools/cjk.yaml,line=1,col=7,endLine=1,endColumn=12,title=name-snake-case::name \"検索ツール\" is not snake_case",
		"::notice file=tools/cjk.yaml,line=2,col=21,endLine=2,endColumn=32,title=description-mentions-name::description repeats the tool name",
		"::error file=tools/odd%2C name%3A.yaml,line=1,col=7,title=name-snake-case::name \"BadName\" is not snake_case; rename it to \"bad_name\"",
		"::warning file=tools/odd%2C name%3A.yaml,line=2,col=14,endLine=2,endColumn=19,title=description-too-short::description is too short (5 characters)%0Awrite at least 4 words: what it does, on what, and what it returns",
		"::warning file=tools/tabbed.json,line=2,col=10,endLine=2,endColumn=18,title=name-snake-case::name \"Tabbed\" is not snake_case; use \"tabbed\" & keep <it> short",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
	}
}

func TestJUnitParses(t *testing.T) {
	findings, sum := fixture(t)
	out := render(t, "junit", findings, sum, options())
	if !bytes.HasPrefix(out, []byte(xml.Header)) {
		t.Error("no XML header")
	}
	var doc struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("parsing: %v\n%s", err, out)
	}
	if doc.Name != "toolctl lint" || doc.Tests != 7 || doc.Failures != 6 {
		t.Errorf("testsuites %q tests=%d failures=%d, want toolctl lint, 7, 6", doc.Name, doc.Tests, doc.Failures)
	}
	if len(doc.Suites) != len(sum.Files) {
		t.Fatalf("%d suites, want one per file (%d)", len(doc.Suites), len(sum.Files))
	}
	tests, failures := 0, 0
	for i, s := range doc.Suites {
		if s.Name != sum.Files[i] {
			t.Errorf("suite %d is %q, want %q", i, s.Name, sum.Files[i])
		}
		if s.Tests != len(s.Cases) {
			t.Errorf("suite %s: tests=%d but %d cases", s.Name, s.Tests, len(s.Cases))
		}
		n := 0
		for _, c := range s.Cases {
			if c.Classname != s.Name {
				t.Errorf("case %q has classname %q in suite %q", c.Name, c.Classname, s.Name)
			}
			if c.Failure != nil {
				n++
			}
		}
		if s.Failures != n {
			t.Errorf("suite %s: failures=%d but %d failing cases", s.Name, s.Failures, n)
		}
		tests += s.Tests
		failures += s.Failures
	}
	if tests != doc.Tests || failures != doc.Failures {
		t.Errorf("totals %d/%d do not add up to %d/%d", doc.Tests, doc.Failures, tests, failures)
	}
	clean := doc.Suites[2]
	if clean.Name != "tools/clean.yaml" || len(clean.Cases) != 1 || clean.Cases[0].Name != "lint" || clean.Cases[0].Failure != nil {
		t.Errorf("clean file suite = %+v, want one passing lint case", clean)
	}
	// The newline in a message survives the attribute round trip.
	multi := doc.Suites[3].Cases[1]
	if multi.Name != "description-too-short at 2:14" || multi.Failure.Message != findings[4].Message || multi.Failure.Type != "warning" {
		t.Errorf("case = %+v", multi)
	}
	if want := "tools/odd, name:.yaml:2:14: " + findings[4].Message; multi.Failure.Text != want {
		t.Errorf("failure text = %q, want %q", multi.Failure.Text, want)
	}
	if got := doc.Suites[0].Cases[0].Name; got != "parse-error" {
		t.Errorf("case without position is named %q", got)
	}
}

func TestJUnitListsUnsummarisedFiles(t *testing.T) {
	f := diag.Diagnostic{File: "extra.yaml", Span: spec.Span{Start: spec.Pos{Line: 1, Col: 1}}, Severity: diag.Error, Rule: "r", Message: "m"}
	out := string(render(t, "junit", []diag.Diagnostic{f}, Summary{Files: []string{"a.yaml"}}, Options{}))
	a, extra := strings.Index(out, `<testsuite name="a.yaml"`), strings.Index(out, `<testsuite name="extra.yaml"`)
	if a < 0 || extra < a {
		t.Errorf("want a.yaml then extra.yaml:\n%s", out)
	}
}

// testRules is lint's catalog as cmd hands it to the reports.
func testRules() []Rule {
	var out []Rule
	for _, r := range lint.Rules() {
		out = append(out, Rule{ID: r.ID, Description: r.Description, Explain: r.Explain, Severity: r.Severity})
	}
	return out
}
