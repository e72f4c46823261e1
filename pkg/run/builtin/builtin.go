// Package builtin holds the builtin handlers: the bodies of `entry: {type:
// builtin, handler: NAME}` tools, and the executor that runs them. It uses
// package run (Call, Error, the HTTP request helpers), so run cannot list
// it: Executors adds it to run's own executors.
package builtin

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// handlers lists the builtin handlers by entry.handler: adding one is one
// file and one row here. A handler is a run.Executor that gets the
// validated input in c.Input; one that sends requests implements
// run.Network, one that can describe its request for --dry-run
// run.Planner.
var handlers = map[string]run.Executor{
	"array":            handlerFunc(arrayHandler),
	"calculator":       handlerFunc(calculatorHandler),
	"datetime":         handlerFunc(datetimeHandler),
	"file_reader":      handlerFunc(fileReaderHandler),
	"http_request":     httpRequest{},
	"json_transformer": handlerFunc(jsonTransformerHandler),
	"llm_call":         llmCall{},
	"object":           handlerFunc(objectHandler),
	"string":           handlerFunc(stringHandler),
	"text_analyzer":    handlerFunc(textAnalyzerHandler),
}

// handlerFunc is a handler that is a plain computation: nothing to plan,
// no network.
type handlerFunc func(ctx context.Context, c *run.Call) (any, error)

func (f handlerFunc) Execute(ctx context.Context, c *run.Call) (any, error) { return f(ctx, c) }

// Executors is run.Executors() with the builtin entry type added: the
// table of every entry type, for a Runner that runs any tool.
func Executors() map[string]run.Executor {
	x := run.Executors()
	x[spec.EntryBuiltin] = Executor{}
	return x
}

// Names lists the builtin handler names, sorted.
func Names() []string {
	return slices.Sorted(maps.Keys(handlers))
}

// Executor runs builtin entries: the handler entry.handler names.
type Executor struct{}

func (Executor) Execute(ctx context.Context, c *run.Call) (any, error) {
	h, err := handler(c.Tool)
	if err != nil {
		return nil, err
	}
	return h.Execute(ctx, c)
}

// Check refuses a handler toolctl does not have.
func (Executor) Check(c *run.Call) error {
	_, err := handler(c.Tool)
	return err
}

// Plan describes what a handler with a planner would do; handlers
// without one (pure computations) have nothing to show beyond the input.
func (Executor) Plan(c *run.Call) (any, error) {
	if p, ok := handlers[c.Tool.Entry.Handler].(run.Planner); ok {
		return p.Plan(c)
	}
	return nil, nil
}

// Networked is the handler's: only those that send requests say so.
func (Executor) Networked(t *spec.Tool) bool {
	n, ok := handlers[t.Entry.Handler].(run.Network)
	return ok && n.Networked(t)
}

// Method is the HTTP method the handler sends, "" for none.
func (Executor) Method(c *run.Call) string {
	if n, ok := handlers[c.Tool.Entry.Handler].(run.Network); ok {
		return n.Method(c)
	}
	return ""
}

func handler(t *spec.Tool) (run.Executor, error) {
	name := t.Entry.Handler
	h, ok := handlers[name]
	if !ok {
		if name == "" {
			return nil, run.DefinitionErrorf("/entry", "a builtin entry needs entry.handler; use one of %s", strings.Join(Names(), ", "))
		}
		return nil, run.DefinitionErrorf("/entry/handler", "entry.handler %q is not a builtin handler; use one of %s", name, strings.Join(Names(), ", "))
	}
	return h, nil
}
