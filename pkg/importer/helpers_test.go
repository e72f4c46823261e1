package importer

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// mustImport imports input and fails the test on an error.
func mustImport(t *testing.T, from Format, input string) *Result {
	t.Helper()
	res, err := Import([]byte(input), Options{From: from, Name: "in.json"})
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	checkRules(t, res)
	return res
}

// checkRules fails the test when a warning has no rule ID of Rules:
// --error-format users filter on them.
func checkRules(t *testing.T, res *Result) {
	t.Helper()
	if res == nil {
		return
	}
	for _, w := range res.Warnings {
		if !slices.ContainsFunc(Rules, func(r struct{ ID, Summary string }) bool { return r.ID == w.Rule }) {
			t.Errorf("warning without a rule ID of Rules (rules.go): %q: %s", w.Rule, w.Error())
		}
	}
}

// importErr imports input and returns the error text, failing when the
// import succeeds.
func importErr(t *testing.T, from Format, input string) string {
	t.Helper()
	_, err := Import([]byte(input), Options{From: from, Name: "in.json"})
	if err == nil {
		t.Fatal("Import succeeded, want an error")
	}
	var list Errors
	var one *Diagnostic
	if !errors.As(err, &list) && !errors.As(err, &one) {
		t.Fatalf("error %T is neither Errors nor *Diagnostic: %v", err, err)
	}
	return err.Error()
}

// canonical renders a tool as the file import writes (without modeline),
// and checks that toolctl reads the file back to the same model.
func canonical(t *testing.T, tool *Tool) string {
	t.Helper()
	out, err := spec.MarshalYAMLDoc(tool.Tool.ToMap())
	if err != nil {
		t.Fatal(err)
	}
	f := spec.ParseFile(tool.Tool.Name+".yaml", out)
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("the written file does not load: %v\n%s", f.Errors, out)
	}
	again, _ := spec.MarshalYAMLDoc(f.Tools[0].ToMap())
	if string(again) != string(out) {
		t.Fatalf("the written file does not load back to the same model:\n%s\nvs\n%s", out, again)
	}
	return string(out)
}

// yamlEq compares canonical YAML with a want written with tab indentation
// stripped (so that tests can indent it).
func yamlEq(t *testing.T, got, want string) {
	t.Helper()
	want = dedent(want)
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func dedent(s string) string {
	lines := strings.Split(strings.TrimPrefix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n")
}

func warningsText(res *Result) string {
	var b strings.Builder
	for _, w := range res.Warnings {
		b.WriteString(w.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

func wantContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%q\ndoes not contain %q", got, w)
		}
	}
}
