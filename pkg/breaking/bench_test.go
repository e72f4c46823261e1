package breaking

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// genTool writes tool i of a synthetic set: ten parameters (nested
// objects, arrays, enums, bounds, a $ref), an output schema, hints;
// changed tools (every 20th, when changed is set) lose a parameter and
// tighten a bound.
func genTool(i int, changed bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: tool_%04d\ndescription: Does thing %d with the given inputs. Use when thing %d is needed.\nversion: \"1.0.0\"\n", i, i, i)
	b.WriteString("entry: {type: http, url: \"https://api.example.com/v1/things\", method: POST}\n")
	b.WriteString("input_schema:\n  type: object\n  properties:\n")
	mutate := changed && i%20 == 0
	for p := range 10 {
		if mutate && p == 9 {
			continue
		}
		switch p % 5 {
		case 0:
			fmt.Fprintf(&b, "    p%d: {type: string, description: Parameter %d., maxLength: 200, pattern: \"^[a-z]+$\"}\n", p, p)
		case 1:
			max := 100
			if mutate {
				max = 50
			}
			fmt.Fprintf(&b, "    p%d: {type: integer, description: Parameter %d., minimum: 0, maximum: %d, default: 1}\n", p, p, max)
		case 2:
			fmt.Fprintf(&b, "    p%d: {type: string, enum: [a, b, c, d], description: Parameter %d.}\n", p, p)
		case 3:
			fmt.Fprintf(&b, "    p%d:\n      type: object\n      description: Parameter %d.\n      properties:\n        x: {type: number}\n        y: {type: [string, \"null\"]}\n        z: {$ref: \"#/$defs/point\"}\n      required: [x]\n", p, p)
		case 4:
			fmt.Fprintf(&b, "    p%d: {type: array, items: {type: string, format: email}, description: Parameter %d., maxItems: 10}\n", p, p)
		}
	}
	b.WriteString("  required: [p0, p1]\n  $defs:\n    point: {type: object, properties: {lat: {type: number}, lon: {type: number}}, required: [lat, lon]}\n")
	b.WriteString("output_schema:\n  type: object\n  properties:\n    id: {type: string}\n    items: {type: array, items: {type: object, properties: {n: {type: integer}}}}\n  required: [id]\n")
	b.WriteString("annotations: {readOnlyHint: true, openWorldHint: false}\n")
	return b.String()
}

func genSet(b *testing.B, n int, changed bool) []*Tool {
	b.Helper()
	out := make([]*Tool, 0, n)
	for i := range n {
		f := spec.ParseFile(fmt.Sprintf("tool_%04d.yaml", i), []byte(genTool(i, changed)))
		if len(f.Errors) > 0 {
			b.Fatal(f.Errors[0])
		}
		out = append(out, FromSpec(f.Tools[0]))
	}
	return out
}

// BenchmarkCompare1000 compares two versions of 1,000 tools (50 of them
// changed), loaded and normalised beforehand: the budget is
// 0.5 s for this, on top of loading.
func BenchmarkCompare1000(b *testing.B) {
	old, nw := genSet(b, 1000, false), genSet(b, 1000, true)
	b.ResetTimer()
	var n int
	for range b.N {
		n = len(Compare(old, nw, Options{Additions: true}))
	}
	b.ReportMetric(float64(n), "findings")
}

// BenchmarkNormalise1000 is building the canonical models of 1,000
// parsed tools (part of loading a side).
func BenchmarkNormalise1000(b *testing.B) {
	var tools []*spec.Tool
	for i := range 1000 {
		f := spec.ParseFile(fmt.Sprintf("tool_%04d.yaml", i), []byte(genTool(i, false)))
		tools = append(tools, f.Tools[0])
	}
	b.ResetTimer()
	for range b.N {
		for _, t := range tools {
			FromSpec(t)
		}
	}
}
