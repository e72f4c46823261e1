// Package tokens counts what tool definitions cost in a model's context,
// per tool and per provider format, from each provider's exported payload
// (pkg/export): exact for OpenAI with an embedded tokenizer (encoding.go,
// the cookbook's accounting in openai.go), an estimate for Anthropic and
// Gemini (estimate.go). toolctl tokens prints it; lint's budget rules read
// it through a hook cmd sets.
package tokens

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Formats are the export formats tokens counts, in documentation order.
var Formats = []export.Format{export.OpenAI, export.OpenAIResponses, export.Anthropic, export.Gemini, export.MCP}

// DefaultFormats are counted when none is chosen.
var DefaultFormats = []export.Format{export.OpenAI, export.Anthropic}

// Part kinds of a tool's cost.
const (
	PartDescription = "description"
	PartParameter   = "parameter"
	PartExamples    = "examples"
	PartRest        = "rest"
)

// Part is a share of a tool's tokens: its description (with the name for
// OpenAI's prompt accounting), one top-level parameter (its name, schema
// and description, with what is nested in it), or the rest (structure,
// overheads, other fields).
type Part struct {
	Kind string
	// Name is the parameter's name ("" for the others).
	Name string
	// Pointer is the canonical pointer of the part in the tool
	// (/description, /input_schema/properties/NAME); "" for rest.
	Pointer string
	Tokens  int
}

// Label is the part as a table shows it.
func (p Part) Label() string {
	if p.Kind == PartParameter {
		return "parameter " + p.Name
	}
	return p.Kind
}

// Cost is a tool's cost in one format.
type Cost struct {
	// Tokens is the headline number: for openai and openai-responses the
	// prompt tokens as the model sees the definition (the cookbook's
	// accounting); for anthropic and gemini the estimate; for mcp the
	// tokens of the exported JSON.
	Tokens int
	// JSON is the tokens of the exported JSON element of the tool
	// (compact, as sent), in the format's encoding (o200k_base for the
	// estimated formats).
	JSON int
	// Parts split Tokens (Options.Parts); they add up to it.
	Parts []Part
	// UncountedDefs (openai, openai-responses) is the tokens of the JSON
	// of the schema's $defs, which Tokens leaves out: how OpenAI renders
	// them in the prompt is not published (openai.go).
	UncountedDefs int
}

// FormatInfo says how a format's numbers were made.
type FormatInfo struct {
	Format   export.Format
	Model    string
	Encoding string
	// Exact is false for an estimate.
	Exact bool
	// Error is an estimate's expected relative error ("" when exact).
	Error string
	// PerRequest is paid once per request with tools, whatever their
	// number: OpenAI's func_end, Anthropic's tool-use system prompt.
	PerRequest int
	// Method says in one line what Tokens counts.
	Method string
}

// ToolCost is one tool's cost in every format of a Report.
type ToolCost struct {
	Tool *spec.Tool
	// Name is the tool's source name.
	Name  string
	Costs []Cost
}

// Report is the cost of a set of tools.
type Report struct {
	Formats []FormatInfo
	Tools   []ToolCost
	// Sum is the tools' tokens per format; Total adds PerRequest.
	Sum, Total []int
}

// Options choose what to count.
type Options struct {
	// Formats to count (DefaultFormats when empty), in column order.
	Formats []export.Format
	// Model selects the accounting of its family (an OpenAI model the
	// encoding and constants of openai and openai-responses, a Claude
	// model the tool-use prompt of anthropic); the other families keep
	// their default model.
	Model string
	// Parts splits each cost into description, parameters and rest.
	Parts bool
	// Sort is "tokens" (default: costliest first by the first format) or
	// "name".
	Sort string
	// Strict counts the strict export (export --strict) of the formats
	// that have one (openai, openai-responses, anthropic).
	Strict bool
}

