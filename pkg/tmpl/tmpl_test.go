package tmpl

import (
	"reflect"
	"testing"
)

func TestParams(t *testing.T) {
	got := Params("${HOME}/{a}-{b.c}{ {x y} {1x} ${lower}")
	want := []Ref{{"a", 8, 11}, {"b.c", 12, 17}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestSplitURL(t *testing.T) {
	for _, tc := range []struct {
		in                                   string
		scheme, user, host, port, path, orig string
	}{
		{"http://{region}.example.test:8080/status?x={y}#f", "http", "", "{region}.example.test", "8080", "/status", ""},
		{"https://{u}:{p}@h.test/a/{b}", "https", "{u}:{p}", "h.test", "", "/a/{b}", ""},
		{"http://[::1]:{port}", "http", "", "[::1]", "{port}", "", ""},
		{"${BASE}/v1/{id}", "", "", "", "", "/v1/{id}", "${BASE}"},
		{"{scheme}://h.test", "{scheme}", "", "h.test", "", "", ""},
	} {
		u := SplitURL(tc.in)
		got := []string{u.Scheme.Text, u.Userinfo.Text, u.Host.Text, u.Port.Text, u.Path.Text, u.Origin.Text}
		want := []string{tc.scheme, tc.user, tc.host, tc.port, tc.path, tc.orig}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, want %q", tc.in, got, want)
		}
		for _, p := range []Part{u.Scheme, u.Userinfo, u.Host, u.Port, u.Path, u.Origin, u.Query} {
			if p.Text != "" && tc.in[p.Off:p.Off+len(p.Text)] != p.Text {
				t.Errorf("%s: part %q has a wrong offset %d", tc.in, p.Text, p.Off)
			}
		}
	}
}

func TestOptionSlot(t *testing.T) {
	for _, tc := range []struct {
		arg    string
		name   string
		dashed bool
		ok     bool
	}{
		{"{path}", "path", false, true},
		{"-{f}", "f", true, true},
		{"--{f}x", "f", true, true},
		{"--name={x}", "", false, false},
		{"-n{x}", "", false, false},
		{"${HOME}{x}", "", false, false},
		{"plain", "", false, false},
	} {
		ref, dashed, ok := OptionSlot(tc.arg)
		if ref.Name != tc.name || dashed != tc.dashed || ok != tc.ok {
			t.Errorf("%s: got %q %v %v", tc.arg, ref.Name, dashed, ok)
		}
	}
}

func TestIsLabel(t *testing.T) {
	for _, s := range []string{"eu", "us-east-1", "-eu", "xn--bcher-kva", "A1"} {
		if !IsLabel(s) {
			t.Errorf("%q should be a label", s)
		}
	}
	for _, s := range []string{"", "127.0.0.1:18082/x?", "a.b", "a#", "a/b", "u@h", "h:1", "a%2Fb", "a\u3002b", "a b", "bücher", "a\tb"} {
		if IsLabel(s) {
			t.Errorf("%q should not be a label", s)
		}
	}
}
