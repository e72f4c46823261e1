// Package fastnode builds, for the YAML and JSON that tool files are made
// of, the yaml.Node tree yaml.v3 would build, several times faster: the
// same kinds, styles, tags, values and positions. Each parser refuses
// (ok=false) what it cannot vouch for, and the caller (pkg/spec) then
// takes the yaml.v3 path, so trees and errors stay the same either way.
package fastnode

// MaxInput is the largest input the parsers take (positions are int32);
// it is spec.MaxFileSize, which a test in pkg/spec holds equal.
const MaxInput = 16 << 20

// UseYAML and UseJSON let tests compare spec.ParseFile with and without
// the fast parsers.
var UseYAML, UseJSON = true, true

// bom is the UTF-8 byte order mark.
var bom = []byte("\xef\xbb\xbf")
