// Package contract is the engine of toolctl test: every documented
// example of a tool is a contract test. Each example runs through the
// runner of toolctl run (bind, defaults, validation, timeout, retries) and
// its result is compared with expected (a subset match by default, or as
// the example's expect: object says), and with the tool's output schema.
package contract

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// Status is an example's or a tool's outcome.
type Status string

const (
	Pass Status = "ok"
	Fail Status = "FAIL"
	Skip Status = "skip"
)

// Caller calls a tool with an input: the runner by default, a live MCP
// server under --server.
type Caller func(ctx context.Context, t *spec.Tool, input map[string]any) (any, error)

// Options configure a run.
type Options struct {
	// Runner runs the examples (Call is used instead when set).
	Runner *run.Runner
	Call   Caller
	// Getenv reads the environment, to skip tools whose secrets are unset.
	Getenv func(string) string
	// Offline skips examples that need the network.
	Offline bool
	// Filter selects examples by "TOOL/SCENARIO" (like go test -run); nil
	// is every example.
	Filter *regexp.Regexp
	// Parallel is how many tools run at once (0: the number of CPUs); the
	// examples of one tool run in order.
	Parallel int
	// Done, when set, is told each example's outcome as it finishes.
	Done func(*Outcome)
	// ToolDone, when set, is told each tool's result in the order of the
	// tools, as soon as the tool and every tool before it finished (calls
	// are never concurrent), so that a report can be written as it goes.
	ToolDone func(*ToolResult)
	// Cassettes says whether http tools replay or record cassettes
	// (testdata/NAME.cassette.yaml beside the tool file).
	Cassettes CassetteMode
	// NewRunner builds the runner of a tool that uses a cassette: with its
	// environment and HTTP client. Without it cassettes are not used.
	NewRunner func(getenv func(string) string, client *http.Client) *run.Runner
	// Server, when set, is the live MCP server under test: every tool of
	// the files must be listed with an equivalent input schema, and the
	// examples are called through it.
	Server *Server
	// RecordTransport is where recorded HTTP requests go (nil:
	// http.DefaultTransport); the cassette holds each request as the tool
	// sent it. Tests route them to a local stub.
	RecordTransport http.RoundTripper

	// replaying: the tool's calls replay its cassette (set per tool).
	replaying bool
}

// Outcome is one example's result.
type Outcome struct {
	Tool     *spec.Tool
	Index    int
	Scenario string
	Status   Status
	// Reason says why the example was skipped, or what failed.
	Reason string
	// Replayed tells the responses came from the tool's cassette.
	Replayed bool
	// Diffs are the differences between expected and the result.
	Diffs    []Diff
	Duration time.Duration
	// File and Pos are where the example is.
	File string
	Pos  diag.Pos
}

// Name is the example's test name: TOOL/SCENARIO (or TOOL/#N).
func (o *Outcome) Name() string { return ExampleName(o.Tool, o.Index) }

// Where is the example's FILE:LINE:COL.
func (o *Outcome) Where() string { return diag.Where(o.File, o.Pos) }

// ExampleName is TOOL/SCENARIO, the scenario's spaces as underscores
// (go test's subtest names), or TOOL/#N without a scenario.
func ExampleName(t *spec.Tool, i int) string {
	s := strings.TrimSpace(t.Examples[i].Scenario)
	if s == "" {
		return fmt.Sprintf("%s/#%d", t.Name, i)
	}
	return t.Name + "/" + strings.Join(strings.Fields(s), "_")
}

// ToolResult is one tool's examples' outcomes.
type ToolResult struct {
	Tool   *spec.Tool
	Status Status
	Reason string // a tool's skip reason, when every example was skipped for one
	// Problems are the differences between the tool's input schema and
	// the one the server lists (--server): each fails the tool.
	Problems []diag.Diagnostic
	Outcomes []*Outcome
	Duration time.Duration
}

