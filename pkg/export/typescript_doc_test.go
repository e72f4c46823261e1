package export_test

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

// A description with line breaks and "*/" stays inside its JSDoc comment,
// every line of it prefixed with " * ".
func TestTypeScriptDocLines(t *testing.T) {
	src := "name: multi\ndescription: \"First line.\\r\\nsecond */ line\\nthird\"\ncategory: custom\nentry: {type: javascript, code: \"function execute(i){return 1}\"}\n"
	f := spec.ParseFile("multi.yaml", []byte(src))
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	doc, _, err := export.Export(f.Tools, export.Options{Format: export.TypeScript})
	if err != nil {
		t.Fatal(err)
	}
	out := string(doc)
	for _, want := range []string{"\n * Input of multi: First line.\n", "\n * second *\\/ line\n", "\n * third\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "\r") {
		t.Errorf("a carriage return in\n%s", out)
	}
}

// A $ref keeps its type: each referenced definition is a type alias named
// after it (recursion included, names kept apart from the tool's own), "#"
// is the input interface itself, allOf is an intersection, and a $ref that
// does not resolve is unknown with a warning.
func TestTypeScriptRefs(t *testing.T) {
	src := `name: rec
description: A recursive tree and references. Use when testing exports.
input_schema:
  type: object
  properties:
    tree: {$ref: "#/$defs/node", description: The tree.}
    self: {$ref: "#"}
    both: {allOf: [{$ref: "#/$defs/point"}, {type: object, properties: {z: {type: number}}}]}
    maybe: {anyOf: [{$ref: "#/$defs/point"}, {type: "null"}]}
    bad: {$ref: "#/$defs/missing"}
    named: {$ref: "#/$defs/RecInput"}
  required: [tree]
  $defs:
    node:
      type: object
      properties:
        children: {type: array, items: {$ref: "#/$defs/node"}}
    point: {type: object, properties: {x: {type: number}}, required: [x]}
    RecInput: {type: string}
`
	f := spec.ParseFile("rec.yaml", []byte(src))
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	doc, ws, err := export.Export(f.Tools, export.Options{Format: export.TypeScript})
	if err != nil {
		t.Fatal(err)
	}
	out := string(doc)
	for _, want := range []string{
		"export type Node = {\n  children?: Node[];\n};\n",
		"export type Point = {\n  x: number;\n};\n",
		"export type RecInput2 = string;\n",
		"  tree: Node;\n", "  self?: RecInput;\n", "  both?: Point & {\n", "  maybe?: Point | null;\n",
		"  bad?: unknown;\n", "  named?: RecInput2;\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if len(ws) != 1 || !strings.Contains(ws[0].Message, "$ref #/$defs/missing, which does not resolve") {
		t.Errorf("warnings %v", ws)
	}
}
