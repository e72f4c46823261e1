package spec

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
)

// LoadNamed loads what is needed to find the tool called name in paths, as
// Load(paths) followed by Lookup(name) would: when a file named after the
// tool (NAME.yaml, NAME.yml or NAME.json) defines it and no other file can
// (none has the name in its text), only that file is parsed; otherwise,
// and whenever the name is not found exactly once, every file is, so that
// "not found" and "defined twice" see the whole set. The returned set holds
// the files parsed; Lookup(name) on it gives what it gives on Load(paths).
//
// The other files are read, not parsed: a tool's name is a scalar of its
// file, and a scalar's value is in the text as is unless it is escaped
// (a backslash), folded (whitespace, which the names this applies to do
// not have) or the file is UTF-16.
func LoadNamed(paths []string, name string) (*Set, error) {
	files, err := Collect(paths)
	if err != nil {
		return nil, err
	}
	if set := loadNamedFast(files, name); set != nil {
		return set, nil
	}
	return LoadFiles(files), nil
}

// loadNamedFast returns the set of the files named after the tool, or nil
// when the whole set must be loaded.
func loadNamedFast(files []string, name string) *Set {
	if !plainName(name) {
		return nil
	}
	var named []string
	for _, f := range files {
		if strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)) == name {
			named = append(named, f)
		} else if mayDefine(f, name) {
			return nil
		}
	}
	if len(named) == 0 {
		return nil
	}
	set := LoadFiles(named)
	if len(set.Lookup(name)) != 1 {
		return nil
	}
	return set
}

// plainName: letters, digits, '_', '-' and '.', which a file's text holds
// as they are in any scalar style.
func plainName(name string) bool {
	if name == "" {
		return false
	}
	for i := range len(name) {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// mayDefine tells whether the file at path could define a tool called name
// (a plain name): it cannot be read as a tool file (ReadToolFile: not a
// regular file, which is not opened, or too large), it is UTF-16, or its
// text has the name as is or once escapes are decoded.
func mayDefine(path, name string) bool {
	data, err := ReadToolFile(path)
	if err != nil || isUTF16(data) {
		return true // let the full load read or report it
	}
	return bytes.Contains(data, []byte(name)) ||
		bytes.IndexByte(data, '\\') >= 0 && bytes.Contains(unescapeNameChars(data), []byte(name))
}

// unescapeNameChars decodes, anywhere in data, the escapes of JSON strings
// and YAML double-quoted scalars that give a letter, digit, '_', '-' or
// '.' (\xHH, \uHHHH, \UHHHHHHHH) and drops escaped line breaks with the
// indentation after them (YAML joins the lines); any other escape becomes
// a NUL, which no plain name holds. A scalar whose value is a plain name
// is then a substring of the result: decoding left to right, an escape
// before the scalar never reaches into it (a failed one consumes only its
// backslash).
func unescapeNameChars(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' || i+1 == len(data) {
			out = append(out, c)
			continue
		}
		switch next := data[i+1]; next {
		case 'x', 'u', 'U':
			n := 2 // \xHH
			if next == 'u' {
				n = 4
			} else if next == 'U' {
				n = 8
			}
			if i+2+n > len(data) {
				out = append(out, 0) // not an escape: the backslash alone
				continue
			}
			if v, ok := fastnode.HexDigits(data[i+2 : i+2+n]); ok {
				if v < 128 && plainName(string(rune(v))) {
					out = append(out, byte(v))
				} else {
					out = append(out, 0)
				}
				i += 1 + n
				continue
			}
			out = append(out, 0) // not an escape: the backslash alone
		case '\n', '\r':
			j := i + 1
			for j < len(data) && (data[j] == '\n' || data[j] == '\r') {
				j++
			}
			for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
				j++
			}
			i = j - 1
		default:
			out = append(out, 0)
			i++
		}
	}
	return out
}
