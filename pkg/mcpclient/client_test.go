package mcpclient

import (
	"reflect"
	"testing"
)

func TestSplitCommandLine(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"uvx mcp-server-fetch", []string{"uvx", "mcp-server-fetch"}, false},
		{"  npx  -y\t@scope/pkg  ", []string{"npx", "-y", "@scope/pkg"}, false},
		{`a 'b c' "d e"`, []string{"a", "b c", "d e"}, false},
		{`a "x\"y" 'it'\''s'`, []string{"a", `x"y`, "it's"}, false},
		{`a "\n\$" b\ c`, []string{"a", `\n$`, "b c"}, false},
		{`a '' ""`, []string{"a", "", ""}, false},
		{`a --k=${TOKEN}`, []string{"a", "--k=${TOKEN}"}, false},
		{"a \\\nb", []string{"a", "b"}, false},
		{`a 'open`, nil, true},
		{`a "open`, nil, true},
		{`a \`, nil, true},
		{"", nil, false},
	}
	for _, tt := range tests {
		got, err := SplitCommandLine(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}
