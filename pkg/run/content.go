package run

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Rich results (README "Rich results"). A javascript, python, command or
// http tool can answer with MCP content instead of one JSON value: text,
// image, audio, embedded resource and resource link items, each with its
// optional annotations and _meta, plus structuredContent, _meta and
// isError. The executor hands the result's JSON (a CallToolResult as the
// MCP schema writes it) to contentResult, which checks it and returns the
// same *MCPResult an mcp entry's call returns: serve passes it on as it
// is, toolctl run prints it (--output json: whole), and an isError result
// is a ToolExecutionError whose Detail is the *MCPResult (the model sees
// its message; a crash stays a crash).

// maxContentItems bounds the content items of one result.
const maxContentItems = 1000

// contentResult checks raw, a CallToolResult's JSON written by the tool
// (what names it in messages: "execute's result"), and returns the
// *MCPResult, or for isError the ToolExecutionError carrying it.
func contentResult(raw []byte, what string) (any, error) {
	raw = bytes.TrimSpace(raw)
	var w struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           json.RawMessage   `json:"isError"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, Errorf(ToolExecutionError, "%s", envelopeError(what, err))
	}
	if len(w.Content) > maxContentItems {
		return nil, Errorf(ToolExecutionError, "%s has %d content items; at most %d are allowed", what, len(w.Content), maxContentItems)
	}
	for i, c := range w.Content {
		if msg := checkContentItem(c); msg != "" {
			return nil, Errorf(ToolExecutionError, "%s: content item %d %s", what, i, msg)
		}
	}
	if len(w.StructuredContent) > 0 && w.StructuredContent[0] != '{' && string(w.StructuredContent) != "null" {
		return nil, Errorf(ToolExecutionError, "%s: structuredContent must be a JSON object", what)
	}
	if len(w.IsError) > 0 && string(w.IsError) != "true" && string(w.IsError) != "false" && string(w.IsError) != "null" {
		return nil, Errorf(ToolExecutionError, "%s: isError must be true or false", what)
	}
	res := new(mcp.CallToolResult)
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, Errorf(ToolExecutionError, "%s is not a valid MCP tool result: %v", what, err)
	}
	if res.Content == nil {
		// "content" is required in the schema: an empty list rather than
		// none.
		res.Content = []mcp.Content{}
		if len(w.Content) == 0 {
			raw = withEmptyContent(raw)
		}
	}
	m, err := newMCPResult(raw, res)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode "+what+": "+err.Error())
	}
	if res.IsError {
		msg := mcpText(res.Content)
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		return nil, &Error{Kind: ToolExecutionError, Message: msg, Detail: m}
	}
	return m, nil
}

// envelopeError says why a result envelope does not decode in the words
// of the envelope ("content" is a JSON number; it must be a list), not of
// the Go structure it is decoded into.
func envelopeError(what string, err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("%s is a JSON %s, not a result envelope; write a JSON object with a \"content\" list of content items", what, te.Value)
		}
		return fmt.Sprintf("%s: %q is a JSON %s; it must be a list of content items, e.g. [{\"type\": \"text\", \"text\": \"...\"}]", what, te.Field, te.Value)
	}
	return fmt.Sprintf("%s is not a result envelope (a JSON object with content): %v", what, err)
}

// withEmptyContent adds "content":[] to an envelope object without it.
func withEmptyContent(raw []byte) []byte {
	var w struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &w) == nil && w.Content == nil && len(raw) > 1 && raw[0] == '{' {
		rest := bytes.TrimSpace(raw[1:])
		if len(rest) > 0 && rest[0] == '}' {
			return []byte(`{"content":[]}`)
		}
		return append([]byte(`{"content":[],`), rest...)
	}
	return raw
}

// checkContentItem says what is wrong with one content item ("" when
// nothing is), in words a tool's author can act on.
func checkContentItem(raw json.RawMessage) string {
	var c struct {
		Type     string          `json:"type"`
		Text     *string         `json:"text"`
		Data     *string         `json:"data"`
		MIMEType string          `json:"mimeType"`
		URI      string          `json:"uri"`
		Name     *string         `json:"name"`
		Resource json.RawMessage `json:"resource"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return "is not a JSON object: " + err.Error()
	}
	switch c.Type {
	case "text":
		if c.Text == nil {
			return `(text) has no "text" string`
		}
	case "image", "audio":
		if c.Data == nil || *c.Data == "" {
			return fmt.Sprintf(`(%s) has no "data" (the bytes in base64)`, c.Type)
		}
		if c.MIMEType == "" {
			return fmt.Sprintf(`(%s) has no "mimeType" (e.g. %s)`, c.Type, map[string]string{"image": "image/png", "audio": "audio/wav"}[c.Type])
		}
		if !mediaTypeOf(c.MIMEType, c.Type) {
			return fmt.Sprintf(`(%s) has mimeType %q; an %s item needs an %s/* type (e.g. %s)`, c.Type, c.MIMEType, c.Type, c.Type, map[string]string{"image": "image/png", "audio": "audio/wav"}[c.Type])
		}
		if !validBase64(*c.Data) {
			return fmt.Sprintf(`(%s) has "data" that is not base64`, c.Type)
		}
	case "resource_link":
		if c.URI == "" {
			return `(resource_link) has no "uri"`
		}
		if c.Name == nil {
			return `(resource_link) has no "name"`
		}
	case "resource":
		var r struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob *string `json:"blob"`
		}
		if len(c.Resource) == 0 || json.Unmarshal(c.Resource, &r) != nil {
			return `(resource) has no "resource" object`
		}
		if r.URI == "" {
			return `(resource) has no "resource.uri"`
		}
		if (r.Text == nil) == (r.Blob == nil) {
			return `(resource) needs exactly one of "resource.text" and "resource.blob" (base64)`
		}
		if r.Blob != nil && !validBase64(*r.Blob) {
			return `(resource) has a "resource.blob" that is not base64`
		}
	case "":
		return `has no "type" (text, image, audio, resource or resource_link)`
	default:
		return fmt.Sprintf("has type %q; use text, image, audio, resource or resource_link", c.Type)
	}
	return ""
}