// Run tests the examples of tools; tools without examples (or none the
// filter selects) are left out. Results are in the order of tools.
func Run(ctx context.Context, tools []*spec.Tool, opts Options) []*ToolResult {
	var todo []*ToolResult
	for _, t := range tools {
		if len(t.Examples) == 0 {
			continue
		}
		tr := &ToolResult{Tool: t}
		for i := range t.Examples {
			if opts.Filter != nil && !opts.Filter.MatchString(ExampleName(t, i)) {
				continue
			}
			ptr := fmt.Sprintf("/examples/%d", i)
			tr.Outcomes = append(tr.Outcomes, &Outcome{Tool: t, Index: i, Scenario: t.Examples[i].Scenario, File: t.Path(), Pos: t.Pos(ptr)})
		}
		if len(tr.Outcomes) > 0 {
			todo = append(todo, tr)
		}
	}
	if opts.Server != nil {
		// Each call keeps its tool's runtime.timeout, as toolctl run's do:
		// a server that never answers fails the example, not the run.
		srv, runner := opts.Server, opts.Runner
		opts.Call = func(ctx context.Context, t *spec.Tool, input map[string]any) (any, error) {
			timeout := run.DefaultTimeout
			if runner != nil {
				timeout = runner.PolicyFor(t).Timeout
			}
			return srv.CallWithin(ctx, t, input, timeout)
		}
		listed := map[*spec.Tool]bool{}
		for _, tr := range todo {
			listed[tr.Tool] = true
		}
		var all []*ToolResult
		i := 0
		for _, t := range tools {
			if i < len(todo) && todo[i].Tool == t {
				all = append(all, todo[i])
				i++
			} else if !listed[t] && opts.Filter == nil {
				all = append(all, &ToolResult{Tool: t})
			}
		}
		todo = all
		for _, tr := range todo {
			tr.Problems = opts.Server.SchemaProblems(tr.Tool)
		}
	}
	n := opts.Parallel
	if n <= 0 {
		n = runtime.NumCPU()
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	inOrder := &inOrder{results: todo, done: make([]bool, len(todo)), report: opts.ToolDone}
	for i, tr := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			start := time.Now()
			runTool(ctx, tr, opts)
			tr.Duration = time.Since(start)
			tr.Status, tr.Reason = summarize(tr.Outcomes)
			if len(tr.Problems) > 0 {
				tr.Status = Fail
			}
			inOrder.finished(i)
		}()
	}
	wg.Wait()
	return todo
}

// inOrder reports finished tools in their order: a tool once it and
// every tool before it finished.
type inOrder struct {
	mu      sync.Mutex
	results []*ToolResult
	done    []bool
	next    int
	report  func(*ToolResult)
}

func (o *inOrder) finished(i int) {
	if o.report == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done[i] = true
	for o.next < len(o.results) && o.done[o.next] {
		o.report(o.results[o.next])
		o.next++
	}
}

// runTool runs the examples of one tool in order, through its cassette
// when it uses one.
func runTool(ctx context.Context, tr *ToolResult, opts Options) {
	var cas *Cassette
	if n := len(tr.Tool.Examples); opts.NewRunner != nil && opts.Call == nil && opts.Cassettes == Record && Recordable(tr.Tool) && len(tr.Outcomes) < n {
		// a recording rewrites the whole cassette: the calls of the
		// examples left out would be lost
		for _, o := range tr.Outcomes {
			o.Status, o.Reason = Fail, fmt.Sprintf("--record rewrites the whole cassette of %s, but --run selects %d of its %d examples, so the others' recordings would be lost; select them all (e.g. --run '^%s/') or none", tr.Tool.Name, len(tr.Outcomes), n, regexp.QuoteMeta(tr.Tool.Name))
		}
		return
	}
	if opts.NewRunner != nil && opts.Call == nil {
		getenv := opts.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		c, err := openCassette(tr.Tool, opts.Cassettes, getenv, opts.RecordTransport)
		if err != nil {
			for _, o := range tr.Outcomes {
				o.Status, o.Reason = Fail, err.Error()
			}
			return
		}
		if c != nil {
			cas = c
			r := opts.NewRunner(c.Getenv, c.Client)
			r.Options.MCPWire = c.Wire
			if c.Replaying {
				zero := 0 // a replay answers the same again: no retries
				r.Retries = &zero
			}
			opts.Runner, opts.Getenv = r, c.Getenv
			if c.Replaying {
				opts.Offline = false // no network needed
				opts.replaying = true
			}
		}
	}
	for _, o := range tr.Outcomes {
		testExample(ctx, tr.Tool, o, &opts)
		if cas != nil && cas.Replaying && o.Status != Skip {
			o.Replayed = true
			if m := cas.TakeMismatch(); m != nil {
				o.Status, o.Reason, o.Diffs = Fail, m.Message, m.Diffs
			}
		}
		if opts.Done != nil {
			opts.Done(o)
		}
	}
	ran := false
	for _, o := range tr.Outcomes {
		ran = ran || o.Status != Skip
	}
	// A recording where every example was skipped (a secret not set)
	// recorded nothing: the cassette there is kept, none is written.
	if cas != nil && (cas.Replaying || ran) {
		if err := cas.Stop(); err != nil {
			for _, o := range tr.Outcomes {
				if o.Status != Fail {
					o.Status, o.Reason = Fail, err.Error()
				}
			}
		}
	}
}

