package run

import (
	"strings"
	"testing"
)

// TestEnvelopeShapeErrors: an envelope whose content is not a list, or
// that is not an object, is refused in the envelope's words, not with Go's
// "cannot unmarshal ... into Go struct field" (the same for JavaScript,
// Python and command tools: all go through contentResult).
func TestEnvelopeShapeErrors(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`{"content": 5}`, `"content" is a JSON number; it must be a list of content items`},
		{`{"content": {"type": "text"}}`, `"content" is a JSON object; it must be a list`},
		{`[1, 2]`, `is a JSON array, not a result envelope`},
	} {
		_, err := contentResult([]byte(tc.raw), "sh's result envelope")
		if err == nil {
			t.Errorf("%s: accepted", tc.raw)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.want) || strings.Contains(msg, "Go struct") || strings.Contains(msg, "json.RawMessage") {
			t.Errorf("%s: got %q, want it to contain %q and no Go type names", tc.raw, msg, tc.want)
		}
	}
}
