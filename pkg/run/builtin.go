package run

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Handler is a builtin handler: the body of an `entry: {type: builtin,
// handler: NAME}` tool. It gets the validated input in c.Input.
type Handler func(ctx context.Context, c *Call) (any, error)

var (
	handlersMu sync.RWMutex
	handlers   = map[string]Handler{}
	planners   = map[string]func(*Call) (any, error){}
)

// RegisterPlanner lets a builtin describe, for --dry-run, the request it
// would send (http_request, llm_call).
func RegisterPlanner(name string, plan func(*Call) (any, error)) {
	handlersMu.Lock()
	defer handlersMu.Unlock()
	planners[name] = plan
}

// Plan describes what a builtin with a planner would do; builtins without
// one (pure computations) have nothing to show beyond the input.
func (builtinExecutor) Plan(c *Call) (any, error) {
	handlersMu.RLock()
	p, ok := planners[c.Tool.Entry.Handler]
	handlersMu.RUnlock()
	if !ok {
		return nil, nil
	}
	return p(c)
}

// RegisterHandler adds a builtin handler; each builtin_<name>.go file
// registers its own in an init function.
func RegisterHandler(name string, h Handler) {
	handlersMu.Lock()
	defer handlersMu.Unlock()
	handlers[name] = h
}

// Handlers lists the registered builtin handler names, sorted.
func Handlers() []string {
	handlersMu.RLock()
	defer handlersMu.RUnlock()
	out := make([]string, 0, len(handlers))
	for n := range handlers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

type builtinExecutor struct{}

// Networked: http_request and llm_call send requests; the other handlers
// compute locally.
func (builtinExecutor) Networked(t *spec.Tool) bool {
	h := t.Entry.Handler
	return h == "http_request" || h == "llm_call"
}

// Method is http_request's input method (GET when left out).
func (builtinExecutor) Method(c *Call) string {
	if c.Tool.Entry.Handler != "http_request" {
		return ""
	}
	m, _ := c.Input["method"].(string)
	if m == "" {
		return http.MethodGet
	}
	return m
}

func (builtinExecutor) Execute(ctx context.Context, c *Call) (any, error) {
	h, err := builtinHandler(c)
	if err != nil {
		return nil, err
	}
	return h(ctx, c)
}

// Check refuses a handler toolctl does not have.
func (builtinExecutor) Check(c *Call) error {
	_, err := builtinHandler(c)
	return err
}

func builtinHandler(c *Call) (Handler, error) {
	name := c.Tool.Entry.Handler
	handlersMu.RLock()
	h, ok := handlers[name]
	handlersMu.RUnlock()
	if !ok {
		if name == "" {
			return nil, definitionErrorf("/entry", "a builtin entry needs entry.handler; use one of %s", strings.Join(Handlers(), ", "))
		}
		return nil, definitionErrorf("/entry/handler", "entry.handler %q is not a builtin handler; use one of %s", name, strings.Join(Handlers(), ", "))
	}
	return h, nil
}