func summarize(os []*Outcome) (Status, string) {
	skips, reasons := 0, map[string]bool{}
	for _, o := range os {
		switch o.Status {
		case Fail:
			return Fail, ""
		case Skip:
			skips++
			reasons[o.Reason] = true
		}
	}
	if skips == len(os) && skips > 0 {
		var rs []string
		for r := range reasons {
			rs = append(rs, r)
		}
		sort.Strings(rs)
		return Skip, strings.Join(rs, "; ")
	}
	return Pass, ""
}

func testExample(ctx context.Context, t *spec.Tool, o *Outcome, opts *Options) {
	ex := t.Examples[o.Index]
	fail := func(format string, a ...any) {
		o.Status, o.Reason = Fail, fmt.Sprintf(format, a...)
	}
	if err := ctx.Err(); err != nil {
		fail("not run: %s", stopped(err))
		return
	}
	expect, err := ParseExpect(ex.Expect)
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			o.Pos = t.Pos(fmt.Sprintf("/examples/%d%s", o.Index, fe.Pointer))
		}
		fail("%v", err)
		return
	}
	if opts.Call == nil {
		getenv := opts.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		reason := SkipReason(t, getenv, opts.Offline)
		if reason == "" && t.Entry != nil && t.Entry.Kind() == spec.EntryPython {
			python := firstOf(t.Entry.Interpreter, opts.Runner.Options.Python, "python3")
			if _, err := exec.LookPath(python); err != nil {
				reason = "needs " + python + " (not found)"
			}
		}
		if reason != "" {
			o.Status, o.Reason = Skip, reason
			return
		}
	}
	input := map[string]any{}
	if ex.Params != nil {
		input, _ = spec.Plain(ex.Params).(map[string]any)
	}
	call := opts.Call
	if call == nil {
		call = func(ctx context.Context, t *spec.Tool, input map[string]any) (any, error) {
			res, err := opts.Runner.Run(ctx, t, input)
			if err != nil {
				return nil, err
			}
			return res.Value, nil
		}
	}
	// The tool's requests to the client get the example's answers.
	client := newCannedClient(expect.Client)
	ctx = run.WithAsker(ctx, client)
	start := time.Now()
	value, err := call(ctx, t, input)
	o.Duration = time.Since(start)
	if cerr := ctx.Err(); err != nil && cerr != nil {
		fail("stopped: %s", stopped(cerr))
		return
	}
	if expect.Error != nil {
		checkError(o, expect.Error, err)
		return
	}
	// A replay answers from the cassette without running the upstream
	// server, which asks nothing then: the answers were used when it was
	// recorded.
	if msg := client.unused(); msg != "" && err == nil && !opts.replaying {
		fail("%s", msg)
		return
	}
	ans, err := answerOf(value, err)
	if expect.IsError != nil && err != nil && ans != nil && ans.IsError {
		if !*expect.IsError {
			fail("the tool answered with an error (isError), expect.isError is false: %v", err)
			return
		}
		err = nil // the isError result is what the example expects
	}
	if err != nil {
		fail("the call failed: %v", err)
		return
	}
	if ans == nil {
		fail("the result cannot be read as MCP content")
		return
	}
	if expect.IsError != nil && *expect.IsError && !ans.IsError {
		fail("the result is not an error (isError), expect.isError is true")
		return
	}
	got, err := Normalize(ans.Value)
	if err != nil {
		fail("the result is not JSON: %v", err)
		return
	}
	o.Status = Pass
	var problems []string
	if t.OutputSchema != nil && !ans.IsError {
		s, err := validate.Compile(t.OutputSchema)
		if err != nil {
			problems = append(problems, "the tool's output schema does not compile: "+validate.CompileMessage(err))
		} else {
			problems = append(problems, schemaProblems("the tool's output schema", s, got)...)
		}
	}
	if expect.Schema != nil {
		problems = append(problems, schemaProblems("expect.schema", expect.Schema, got)...)
	}
	if expect.Contains != "" && !strings.Contains(asText(got), expect.Contains) {
		problems = append(problems, fmt.Sprintf("expect.contains: the result does not contain %q", expect.Contains))
	}
	if expect.Pattern != nil && !expect.Pattern.MatchString(asText(got)) {
		problems = append(problems, fmt.Sprintf("expect.pattern: the result does not match %q", expect.Pattern.String()))
	}
	if ex.Expected != nil {
		want, err := Normalize(ex.Expected)
		if err != nil {
			problems = append(problems, "expected is not JSON: "+err.Error())
		} else {
			if expect.Types {
				o.Diffs = CompareTypes(want, got)
			} else {
				o.Diffs = Compare(want, got, expect.Exact, expect.Tolerance)
			}
		}
	}
	var lead []string
	if len(o.Diffs) > 0 {
		mode := "subset"
		if expect.Exact {
			mode = "exact"
		} else if expect.Types {
			mode = "types"
		}
		lead = append(lead, fmt.Sprintf("the result does not match expected (%s match)", mode))
	}
	if expect.Content != nil {
		if d := contentDiffs(expect.Content, ans.content(), expect.Tolerance); len(d) > 0 {
			o.Diffs = append(o.Diffs, d...)
			lead = append(lead, "the content items do not match expect.content (each item a subset match, element by element)")
		}
	}
	problems = append(lead, problems...)
	if len(problems) > 0 {
		o.Status, o.Reason = Fail, strings.Join(problems, "; ")
	}
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// stopped says why the run's context ended.
func stopped(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "the whole run's --timeout expired; raise it (e.g. --timeout 30m) or select fewer examples with --run"
	}
	return "the run was interrupted"
}

