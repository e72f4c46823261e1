package jsvm

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"sync"

	"github.com/dop251/goja"
)

// Rich results (README "Rich results"): the global toolctl holds content
// item constructors and a result envelope, and execute gets a second
// argument, ctx, which reports progress and log messages while the call
// runs. A content item, a list of them or an envelope returned by execute
// is the call's result as MCP content (Output.Content); anything else is
// a JSON value, as before.

// richPrg builds the toolctl object from the native helper b64 (bytes to
// base64). Items and
// envelopes are marked with symbols, which JSON.stringify leaves out, so
// a plain object that happens to look like one stays a plain value.
// It is compiled on first use, not at init: the worker starts fast and
// toolctl's other commands never pay for it.
var richPrg = sync.OnceValue(func() *goja.Program { return goja.MustCompile("toolctl-rich", richSrc, true) })

const richSrc = `(function (b64) {
  "use strict";
  const ITEM = Symbol("toolctl.content"), RESULT = Symbol("toolctl.result");
  function data(d, what) {
    if (typeof d === "string") return d;
    if (d instanceof ArrayBuffer || ArrayBuffer.isView(d) || Array.isArray(d)) return b64(d);
    throw new TypeError(what + ": data must be a base64 string, an ArrayBuffer, a typed array or an array of bytes");
  }
  function str(v, what) {
    if (typeof v !== "string" || v === "") throw new TypeError(what + " must be a non-empty string");
    return v;
  }
  function extra(o, opts) {
    if (opts && opts.annotations !== undefined) o.annotations = opts.annotations;
    if (opts && opts._meta !== undefined) o._meta = opts._meta;
    Object.defineProperty(o, ITEM, { value: true });
    return o;
  }
  function item(v) {
    if (typeof v === "string") return toolctl.text(v);
    return v;
  }
  const toolctl = {
    text(text, opts) { return extra({ type: "text", text: String(text) }, opts); },
    image(d, mimeType, opts) {
      return extra({ type: "image", data: data(d, "toolctl.image"), mimeType: str(mimeType, "toolctl.image: mimeType") }, opts);
    },
    audio(d, mimeType, opts) {
      return extra({ type: "audio", data: data(d, "toolctl.audio"), mimeType: str(mimeType, "toolctl.audio: mimeType") }, opts);
    },
    resource(uri, r, opts) {
      r = r || {};
      const res = { uri: str(uri, "toolctl.resource: uri") };
      if (r.mimeType !== undefined) res.mimeType = r.mimeType;
      if (r.blob !== undefined) res.blob = data(r.blob, "toolctl.resource: blob");
      else res.text = r.text === undefined ? "" : String(r.text);
      if (r._meta !== undefined) res._meta = r._meta;
      return extra({ type: "resource", resource: res }, opts);
    },
    resourceLink(uri, r, opts) {
      r = r || {};
      const o = { type: "resource_link", uri: str(uri, "toolctl.resourceLink: uri"), name: r.name === undefined ? uri : String(r.name) };
      for (const k of ["title", "description", "mimeType", "size"]) if (r[k] !== undefined) o[k] = r[k];
      return extra(o, opts);
    },
    result(r) {
      r = r || {};
      let content = r.content === undefined ? [] : r.content;
      if (!Array.isArray(content)) content = [content];
      const o = { content: content.map(item) };
      if (r.structuredContent !== undefined) o.structuredContent = r.structuredContent;
      if (r.isError) o.isError = true;
      if (r._meta !== undefined) o._meta = r._meta;
      Object.defineProperty(o, RESULT, { value: true });
      return o;
    },
    error(message) { return toolctl.result({ content: [toolctl.text(message)], isError: true }); },
  };
  Object.freeze(toolctl);
  // envelope: the result envelope of a rich result, undefined otherwise
  function envelope(v) {
    if (v === null || typeof v !== "object") return undefined;
    if (v[RESULT]) return v;
    if (v[ITEM]) return { content: [v] };
    if (Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === "object" && x[ITEM])) return { content: v };
    return undefined;
  }
  return { toolctl, envelope };
})`

