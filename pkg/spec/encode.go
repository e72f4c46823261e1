package spec

import (
	"encoding/json"
	"strconv"
)

// ToMap renders the canonical model in the canonical field order (README,
// "The tool file"). Empty fields are left out; schemas keep their key order. The
// result is a valid canonical tool file.
func (t *Tool) ToMap() *Map {
	m := NewMap(24)
	setStr := func(k, v string) {
		if v != "" {
			m.Set(k, v)
		}
	}
	setStr("name", t.Name)
	setStr("title", t.Title)
	setStr("description", t.Description)
	setStr("detail", t.Detail)
	setStr("category", t.Category)
	setStr("version", t.Version)
	setStr("author", t.Author)
	setStr("icon", t.Icon)
	if len(t.Tags) > 0 {
		m.Set("tags", stringsToAny(t.Tags))
	}
	setStr("shareable_scope", t.ShareableScope)
	if t.Entry != nil {
		m.Set("entry", t.Entry.ToMap())
	}
	if t.InputSchema != nil {
		m.Set("input_schema", t.InputSchema)
	}
	if t.OutputSchema != nil {
		m.Set("output_schema", t.OutputSchema)
	}
	if t.Output != nil && t.Output.Content != "" {
		om := NewMap(1)
		om.Set("content", t.Output.Content)
		m.Set("output", om)
	}
	if len(t.Triggers) > 0 {
		m.Set("triggers", stringsToAny(t.Triggers))
	}
	if len(t.Prerequisites) > 0 {
		list := make([]any, len(t.Prerequisites))
		for i, p := range t.Prerequisites {
			if p.Text != "" {
				list[i] = p.Text
				continue
			}
			pm := NewMap(3)
			setIn(pm, "condition", p.Condition)
			setIn(pm, "check_tool", p.CheckTool)
			setIn(pm, "action_if_not_met", p.ActionIfNotMet)
			list[i] = pm
		}
		m.Set("prerequisites", list)
	}
	if len(t.Examples) > 0 {
		list := make([]any, len(t.Examples))
		for i, ex := range t.Examples {
			em := NewMap(4)
			setIn(em, "scenario", ex.Scenario)
			if ex.Params != nil {
				em.Set("params", ex.Params)
			}
			if ex.Expected != nil {
				em.Set("expected", ex.Expected)
			}
			if ex.Expect != nil {
				em.Set("expect", ex.Expect)
			}
			list[i] = em
		}
		m.Set("examples", list)
	}
	if len(t.Warnings) > 0 {
		m.Set("warnings", stringsToAny(t.Warnings))
	}
	if len(t.RelatedTools) > 0 {
		list := make([]any, len(t.RelatedTools))
		for i, rt := range t.RelatedTools {
			rm := NewMap(2)
			setIn(rm, "name", rt.Name)
			setIn(rm, "relation", rt.Relation)
			list[i] = rm
		}
		m.Set("related_tools", list)
	}
	if w := t.Workflow; w != nil {
		wm := NewMap(2)
		setIn(wm, "name", w.Name)
		steps := make([]any, len(w.Steps))
		for i, st := range w.Steps {
			sm := NewMap(5)
			if st.Step != nil {
				sm.Set("step", st.Step)
			}
			setIn(sm, "action", st.Action)
			setIn(sm, "tool", st.Tool)
			if len(st.Tools) > 0 {
				sm.Set("tools", stringsToAny(st.Tools))
			}
			setIn(sm, "condition", st.Condition)
			steps[i] = sm
		}
		wm.Set("steps", steps)
		m.Set("workflow", wm)
	}
	if a := t.Annotations; a != nil {
		am := NewMap(5)
		setIn(am, "title", a.Title)
		setBool(am, "readOnlyHint", a.ReadOnlyHint)
		setBool(am, "destructiveHint", a.DestructiveHint)
		setBool(am, "idempotentHint", a.IdempotentHint)
		setBool(am, "openWorldHint", a.OpenWorldHint)
		m.Set("annotations", am)
	}
	if len(t.Bind) > 0 {
		bm := NewMap(len(t.Bind))
		for _, b := range t.Bind {
			src := NewMap(1)
			if b.Kind == BindValue {
				src.Set(string(b.Kind), b.Value)
			} else {
				src.Set(string(b.Kind), b.Ref)
			}
			bm.Set(b.Param, src)
		}
		m.Set("bind", bm)
	}
	if r := t.Runtime; r != nil {
		rm := NewMap(7)
		if r.Timeout > 0 {
			rm.Set("timeout", r.Timeout.String())
		}
		if r.Memory != 0 {
			rm.Set("memory", FormatSize(r.Memory))
		}
		if r.Retries != nil {
			rm.Set("retries", json.Number(strconv.Itoa(*r.Retries)))
		}
		if r.RetryDelay > 0 {
			rm.Set("retry_delay", r.RetryDelay.String())
		}
		setIn(rm, "backoff", r.Backoff)
		if r.MaxDelay > 0 {
			rm.Set("max_delay", r.MaxDelay.String())
		}
		setBool(rm, "retry_non_idempotent", r.RetryNonIdempotent)
		m.Set("runtime", rm)
	}
	setStr("id", t.ID)
	setStr("type", t.SDKType)
	setStr("documentation_url", t.DocumentationURL)
	if t.Strict != nil {
		m.Set("strict", *t.Strict)
	}
	for _, extra := range []*Map{t.Extensions, t.Unknown} {
		for i := 0; i < extra.Len(); i++ {
			k, v := extra.At(i)
			m.Set(k, v)
		}
	}
	return m
}

// ToMap renders an entry with its fields in documentation order.
func (e *Entry) ToMap() *Map {
	m := NewMap(4)
	setIn(m, "type", e.Type)
	setIn(m, "handler", e.Handler)
	setIn(m, "url", e.URL)
	setIn(m, "method", e.Method)
	if e.Headers != nil {
		m.Set("headers", e.Headers)
	}
	if e.Query != nil {
		m.Set("query", e.Query)
	}
	if e.Body != nil {
		m.Set("body", e.Body)
	}
	setIn(m, "code", e.Code)
	setIn(m, "file", e.File)
	setIn(m, "module", e.Module)
	setIn(m, "function", e.Function)
	setIn(m, "path", e.Path)
	setIn(m, "interpreter", e.Interpreter)
	if len(e.Command) > 0 {
		m.Set("command", stringsToAny(e.Command))
	}
	setIn(m, "server", e.Server)
	if len(e.ServerArgs) > 0 {
		m.Set("server", stringsToAny(e.ServerArgs))
	}
	setIn(m, "tool", e.Tool)
	for i := 0; i < e.Extra.Len(); i++ {
		k, v := e.Extra.At(i)
		m.Set(k, v)
	}
	return m
}

func setIn(m *Map, k, v string) {
	if v != "" {
		m.Set(k, v)
	}
}

func setBool(m *Map, k string, v *bool) {
	if v != nil {
		m.Set(k, *v)
	}
}

func stringsToAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