func schemaProblems(what string, s *jsonschema.Schema, v any) []string {
	var out []string
	for _, p := range validate.Validate(s, v) {
		at := p.Pointer
		if at == "" {
			at = "the result"
		}
		out = append(out, fmt.Sprintf("%s: %s: %s", what, at, p.Message))
	}
	return out
}

// checkError checks a negative example's failure.
func checkError(o *Outcome, want *ExpectError, err error) {
	if err == nil {
		o.Status, o.Reason = Fail, "the call succeeded; expect.error says it must fail"
		if want.Type != "" {
			o.Reason += " with " + want.Type
		}
		return
	}
	kind := string(run.ToolExecutionError)
	var re *run.Error
	if errors.As(err, &re) {
		kind = string(re.Kind)
	}
	msg := err.Error()
	switch {
	case want.Type != "" && want.Type != kind:
		o.Status, o.Reason = Fail, fmt.Sprintf("the call failed with %s, expect.error.type is %s: %s", kind, want.Type, msg)
	case want.Message != "" && !strings.Contains(msg, want.Message):
		o.Status, o.Reason = Fail, fmt.Sprintf("the error message does not contain %q: %s", want.Message, msg)
	default:
		o.Status = Pass
	}
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// SkipReason says why t's examples cannot run here, or "": an llm_call
// (a model's answer is not a contract), a secret that is not set (a bound
// env variable, a ${VAR} of the entry), the network when offline.
func SkipReason(t *spec.Tool, getenv func(string) string, offline bool) string {
	e := t.Entry
	if e == nil {
		return "definition only: the tool has no entry to run"
	}
	kind := e.Kind()
	if kind == "builtin" && e.Handler == "llm_call" {
		return "llm_call: a model's answer is not reproducible"
	}
	var missing []string
	seen := map[string]bool{}
	need := func(v string) {
		if !seen[v] && getenv(v) == "" {
			missing = append(missing, v)
		}
		seen[v] = true
	}
	for _, b := range t.Bind {
		if b.Kind == spec.BindEnv {
			need(b.Ref)
		}
	}
	for _, s := range entryTexts(e) {
		for _, m := range envRef.FindAllStringSubmatch(s, -1) {
			need(m[1])
		}
	}
	if len(missing) > 0 {
		return "needs secret " + strings.Join(missing, ", ") + " (not set)"
	}
	if offline {
		switch {
		case kind == "http", kind == "builtin" && e.Handler == "http_request":
			return "needs the network (--offline)"
		case kind == "mcp" && (strings.HasPrefix(e.Server, "http://") || strings.HasPrefix(e.Server, "https://")):
			return "needs the network (--offline)"
		}
	}
	return ""
}

func show(v any) string {
	n, err := Normalize(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return jsonText(n)
}