// formatModel resolves the model and method of each format.
func formatInfo(f export.Format, model Model) FormatInfo {
	switch f {
	case export.OpenAI, export.OpenAIResponses:
		m := Model{Name: DefaultOpenAIModel, Family: "openai", Encoding: O200kBase}
		if model.Family == "openai" {
			m = model
		}
		return FormatInfo{Format: f, Model: m.Name, Encoding: m.Encoding, Exact: true, PerRequest: cookbookFor(m.Encoding).funcEnd,
			Method: "prompt tokens as the model sees the definitions (OpenAI cookbook accounting, " + m.Encoding + ")"}
	case export.Anthropic, export.Gemini:
		fam := string(f)
		name := DefaultAnthropicModel
		if f == export.Gemini {
			name = DefaultGeminiModel
		}
		if model.Family == fam {
			name = model.Name
		}
		e := estimates[fam]
		return FormatInfo{Format: f, Model: name, Encoding: O200kBase, Error: e.Error, PerRequest: e.PerRequest(name), Method: "estimate: " + e.Note}
	default: // mcp
		enc := O200kBase
		if model.Family == "openai" {
			enc = model.Encoding
		}
		return FormatInfo{Format: f, Encoding: enc, Exact: true, Method: "tokens of the exported tools/list JSON (" + enc + ")"}
	}
}

// CheckFormats reports a format tokens does not count.
func CheckFormats(fs []export.Format) error {
	for _, f := range fs {
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("--format %q: tokens counts %s", f, formatNames(Formats))
		}
	}
	return nil
}

func formatNames(fs []export.Format) string {
	s := ""
	for i, f := range fs {
		if i > 0 {
			s += ", "
		}
		s += string(f)
	}
	return s
}

// Measure counts tools in every format of opts. Names that collide once
// mapped for a provider refuse the count with the export's *export.Error.
func Measure(tools []*spec.Tool, opts Options) (*Report, error) {
	formats := opts.Formats
	if len(formats) == 0 {
		formats = DefaultFormats
	}
	if err := CheckFormats(formats); err != nil {
		return nil, err
	}
	var model Model
	if opts.Model != "" {
		m, err := LookupModel(opts.Model)
		if err != nil {
			return nil, err
		}
		model = m
		if !slices.ContainsFunc(formats, func(f export.Format) bool { return CheckModel(f, opts.Model) == nil }) {
			return nil, fmt.Errorf("--model %s is a%s %s model, and no format counted uses it (%s); add --format %s", opts.Model, article(m.Family), familyName(m.Family), formatNames(formats), map[string]string{"openai": "openai", "anthropic": "anthropic", "gemini": "gemini"}[m.Family])
		}
	}
	r := &Report{Sum: make([]int, len(formats)), Total: make([]int, len(formats))}
	index := map[*spec.Tool]int{}
	for _, t := range tools {
		index[t] = len(r.Tools)
		r.Tools = append(r.Tools, ToolCost{Tool: t, Name: t.Name, Costs: make([]Cost, len(formats))})
	}
	for fi, f := range formats {
		info := formatInfo(f, model)
		r.Formats = append(r.Formats, info)
		res, err := export.Build(tools, export.Options{Format: f, Strict: opts.Strict && slices.Contains(export.StrictFormats, f)})
		if err != nil {
			return nil, err
		}
		costs := measureItems(f, info, res.Items, opts.Parts)
		for i, it := range res.Items {
			c := costs[i]
			if !opts.Parts {
				c.Parts = nil
			}
			r.Tools[index[it.Tool]].Costs[fi] = c
			r.Sum[fi] += c.Tokens
		}
		r.Total[fi] = r.Sum[fi] + info.PerRequest
	}
	sortTools(r.Tools, opts.Sort)
	return r, nil
}

// MeasureTool is one tool's cost in one format (with its parts), for the
// lint budget rules.
func MeasureTool(t *spec.Tool, format export.Format, model string) (Cost, FormatInfo, error) {
	r, err := Measure([]*spec.Tool{t}, Options{Formats: []export.Format{format}, Model: model, Parts: true})
	if err != nil {
		return Cost{}, FormatInfo{}, err
	}
	return r.Tools[0].Costs[0], r.Formats[0], nil
}

func sortTools(ts []ToolCost, by string) {
	slices.SortStableFunc(ts, func(a, b ToolCost) int {
		if by != "name" && len(a.Costs) > 0 {
			if c := cmp.Compare(b.Costs[0].Tokens, a.Costs[0].Tokens); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Name, b.Name)
	})
}

// measureItems counts the exported elements on every CPU: tokenizing is
// most of the work (1,000 tools: BenchmarkMeasure1000).
func measureItems(f export.Format, info FormatInfo, items []export.Item, parts bool) []Cost {
	out := make([]Cost, len(items))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(items))) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(items) {
					return
				}
				out[i] = measureItem(f, info, items[i], parts)
			}
		})
	}
	wg.Wait()
	return out
}

