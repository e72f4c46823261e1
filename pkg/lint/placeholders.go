package lint

import "github.com/toolctl/toolctl/pkg/spec"

// Helpers for the rules about {param} placeholders in an entry
// (command-*, url-placeholder-*), which pkg/tmpl reads as pkg/run does.

// fixedParam tells whether a parameter's value is the tool file's choice,
// as run decides it: bound (bind:), or restricted to an enum or const.
func fixedParam(t *spec.Tool, name string) bool {
	for _, b := range t.Bind {
		if b.Param == name {
			return true
		}
	}
	props, _ := t.InputSchema.GetMap("properties")
	p, _ := props.GetMap(name)
	return p.Has("enum") || p.Has("const")
}

// textSpan is the source range of text[off:end] inside the string value at
// ptr (the value's start when its escapes make columns inexact).
func textSpan(t *spec.Tool, ptr, text string, off, end int) spec.Span {
	line, col := lineCol(text, off)
	p := t.TextPos(ptr, line, col)
	return spec.Span{Start: p, End: spec.Pos{Line: p.Line, Col: p.Col + len([]rune(text[off:end]))}}
}
