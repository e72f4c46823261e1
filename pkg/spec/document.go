package spec

import (
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	"gopkg.in/yaml.v3"
)

// ParseDocument parses data, a settings file rather than a tool file (say,
// .toolctl.yaml or a file named by --config), as tool files are read: by
// JSON's rules when path ends in .json (surrogate pairs, \/, any character
// but the C0 controls in a string), else as YAML. It returns the root of
// the first document, nil when there is none (an empty file, or only
// comments), or the syntax error, positioned as ParseFile positions it.
func ParseDocument(path string, data []byte) (*yaml.Node, *Error) {
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		// UTF-16 with a byte order mark, as ParseFile reads it.
		if u, _, err := transform.Bytes(unicode.BOMOverride(unicode.UTF8.NewDecoder()), data); err == nil {
			data = u
		}
	}
	f := &File{Path: path, Data: data}
	if f.isJSON() {
		if len(bytes.TrimSpace(bytes.TrimPrefix(data, bom))) == 0 {
			return nil, nil
		}
		if utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
			doc, bad, ok := fastnode.ParseJSON(data)
			switch {
			case bad != nil:
				return nil, f.surrogateErr(bad)
			case ok:
				return doc.Content[0], nil
			}
		}
	} else {
		var doc yaml.Node
		err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
		switch {
		case errors.Is(err, io.EOF):
			return nil, nil
		case err == nil && len(doc.Content) == 0:
			return nil, nil
		case err == nil:
			return doc.Content[0], nil
		}
	}
	// Not valid: the tool file reader says why, and where (UTF-16 and
	// other encodings, a NUL byte, syntax).
	if pf := ParseFile(path, data); len(pf.Errors) > 0 {
		return nil, pf.Errors[0]
	}
	return nil, &Error{File: path, Message: "cannot be read"} // not reached: ParseFile refuses what fastnode.ParseJSON does
}

// ParseTree is yaml.Unmarshal's tree of data (YAML, JSON read as YAML):
// the root of its first document, nil when data does not parse or holds
// no document. It is built by the fast parsers when they vouch for data
// (the same tree without comments, several times faster: the language
// server parses a 5 MB buffer in a fraction of yaml.v3's time), by
// yaml.v3 otherwise.
func ParseTree(data []byte) *yaml.Node {
	if len(data) <= fastnode.MaxInput && utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
		doc, ok := fastnode.ParseYAML(data)
		if !ok {
			if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
				doc, ok = fastnode.ParseJSONAsYAML(data)
			}
		}
		if ok && doc != nil && len(doc.Content) > 0 {
			return doc.Content[0]
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}