// measureItem counts one exported element, and with parts splits it (for
// the JSON formats that tokenizes each part again).
func measureItem(f export.Format, info FormatInfo, it export.Item, withParts bool) Cost {
	m, _ := it.Value.(*spec.Map)
	if m == nil {
		return Cost{}
	}
	fn, schemaKey := m, "inputSchema"
	switch f {
	case export.OpenAI:
		fn, _ = m.GetMap("function")
		schemaKey = "parameters"
	case export.OpenAIResponses:
		schemaKey = "parameters"
	case export.Anthropic:
		schemaKey = "input_schema"
	case export.Gemini:
		schemaKey = "parametersJsonSchema"
		if !fn.Has(schemaKey) {
			schemaKey = "parameters"
		}
	}
	if fn == nil {
		fn = spec.NewMap(0)
	}
	whole := compactJSON(m)
	c := Cost{JSON: Count(info.Encoding, whole)}
	desc, _ := fn.GetString("description")
	schema, _ := fn.GetMap(schemaKey)
	if schema == nil {
		schema = spec.NewMap(0)
	}
	switch f {
	case export.OpenAI, export.OpenAIResponses:
		name, _ := fn.GetString("name")
		c.Tokens, c.Parts = openAIPrompt(info.Encoding, name, desc, schema)
		c.UncountedDefs = uncountedDefs(info.Encoding, schema)
	default:
		if !withParts {
			c.Tokens = c.JSON
			if e, ok := estimates[string(f)]; ok {
				c.Tokens = scale(c.JSON, e.Factor)
			}
			return c
		}
		parts := jsonParts(info.Encoding, desc, schema)
		if ex, ok := fn.Get("input_examples"); ok {
			// Anthropic's input_examples: the tool's examples, sent too.
			parts = append(parts, Part{Kind: PartExamples, Pointer: "/examples", Tokens: Count(info.Encoding, `"input_examples":`+compactJSON(ex))})
		}
		if e, ok := estimates[string(f)]; ok {
			c.Tokens = scale(c.JSON, e.Factor)
			for i := range parts {
				parts[i].Tokens = scale(parts[i].Tokens, e.Factor)
			}
		} else {
			c.Tokens = c.JSON
		}
		rest := c.Tokens
		for _, p := range parts {
			rest -= p.Tokens
		}
		c.Parts = append(parts, Part{Kind: PartRest, Tokens: rest})
	}
	return c
}

// jsonParts are the tokens of the description's JSON string and of each
// top-level property as it appears in the JSON ("name":{schema}).
func jsonParts(encoding, desc string, schema *spec.Map) []Part {
	parts := []Part{{Kind: PartDescription, Pointer: "/description", Tokens: Count(encoding, compactJSON(desc))}}
	if props, ok := schema.GetMap("properties"); ok {
		for i := range props.Len() {
			key, v := props.At(i)
			parts = append(parts, Part{Kind: PartParameter, Name: key, Pointer: spec.Pointer("input_schema", "properties", key),
				Tokens: Count(encoding, compactJSON(key)+":"+compactJSON(v))})
		}
	}
	return parts
}

// compactJSON is v as the API receives it: compact, keys in order.
func compactJSON(v any) string {
	b, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return ""
	}
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return ""
	}
	return out.String()
}

// CheckModel reports a model that cannot count format: an OpenAI model
// for openai, openai-responses and mcp, a Claude model for anthropic, a
// Gemini model for gemini.
func CheckModel(format export.Format, name string) error {
	m, err := LookupModel(name)
	if err != nil {
		return err
	}
	want := map[export.Format]string{export.OpenAI: "openai", export.OpenAIResponses: "openai", export.MCP: "openai", export.Anthropic: "anthropic", export.Gemini: "gemini"}[format]
	if m.Family != want {
		return fmt.Errorf("model %q is a%s %s model; format %s counts with a%s %s model (e.g. %s)", name, article(m.Family), familyName(m.Family), format, article(want), familyName(want), map[string]string{"openai": DefaultOpenAIModel, "anthropic": DefaultAnthropicModel, "gemini": DefaultGeminiModel}[want])
	}
	return nil
}

func familyName(f string) string {
	return map[string]string{"openai": "OpenAI", "anthropic": "Claude", "gemini": "Gemini"}[f]
}

func article(f string) string {
	if f == "openai" {
		return "n"
	}
	return ""
}