// mediaTypeOf tells whether mimeType is a media type of the top-level
// type kind ("image" or "audio"), as the MCP schema asks of ImageContent
// and AudioContent: image/png, IMAGE/SVG+XML; charset=utf-8, not
// text/html, image or image/. Every item a tool makes (the JavaScript and
// Python helpers, a result envelope) is checked here; the items toolctl
// makes itself (stdout sniffed, an http Content-Type, output.content)
// are of the kind by construction.
func mediaTypeOf(mimeType, kind string) bool {
	mt, _, err := mimeParse(mimeType)
	if err != nil {
		return false
	}
	k, sub, _ := strings.Cut(mt, "/")
	return k == kind && sub != ""
}

// validBase64 tells whether s is standard base64 with padding, as MCP
// writes binary data.
func validBase64(s string) bool {
	if len(s)%4 != 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'A' && ch <= 'Z', ch >= 'a' && ch <= 'z', ch >= '0' && ch <= '9', ch == '+', ch == '/':
		case ch == '=' && i >= len(s)-2 && strings.Trim(s[i:], "=") == "":
		default:
			return false
		}
	}
	return true
}

// EnvelopeKey marks a JSON object a command tool writes on stdout (and a
// python tool's helpers write for it) as a result envelope rather than a
// JSON value: {"toolctl": "result", "content": [...], "structuredContent":
// {...}, "isError": true}. The key itself is not part of the result.
const EnvelopeKey = "toolctl"

// envelope returns the result of stdout that is a result envelope;
// ok false when it is not one.
func envelope(v any, what string) (res any, ok bool, err error) {
	m, isMap := v.(*spec.Map)
	if !isMap {
		return nil, false, nil
	}
	if mark, _ := m.Get(EnvelopeKey); mark != "result" {
		return nil, false, nil
	}
	out := spec.NewMap(m.Len())
	for _, k := range m.Keys() {
		if k != EnvelopeKey {
			x, _ := m.Get(k)
			out.Set(k, x)
		}
	}
	raw, err := MarshalJSON(out)
	if err != nil {
		return nil, true, Wrap(ToolExecutionError, err, "cannot encode "+what+": "+err.Error())
	}
	res, err = contentResult(raw, what)
	return res, true, err
}

// mediaResult is the content item of stdout that is an image or audio
// file (recognised by its first bytes, as http.DetectContentType does),
// nil for anything else. Text and JSON are never media.
func mediaResult(out []byte) any {
	if len(out) == 0 || utf8.Valid(out) {
		return nil
	}
	res, _ := mediaContent(http.DetectContentType(out), out)
	return res
}

// mediaKind is "image" or "audio" for a MIME type of either, else "".
func mediaKind(contentType string) (kind, mime string) {
	mt, _, err := mimeParse(contentType)
	if err != nil {
		return "", ""
	}
	k, _, _ := strings.Cut(mt, "/")
	if k != "image" && k != "audio" {
		return "", ""
	}
	return k, mt
}

// mediaContent is a result of one image or audio item holding data;
// ok false when contentType is neither.
func mediaContent(contentType string, data []byte) (any, bool) {
	kind, mime := mediaKind(contentType)
	if kind == "" {
		return nil, false
	}
	type item struct {
		Type     string `json:"type"`
		Data     string `json:"data"`
		MIMEType string `json:"mimeType"`
	}
	raw, err := json.Marshal(struct {
		Content []item `json:"content"`
	}{[]item{{kind, base64.StdEncoding.EncodeToString(data), mime}}})
	if err != nil {
		return nil, false
	}
	res, err := contentResult(raw, "the "+kind)
	if err != nil {
		return nil, false
	}
	return res, true
}

func mimeParse(contentType string) (string, map[string]string, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	return strings.ToLower(mt), params, err
}

// declaredMedia is the content item of data (a command's stdout, an http
// response's body, whose Content-Type is got, "" for none) for a tool
// whose output.content names an image or audio type: that type, or for
// image/* and audio/* the type got or sniffed from the bytes. ok false
// when the tool declares no such type; an error when data is not of it.
func declaredMedia(t *spec.Tool, data []byte, got string) (res any, ok bool, err error) {
	if t == nil || t.Output == nil {
		return nil, false, nil
	}
	kind, sub, _ := strings.Cut(t.Output.Content, "/")
	if kind != "image" && kind != "audio" {
		return nil, false, nil
	}
	if len(data) == 0 {
		return nil, true, Errorf(ToolExecutionError, "the tool's output.content is %s, but its result is empty", t.Output.Content)
	}
	mime := t.Output.Content
	if sub == "*" {
		mime = ""
		for _, c := range []string{got, http.DetectContentType(data)} {
			if k, mt := mediaKind(c); k == kind {
				mime = mt
				break
			}
		}
		if mime == "" {
			return nil, true, Errorf(ToolExecutionError, "the tool's output.content is %s, but its result is not %s %s (it looks like %s); set output.content to the exact type", t.Output.Content, map[string]string{"image": "an", "audio": "an"}[kind], kind, http.DetectContentType(data))
		}
	}
	res, ok = mediaContent(mime, data)
	if !ok {
		return nil, true, Errorf(ToolExecutionError, "cannot make a %s item of the result", mime)
	}
	return res, true, nil
}
