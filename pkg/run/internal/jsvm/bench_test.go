package jsvm

import (
	"context"
	"testing"
)

func BenchmarkRun(b *testing.B) {
	for b.Loop() {
		if _, err := Run(context.Background(), Call{Name: "entry.code", Source: `function execute(input){ var out = {}; for (var k in input.data) out[k] = input.data[k]; return out }`, Input: []byte(`{"data":{"a":"x","b":"y"}}`)}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkServe(b *testing.B) {
	o := &out{w: discard{}}
	line := []byte(`{"name":"entry.code","source":"function execute(input){ var out = {}; for (var k in input.data) out[k] = input.data[k]; return out }","input":{"data":{"a":"x","b":"y"}},"memory":268435456,"deadline":0}`)
	for b.Loop() {
		res := serve(line, o, nil)
		if !res.OK {
			b.Fatal(res.Error)
		}
		_ = vmSize()
		o.line(res)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
