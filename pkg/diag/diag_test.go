package diag

import "testing"

func TestWhereAndError(t *testing.T) {
	for _, tc := range []struct {
		d          Diagnostic
		where, err string
	}{
		{Diagnostic{File: "a.yaml", Span: At(Pos{Line: 3, Col: 7}), Message: "bad"}, "a.yaml:3:7", "a.yaml:3:7: bad"},
		{Diagnostic{File: "a.yaml", Message: "bad"}, "a.yaml", "a.yaml: bad"},
		{Diagnostic{Message: "bad"}, "", "bad"},
	} {
		if got := tc.d.Where(); got != tc.where {
			t.Errorf("Where() = %q, want %q", got, tc.where)
		}
		if got := tc.d.Error(); got != tc.err {
			t.Errorf("Error() = %q, want %q", got, tc.err)
		}
	}
	d := Diagnostic{File: "t.json", Span: Span{Start: Pos{Line: 1, Col: 2}, End: Pos{Line: 1, Col: 5}}, Severity: Warning, Rule: "name-snake-case", Message: "rename it"}
	if got, want := d.String(), "t.json:1:2: warning: rename it [name-snake-case]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestSeverity(t *testing.T) {
	for _, s := range []Severity{Off, Info, Warning, Error} {
		got, err := ParseSeverity(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity(fatal) gave no error")
	}
	if got := Severity(9).String(); got != "severity(9)" {
		t.Errorf("Severity(9) = %q", got)
	}
	if got := Plural(1, "file", "files") + ", " + Plural(2, "file", "files"); got != "1 file, 2 files" {
		t.Errorf("Plural: %q", got)
	}
}