// setupRich defines the global toolctl, built on first use (most tools
// never touch it, and building it costs more than a small call), and
// returns ctx, which is native.
func (r *state) setupRich() (ctx goja.Value, err error) {
	vm := r.vm
	get := vm.ToValue(func(goja.FunctionCall) goja.Value { return r.toolctlObject() })
	set := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		// The code's own toolctl (var toolctl = ...) replaces ours.
		_ = vm.GlobalObject().DefineDataProperty("toolctl", call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		return goja.Undefined()
	})
	if err := vm.GlobalObject().DefineAccessorProperty("toolctl", get, set, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return nil, err
	}
	return r.ctxObject(), nil
}

// toolctlObject builds the toolctl object once per call and returns it.
func (r *state) toolctlObject() goja.Value {
	if r.toolctl != nil {
		return r.toolctl
	}
	vm := r.vm
	v, err := vm.RunProgram(richPrg())
	if err != nil {
		panic(vm.NewGoError(err))
	}
	build, _ := goja.AssertFunction(v)
	out, err := build(goja.Undefined(), vm.ToValue(r.b64))
	if err != nil {
		panic(vm.NewGoError(err))
	}
	obj := out.ToObject(vm)
	r.toolctl = obj.Get("toolctl")
	r.envelope, _ = goja.AssertFunction(obj.Get("envelope"))
	_ = vm.GlobalObject().DefineDataProperty("toolctl", r.toolctl, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return r.toolctl
}

// ctxObject is execute's second argument: ctx.progress(progress, total,
// message), ctx.log(level, message, data) and ctx.debug/info/notice/
// warning/error(message, data).
func (r *state) ctxObject() goja.Value {
	vm := r.vm
	ctx := vm.NewObject()
	num := func(v goja.Value, what string) float64 {
		f, ok := v.Export().(float64)
		if i, isInt := v.Export().(int64); isInt {
			f, ok = float64(i), true
		}
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			panic(vm.NewTypeError(what + " must be a finite number"))
		}
		return f
	}
	_ = ctx.Set("progress", func(call goja.FunctionCall) goja.Value {
		p := map[string]any{"progress": num(call.Argument(0), "ctx.progress: progress")}
		if t := call.Argument(1); !goja.IsUndefined(t) && !goja.IsNull(t) {
			p["total"] = num(t, "ctx.progress: total")
		}
		if m := call.Argument(2); !goja.IsUndefined(m) && !goja.IsNull(m) {
			p["message"] = m.String()
		}
		r.notifyGo(p)
		return goja.Undefined()
	})
	logf := func(level string, message, data goja.Value) {
		l := map[string]any{"log": level, "message": ""}
		if !goja.IsUndefined(message) {
			l["message"] = message.String()
		}
		if !goja.IsUndefined(data) {
			s, err := r.stringify(goja.Undefined(), data)
			if err != nil {
				panic(vm.NewTypeError("ctx.log: data cannot be converted to JSON"))
			}
			if !goja.IsUndefined(s) {
				l["data"] = json.RawMessage(s.String())
			}
		}
		r.notifyGo(l)
	}
	_ = ctx.Set("log", func(call goja.FunctionCall) goja.Value {
		logf(call.Argument(0).String(), call.Argument(1), call.Argument(2))
		return goja.Undefined()
	})
	for _, level := range []string{"debug", "info", "notice", "warning", "error"} {
		_ = ctx.Set(level, func(call goja.FunctionCall) goja.Value {
			logf(level, call.Argument(0), call.Argument(1))
			return goja.Undefined()
		})
	}
	_ = ctx.Set("sample", func(call goja.FunctionCall) goja.Value {
		params := map[string]any{}
		switch a := call.Argument(0); {
		case a.ExportType() != nil && a.ExportType().Kind() == reflect.String:
			params["messages"] = []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": a.String()}}}
		case isObject(a):
			r.mergeJSON(params, a, "ctx.sample")
		default:
			panic(vm.NewTypeError("ctx.sample: the first argument must be the prompt (a string) or the request's params (an object with messages)"))
		}
		if o := call.Argument(1); isObject(o) {
			r.mergeJSON(params, o, "ctx.sample: options")
		}
		if _, ok := params["maxTokens"]; !ok {
			params["maxTokens"] = defaultMaxTokens
		}
		return r.askPromise("sampling/createMessage", params)
	})
	_ = ctx.Set("elicit", func(call goja.FunctionCall) goja.Value {
		params := map[string]any{}
		a, schema := call.Argument(0), call.Argument(1)
		if isObject(a) && goja.IsUndefined(schema) {
			r.mergeJSON(params, a, "ctx.elicit")
		} else {
			if goja.IsUndefined(a) || goja.IsNull(a) {
				panic(vm.NewTypeError("ctx.elicit: the first argument must be the message to show the user"))
			}
			params["message"] = a.String()
			if isObject(schema) {
				s, err := r.stringify(goja.Undefined(), schema)
				if err != nil || goja.IsUndefined(s) {
					panic(vm.NewTypeError("ctx.elicit: requestedSchema cannot be converted to JSON"))
				}
				params["requestedSchema"] = json.RawMessage(s.String())
			}
		}
		if _, ok := params["requestedSchema"]; !ok {
			params["requestedSchema"] = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		return r.askPromise("elicitation/create", params)
	})
	return ctx
}

// defaultMaxTokens is ctx.sample's maxTokens when the tool gives none
// (the request must have one).
const defaultMaxTokens = 1000

func isObject(v goja.Value) bool {
	_, ok := v.(*goja.Object)
	return ok
}

// mergeJSON copies the members of the object v, through JSON, into m.
func (r *state) mergeJSON(m map[string]any, v goja.Value, what string) {
	s, err := r.stringify(goja.Undefined(), v)
	if err != nil || goja.IsUndefined(s) {
		panic(r.vm.NewTypeError(what + " cannot be converted to JSON"))
	}
	// Members stay raw JSON: the order of a schema's properties is the
	// order of a form's fields.
	var o map[string]json.RawMessage
	if json.Unmarshal([]byte(s.String()), &o) != nil {
		panic(r.vm.NewTypeError(what + " must be an object"))
	}
	for k, x := range o {
		m[k] = x
	}
}

// askPromise sends a request to the client and returns a Promise of its
// result: settled already, since the call waits for the answer (the VM
// runs nothing else meanwhile), so await and .then both work.
func (r *state) askPromise(method string, params map[string]any) goja.Value {
	vm := r.vm
	p, resolve, reject := vm.NewPromise()
	raw, err := json.Marshal(params)
	if err == nil {
		if r.ask == nil {
			err = errors.New("there is no MCP client to ask")
		} else {
			raw, err = r.ask(method, raw)
		}
	}
	var v goja.Value
	if err == nil {
		v, err = r.fromJSON(raw)
	}
	if err != nil {
		what := map[string]string{"sampling/createMessage": "ctx.sample", "elicitation/create": "ctx.elicit"}[method]
		e, nerr := vm.New(vm.Get("Error"), vm.ToValue(what+": "+err.Error()))
		if nerr != nil {
			_ = reject(vm.NewGoError(fmt.Errorf("%s: %w", what, err)))
		} else {
			_ = reject(e)
		}
	} else {
		_ = resolve(v)
	}
	return vm.ToValue(p)
}

// notifyGo sends one report to the call's Notify.
func (r *state) notifyGo(v map[string]any) {
	if r.notify == nil {
		return
	}
	if data, err := json.Marshal(v); err == nil {
		r.notify(json.RawMessage(data))
	}
}

// b64 encodes bytes (an ArrayBuffer, a typed array, an array of numbers)
// in base64.
func (r *state) b64(call goja.FunctionCall) goja.Value {
	arg := call.Argument(0)
	var b []byte
	switch x := arg.Export().(type) {
	case goja.ArrayBuffer:
		b = x.Bytes()
	case []byte:
		b = x
	default:
		obj := arg.ToObject(r.vm)
		if buf, ok := exportOf(obj.Get("buffer")).(goja.ArrayBuffer); ok {
			off := obj.Get("byteOffset").ToInteger()
			n := obj.Get("byteLength").ToInteger()
			b = buf.Bytes()[off : off+n]
		} else {
			var n int64
			if l := obj.Get("length"); l != nil {
				n = min(l.ToInteger(), 64<<20)
			}
			b = make([]byte, n)
			for i := int64(0); i < n; i++ {
				b[i] = byte(obj.Get(itoa(i)).ToInteger())
			}
		}
	}
	return r.vm.ToValue(base64.StdEncoding.EncodeToString(b))
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

// exportOf is v's Go value, nil for a missing property.
func exportOf(v goja.Value) any {
	if v == nil {
		return nil
	}
	return v.Export()
}
