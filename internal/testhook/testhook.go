// Package testhook lets tests inject a panic where toolctl reads one file,
// to check that the panic becomes that file's error and nothing else
// stops. Outside tests no hook is set and Check does nothing.
package testhook

import "sync/atomic"

var hook atomic.Pointer[func(stage, name string)]

// Set installs fn (nil removes it) and returns a function that restores
// the previous hook.
func Set(fn func(stage, name string)) (restore func()) {
	var p *func(stage, name string)
	if fn != nil {
		p = &fn
	}
	old := hook.Swap(p)
	return func() { hook.Store(old) }
}

// Check calls the hook, when one is set, with the stage of the work
// ("parse", "format", "import") and the name of the file or input.
func Check(stage, name string) {
	if fn := hook.Load(); fn != nil {
		(*fn)(stage, name)
	}
}
