package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"io"
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// JSON files are read into the same node trees as YAML (so ordering and
// conversion are shared) and written back as JSON with 2-space
// indentation: strings re-escaped the way toolctl writes JSON everywhere
// (no HTML escaping), numbers exactly as written.

// maxJSONDepth bounds nesting; real tool files are a few levels deep.
const maxJSONDepth = 1000

func (f *file) formatJSON(src []byte, parsed *spec.File) ([]byte, error) {
	if !json.Valid(src) {
		return nil, f.parseErrors(parsed, errors.New("invalid JSON"))
	}
	d := &jsonReader{dec: json.NewDecoder(bytes.NewReader(src)), src: src, path: f.path}
	d.dec.UseNumber()
	root, err := d.value(0)
	if err != nil {
		return nil, Errors{err}
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	if err := f.tools(doc, false); err != nil {
		return nil, err
	}
	out, merr := spec.MarshalJSONIndent(spec.NodeValue(root))
	if merr != nil {
		return nil, Errors{f.errAt(nil, "cannot write the formatted JSON: %v", merr)}
	}
	if f.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

type jsonReader struct {
	dec  *json.Decoder
	src  []byte
	path string
	file *spec.File
}

func (d *jsonReader) errAt(offset int64, format string, args ...any) *Error {
	return &Error{File: d.path, Span: diag.At(d.pos(offset)), Message: fmt.Sprintf(format, args...)}
}

// value reads one JSON value as a node; a key given twice in an object is
// an error (JSON allows it, but which one counts is up to the reader).
func (d *jsonReader) value(depth int) (*yaml.Node, *Error) {
	if depth > maxJSONDepth {
		return nil, d.errAt(d.dec.InputOffset(), "JSON nested more than %d levels deep", maxJSONDepth)
	}
	start := d.skip(d.dec.InputOffset())
	n, err := d.token(depth)
	if err == nil {
		// positions for messages (a refused conversion points at its node)
		p := d.pos(start)
		n.Line, n.Column = p.Line, p.Col
	}
	return n, err
}

func (d *jsonReader) pos(offset int64) spec.Pos {
	if d.file == nil {
		d.file = &spec.File{Path: d.path, Data: d.src}
	}
	return d.file.PosAt(int(offset))
}

func (d *jsonReader) token(depth int) (*yaml.Node, *Error) {
	tok, err := d.dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, d.errAt(d.dec.InputOffset(), "JSON: %v", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			seen := map[string]bool{}
			for d.dec.More() {
				off := d.skip(d.dec.InputOffset())
				kt, err := d.dec.Token()
				if err != nil {
					return nil, d.errAt(off, "JSON: %v", err)
				}
				key, _ := kt.(string)
				if seen[key] {
					return nil, d.errAt(off, "key %q appears twice in this object; remove one (which one a reader keeps differs)", key)
				}
				seen[key] = true
				v, verr := d.value(depth + 1)
				if verr != nil {
					return nil, verr
				}
				kp := d.pos(off)
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: kp.Line, Column: kp.Col}, v)
			}
			_, err := d.dec.Token()
			if err != nil {
				return nil, d.errAt(d.dec.InputOffset(), "JSON: %v", err)
			}
			return n, nil
		case '[':
			n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			for d.dec.More() {
				v, verr := d.value(depth + 1)
				if verr != nil {
					return nil, verr
				}
				n.Content = append(n.Content, v)
			}
			if _, err := d.dec.Token(); err != nil {
				return nil, d.errAt(d.dec.InputOffset(), "JSON: %v", err)
			}
			return n, nil
		}
		return nil, d.errAt(d.dec.InputOffset(), "JSON: unexpected %q", t)
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}, nil
	case json.Number:
		tag := "!!float"
		if _, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(t)}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, d.errAt(d.dec.InputOffset(), "JSON: unexpected token %v", tok)
}

// skip moves past separators and blanks from offset (the decoder's
// offset after the previous token) to the start of the next token.
func (d *jsonReader) skip(off int64) int64 {
	for int(off) < len(d.src) {
		switch d.src[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}
