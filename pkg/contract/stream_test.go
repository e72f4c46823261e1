package contract

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

func streamTools(t *testing.T, n int) []*spec.Tool {
	t.Helper()
	var tools []*spec.Tool
	for i := range n {
		f := spec.ParseFile(fmt.Sprintf("t%d.yaml", i), fmt.Appendf(nil, `name: t%d
description: A tool. Use when testing.
examples:
  - params: {}
`, i))
		if len(f.Tools) != 1 {
			t.Fatalf("parse: %v", f.Errors)
		}
		tools = append(tools, f.Tools[0])
	}
	return tools
}

// TestToolDoneStreams: a tool is reported as soon as it and the tools
// before it finished, before later tools finish. Tool t1 waits until t0
// was reported; were reports made at the end, it would wait for ever (the
// 30 s bound catches that hang, it measures nothing).
func TestToolDoneStreams(t *testing.T) {
	tools := streamTools(t, 3)
	reported := map[string]chan struct{}{}
	for _, tl := range tools {
		reported[tl.Name] = make(chan struct{})
	}
	var order []string
	call := func(ctx context.Context, tl *spec.Tool, _ map[string]any) (any, error) {
		if tl.Name == "t1" {
			select {
			case <-reported["t0"]:
			case <-time.After(30 * time.Second):
				return nil, fmt.Errorf("t0 was not reported before t1 finished")
			}
		}
		return map[string]any{}, nil
	}
	results := Run(context.Background(), tools, Options{Call: call, Parallel: 1, ToolDone: func(tr *ToolResult) {
		order = append(order, tr.Tool.Name)
		close(reported[tr.Tool.Name])
	}})
	for _, tr := range results {
		if tr.Status != Pass {
			t.Errorf("%s: %s %v", tr.Tool.Name, tr.Status, tr.Outcomes[0].Reason)
		}
	}
	if fmt.Sprint(order) != "[t0 t1 t2]" {
		t.Errorf("reported %v, want each tool once in order", order)
	}
}

// TestToolDoneInOrder: tools finishing out of order (t2 first, t0 last,
// all at once) are reported in input order, each once, never concurrently.
func TestToolDoneInOrder(t *testing.T) {
	tools := streamTools(t, 3)
	finished := map[string]chan struct{}{"t0": make(chan struct{}), "t1": make(chan struct{}), "t2": make(chan struct{})}
	wait := map[string]string{"t0": "t1", "t1": "t2"} // t0 waits for t1 to finish, t1 for t2
	call := func(ctx context.Context, tl *spec.Tool, _ map[string]any) (any, error) {
		defer close(finished[tl.Name])
		if w, ok := wait[tl.Name]; ok {
			select {
			case <-finished[w]:
			case <-time.After(30 * time.Second):
				return nil, fmt.Errorf("%s did not finish", w)
			}
		}
		return map[string]any{}, nil
	}
	var mu sync.Mutex
	busy := false
	var order []string
	Run(context.Background(), tools, Options{Call: call, Parallel: 3, ToolDone: func(tr *ToolResult) {
		mu.Lock()
		if busy {
			t.Error("ToolDone called concurrently")
		}
		busy = true
		mu.Unlock()
		order = append(order, tr.Tool.Name)
		mu.Lock()
		busy = false
		mu.Unlock()
	}})
	if fmt.Sprint(order) != "[t0 t1 t2]" {
		t.Errorf("reported %v, want [t0 t1 t2]", order)
	}
}
