package spec

import "github.com/toolctl/toolctl/pkg/spec/internal/fastnode"

// SurrogateError is a \u escape of half a UTF-16 surrogate pair without
// its other half: JSON's grammar lets it through, but it is no character
// (encoding/json would read it as U+FFFD, yaml.v3 refuses it).
type SurrogateError = fastnode.SurrogateError

// FindUnpairedSurrogate returns the first \u escape of half a surrogate
// pair without its other half in data, valid JSON text (or JSON Lines),
// or nil. Readers built on encoding/json, which would read such an escape
// as U+FFFD without a word, call it on what they decoded.
func FindUnpairedSurrogate(data []byte) *SurrogateError {
	return fastnode.FindUnpairedSurrogate(data)
}

// surrogateError reports an unpaired surrogate escape of a JSON file.
func (f *File) surrogateError(bad *SurrogateError) {
	f.Errors = append(f.Errors, f.surrogateErr(bad))
}

func (f *File) surrogateErr(bad *SurrogateError) *Error {
	p := f.PosAt(bad.Offset)
	return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + bad.Len()}}, Message: "invalid JSON string: " + bad.Error()}
}
