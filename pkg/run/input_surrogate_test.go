package run

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// A bound value read as JSON (an object or array parameter from the
// environment) takes a surrogate pair as one character; half a pair is
// not read as U+FFFD but left as text, which validation then refuses.
func TestCoerceSurrogates(t *testing.T) {
	f := spec.ParseFile("t.yaml", []byte("name: t\ndescription: d\ninput_schema: {type: object, properties: {o: {type: object}}}\n"))
	if len(f.Tools) != 1 {
		t.Fatalf("tools %d, errors %v", len(f.Tools), f.Errors)
	}
	tool := f.Tools[0]
	m, ok := coerce(tool, "o", `{"a": "\ud83d\ude00"}`).(map[string]any)
	if !ok || m["a"] != "😀" {
		t.Errorf("pair: got %#v", m)
	}
	if got := coerce(tool, "o", `{"a": "\ud83d"}`); got != `{"a": "\ud83d"}` {
		t.Errorf("half a pair: got %#v, want the text", got)
	}
}
