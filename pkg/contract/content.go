package contract

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolctl/toolctl/pkg/run"
)

// digestPrefix starts an expected data or blob given as the SHA-256 of
// its decoded bytes (expect.content).
const digestPrefix = "sha256:"

// Answer is a call's result as MCP content: Value is what expected,
// contains, pattern and the schemas check; Content the result's content
// items in wire form (normalized JSON values, nil for a plain value);
// IsError tells an isError result, a failure the model sees.
type Answer struct {
	Value   any
	Content []any
	IsError bool
	// plain is a value that is not MCP content: it counts as the one
	// text item toolctl serve sends for it.
	plain bool
}

// answerOf reads what a Caller returned: an *Answer (--server), an
// *run.MCPResult (rich results and mcp entries), or a plain value. An
// isError result comes as an error whose Detail is the *run.MCPResult
// or *Answer; it is returned with the error.
func answerOf(value any, err error) (*Answer, error) {
	if err != nil {
		var re *run.Error
		if errors.As(err, &re) {
			switch d := re.Detail.(type) {
			case *run.MCPResult:
				if d.Result != nil && d.Result.IsError {
					a, aerr := mcpAnswer(d)
					if aerr != nil {
						return nil, err
					}
					return a, err
				}
			case *Answer:
				if d.IsError {
					return d, err
				}
			}
		}
		return nil, err
	}
	switch v := value.(type) {
	case *Answer:
		return v, nil
	case *run.MCPResult:
		return mcpAnswer(v)
	}
	return &Answer{Value: value, plain: true}, nil
}

// mcpAnswer is the answer of an MCP result: its value as mcpValue says,
// its content items as sent.
func mcpAnswer(m *run.MCPResult) (*Answer, error) {
	v, err := mcpValue(m)
	if err != nil {
		return nil, err
	}
	var w struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(m.Raw, &w); err != nil {
		return nil, err
	}
	a := &Answer{Value: v, IsError: m.Result != nil && m.Result.IsError}
	if len(w.Content) > 0 {
		c, err := Normalize(w.Content)
		if err != nil {
			return nil, err
		}
		a.Content, _ = c.([]any)
	}
	if a.Content == nil {
		a.Content = []any{}
	}
	return a, nil
}

// sdkAnswer is the answer of a result an SDK client decoded (--server).
func sdkAnswer(res *mcp.CallToolResult, value any) *Answer {
	a := &Answer{Value: value, IsError: res.IsError, Content: []any{}}
	if data, err := json.Marshal(res.Content); err == nil {
		if c, err := Normalize(json.RawMessage(data)); err == nil {
			if list, ok := c.([]any); ok {
				a.Content = list
			}
		}
	}
	return a
}

// content is the answer's content items; a plain value is one text item,
// as toolctl serve sends it (a string as it is, anything else as JSON).
func (a *Answer) content() []any {
	if !a.plain {
		return a.Content
	}
	text, ok := a.Value.(string)
	if !ok {
		data, err := run.MarshalJSON(a.Value)
		if err != nil {
			return []any{}
		}
		text = string(data)
	}
	return []any{map[string]any{"type": "text", "text": text}}
}

// contentDiffs compares expect.content with the result's content items:
// element by element (as many items), each expected item a subset of the
// result's; a data or resource blob "sha256:HEX" is compared with the
// SHA-256 of the result's decoded bytes.
func contentDiffs(want, got []any, tol float64) []Diff {
	cmp := make([]any, len(got))
	for i, g := range got {
		cmp[i] = g
		if i < len(want) {
			cmp[i] = digested(want[i], g)
		}
	}
	var out []Diff
	comparer{tol: tol}.compare("$.content", want, cmp, &out)
	return out
}

// digested is got with its data (or resource blob) replaced by its
// digest where want gives a digest.
func digested(want, got any) any {
	w, _ := want.(map[string]any)
	g, _ := got.(map[string]any)
	if w == nil || g == nil {
		return got
	}
	out := make(map[string]any, len(g))
	for k, v := range g {
		out[k] = v
	}
	if isDigest(w["data"]) {
		out["data"] = digestOf(g["data"])
	}
	if wr, ok := w["resource"].(map[string]any); ok && isDigest(wr["blob"]) {
		if gr, ok := g["resource"].(map[string]any); ok {
			r := make(map[string]any, len(gr))
			for k, v := range gr {
				r[k] = v
			}
			r["blob"] = digestOf(gr["blob"])
			out["resource"] = r
		}
	}
	return out
}

func isDigest(v any) bool {
	s, ok := v.(string)
	return ok && strings.HasPrefix(s, digestPrefix)
}

// digestOf is "sha256:HEX" of base64 data; what is not base64 stays as
// it is (and so differs).
func digestOf(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return v
	}
	sum := sha256.Sum256(b)
	return digestPrefix + hex.EncodeToString(sum[:])
}
