package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
	"gopkg.in/yaml.v3"
)

// biRun calls a builtin handler with input given as JSON, decoded the way
// the runner decodes it (numbers as json.Number).
func biRun(t *testing.T, h handlerFunc, input string) (any, error) {
	t.Helper()
	return biRunCall(t, h, input, &run.Call{Options: &run.Options{}})
}

func biRunCall(t *testing.T, h handlerFunc, input string, c *run.Call) (any, error) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(input))
	dec.UseNumber()
	var in map[string]any
	if err := dec.Decode(&in); err != nil {
		t.Fatalf("bad test input %s: %v", input, err)
	}
	c.Input = in
	return h(context.Background(), c)
}

// biJSON renders a handler result as compact JSON.
func biJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("result is not JSON: %v (%#v)", err, v)
	}
	return strings.TrimSpace(b.String())
}

// biWantError checks that err is an *Error of kind whose message contains
// msg, and returns it.
func biWantError(t *testing.T, name string, err error, kind run.Kind, msg string) *run.Error {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s %q", name, kind, msg)
		return nil
	}
	var e *run.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %T %v, want *Error", name, err, err)
		return nil
	}
	if e.Kind != kind || !strings.Contains(e.Message, msg) {
		t.Errorf("%s: got %s %q, want %s containing %q", name, e.Kind, e.Message, kind, msg)
	}
	return e
}

// biBundled maps the handlers of the files tested here to the
// bundled tool file that runs each.
var biBundled = map[string]string{
	"calculator":       "calculator",
	"datetime":         "datetime",
	"string":           "string_ops",
	"array":            "array_ops",
	"object":           "object_ops",
	"text_analyzer":    "text_analyzer",
	"json_transformer": "json_query",
	"file_reader":      "file_reader",
}

// TestBundledBuiltinExamples runs every example of the bundled tools of
// these handlers: its params must be valid input, the handler must accept
// them, the result must match the tool's output schema, and a structured
// expected (a mapping, or a string holding one) must be part of the
// result.
func TestBundledBuiltinExamples(t *testing.T) {
	dtFixedNow(t) // datetime's "now" example shows 2026-11-21T09:30 in Tokyo
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	set, err := spec.Load([]string{filepath.Join(root, "tools")})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tool := range set.Tools() {
		if tool.EntryKind() != spec.EntryBuiltin || biBundled[tool.Entry.Handler] == "" {
			continue
		}
		if want := biBundled[tool.Entry.Handler]; tool.Name != want {
			continue // e.g. a user's tool of the same handler
		}
		seen[tool.Entry.Handler] = true
		t.Run(tool.Name, func(t *testing.T) {
			if errs := tool.Errors(); len(errs) > 0 {
				t.Fatalf("the tool file has errors: %v", errs)
			}
			if len(tool.Examples) == 0 {
				t.Fatal("no examples")
			}
			in, err := validate.Compile(validate.CallSchema(tool))
			if err != nil {
				t.Fatalf("input schema: %v", err)
			}
			if tool.OutputSchema == nil {
				t.Fatal("no output schema")
			}
			out, err := validate.Compile(tool.OutputSchema)
			if err != nil {
				t.Fatalf("output schema: %v", err)
			}
			h := handlers[tool.Entry.Handler]
			for i, ex := range tool.Examples {
				name := fmt.Sprintf("example %d (%s)", i+1, ex.Scenario)
				params, _ := spec.Plain(ex.Params).(map[string]any)
				if params == nil {
					params = map[string]any{}
				}
				if ps := validate.Validate(in, params); len(ps) > 0 {
					t.Errorf("%s: params are not valid input: %v", name, ps)
					continue
				}
				biDefaults(tool, params)
				got, err := h.Execute(context.Background(), &run.Call{Tool: tool, Input: params, Dir: filepath.Dir(tool.Path()), Options: &run.Options{FileRoot: root}})
				if err != nil {
					var e *run.Error
					// file_reader's examples name files of the user's
					// workspace, which need not exist here.
					if tool.Entry.Handler == "file_reader" && errors.As(err, &e) && e.Kind == run.NotFoundError {
						continue
					}
					t.Errorf("%s: %v", name, err)
					continue
				}
				plain := biPlain(t, got)
				if ps := validate.Validate(out, plain); len(ps) > 0 {
					t.Errorf("%s: the result %s does not match the output schema: %v", name, biJSON(t, got), ps)
				}
				want, ok := biExpected(ex.Expected)
				if !ok {
					continue // prose
				}
				if path, ok := biSubset(want, plain, ""); !ok {
					t.Errorf("%s: the result %s differs from expected %s at %q", name, biJSON(t, got), biJSON(t, want), path)
				}
			}
		})
	}
	var missing []string
	for h := range biBundled {
		if !seen[h] {
			missing = append(missing, h)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no bundled tool file for the handlers %v (expected tools/%v)", missing, biBundled)
	}
}

// biDefaults fills the top-level defaults of the input schema, as the
// runner does before a handler runs.
func biDefaults(tool *spec.Tool, params map[string]any) {
	props, _ := tool.Input().GetMap("properties")
	for _, k := range props.Keys() {
		p, _ := props.GetMap(k)
		if d, ok := p.Get("default"); ok {
			if _, given := params[k]; !given {
				params[k] = spec.Plain(spec.CloneValue(d))
			}
		}
	}
}

// biPlain turns a result into what a JSON reader would see.
func biPlain(t *testing.T, v any) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(biJSON(t, v)))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// biExpected returns an example's expected value when it is structured: a
// mapping or list, or a string holding a YAML flow mapping.
func biExpected(v any) (any, bool) {
	switch x := v.(type) {
	case *spec.Map, []any:
		return spec.Plain(x), true
	case string:
		s := strings.TrimSpace(x)
		if !strings.HasPrefix(s, "{") {
			return nil, false
		}
		var out any
		if err := yaml.Unmarshal([]byte(s), &out); err != nil {
			return nil, false
		}
		return out, true
	}
	return nil, false
}

// biSubset reports whether want is part of got: every key of a wanted
// object present with a matching value, lists of the same length matching
// item by item, numbers equal in value. It returns where they differ.
func biSubset(want, got any, at string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return at, false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return at + "/" + k, false
			}
			if p, ok := biSubset(wv, gv, at+"/"+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return at, false
		}
		for i := range w {
			if p, ok := biSubset(w[i], g[i], fmt.Sprintf("%s/%d", at, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	if _, ok := arrToRat(want); ok {
		return at, arrEqual(want, got)
	}
	return at, reflect.DeepEqual(want, got)
}
