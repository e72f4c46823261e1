package spec

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// ToolFields are the top-level fields a tool may have, canonical names and
// dialect spellings (x-*, $schema and _meta extensions aside), in canonical
// order. Lint uses them for "did you mean" suggestions.
var ToolFields = []string{
	"name", "title", "description", "detail", "category", "version", "author", "icon", "tags",
	"shareable_scope", "entry", "parameters", "input_schema", "inputSchema", "arguments", "returns",
	"output_schema", "outputSchema", "output", "triggers", "prerequisites", "examples", "warnings",
	"related_tools", "workflow", "annotations", "bind", "runtime", "id", "type", "metadata",
	"documentation_url", "strict",
}

// sdkTypes maps the SDK dialect's tool type to an entry type.
var sdkTypes = map[string]string{
	"BUILTIN": EntryBuiltin,
	"NATIVE":  EntryCommand,
	"REST":    EntryHTTP,
	"MCP":     EntryMCP,
}

// tool parses one tool mapping. base is the JSON pointer of the mapping in
// its document.
func (d *decoder) tool(n *yaml.Node, base string, index int) *Tool {
	t := &Tool{File: d.file, Index: index, node: n, basePtr: base}
	ps := d.pairs(n, base)
	t.Dialect = detectDialect(ps)

	// OpenAI Chat Completions wraps the tool: {type: function, function: {...}}.
	if t.Dialect == DialectOpenAI {
		for _, p := range ps {
			if p.key.Value == "function" {
				if fn := resolve(p.value); fn.Kind == yaml.MappingNode {
					t.node = fn
					base += "/function"
					t.basePtr = base
					ps = d.pairs(fn, base)
				}
			}
		}
	}

	if !hasKey(ps, "name") {
		keys := make([]string, 0, len(ps))
		for _, p := range ps {
			keys = append(keys, p.key.Value)
		}
		if len(keys) > 6 {
			keys = append(keys[:6], "...")
		}
		d.errorf(t.node, base, "not a tool: there is no \"name\" field (keys here: %s); every tool needs a name", strings.Join(keys, ", "))
		return nil
	}

	var inputKey, outputKey *yaml.Node
	for _, p := range ps {
		k, v := p.key.Value, p.value
		ptr := base + "/" + escapeToken(k)
		switch k {
		case "name":
			t.Name = d.str(v, ptr, k)
		case "title":
			t.Title = d.str(v, ptr, k)
		case "description":
			t.Description = d.str(v, ptr, k)
		case "detail":
			t.Detail = d.str(v, ptr, k)
		case "category":
			t.Category = d.str(v, ptr, k)
		case "version":
			t.Version = d.str(v, ptr, k)
		case "author":
			t.Author = d.str(v, ptr, k)
		case "icon":
			t.Icon = d.str(v, ptr, k)
		case "shareable_scope":
			t.ShareableScope = d.str(v, ptr, k)
		case "id":
			t.ID = d.str(v, ptr, k)
		case "documentation_url":
			t.DocumentationURL = d.str(v, ptr, k)
		case "tags":
			t.Tags = d.strList(v, ptr, k)
		case "triggers":
			t.Triggers = d.strList(v, ptr, k)
		case "warnings":
			t.Warnings = d.strList(v, ptr, k)
		case "entry":
			t.Entry = d.entry(t, v, ptr)
		case "parameters", "input_schema", "inputSchema", "arguments":
			if inputKey != nil {
				d.errorf(p.key, ptr, "both %q (line %d) and %q define the input; they mean the same thing, keep one", inputKey.Value, inputKey.Line, k)
				continue
			}
			inputKey = p.key
			t.layout.inputKey = k
			t.InputSchema, t.layout.inputList = d.input(t, v, ptr, k)
		case "returns", "output_schema", "outputSchema":
			if outputKey != nil {
				d.errorf(p.key, ptr, "both %q (line %d) and %q define the output; they mean the same thing, keep one", outputKey.Value, outputKey.Line, k)
				continue
			}
			outputKey = p.key
			t.layout.outputKey = k
			if k == "returns" {
				t.OutputSchema, t.layout.outputFields = d.returns(v, ptr)
			} else {
				t.OutputSchema = d.schema(v, ptr, k)
			}
		case "output":
			t.Output = d.output(t, v, ptr)
		case "prerequisites":
			t.Prerequisites = d.prerequisites(t, v, ptr)
		case "examples":
			t.Examples = d.examples(t, v, ptr)
		case "related_tools":
			t.RelatedTools = d.relatedTools(t, v, ptr)
		case "workflow":
			t.Workflow = d.workflow(t, v, ptr)
		case "annotations":
			t.Annotations = d.annotations(t, v, ptr)
		case "bind":
			t.Bind = d.bind(v, ptr)
		case "runtime":
			t.Runtime = d.runtime(t, v, ptr)
		case "metadata":
			d.metadata(t, v, ptr)
		case "strict":
			t.Strict = d.boolean(v, ptr, k)
		case "type":
			d.toolType(t, v, ptr)
		case "function":
			// consumed above for the OpenAI wrapper
			if t.Dialect != DialectOpenAI {
				t.unknown(d, k, v, ptr)
			}
		default:
			if k == "$schema" || k == "_meta" || strings.HasPrefix(k, "x-") {
				if t.Extensions == nil {
					t.Extensions = NewMap(1)
				}
				t.Extensions.Set(k, d.value(v, ptr, 1))
				continue
			}
			t.unknown(d, k, v, ptr)
		}
	}
	return t
}

func hasKey(ps []pair, key string) bool {
	for _, p := range ps {
		if p.key.Value == key {
			return true
		}
	}
	return false
}

func (t *Tool) unknown(d *decoder, k string, v *yaml.Node, ptr string) {
	if t.Unknown == nil {
		t.Unknown = NewMap(1)
	}
	t.Unknown.Set(k, d.value(v, ptr, 1))
	t.unknownAt(ptr)
}

// rel turns a document pointer into one relative to the tool node.
func (t *Tool) rel(ptr string) string {
	return strings.TrimPrefix(ptr, t.basePtr)
}

// detectDialect picks the dialect from the keys a tool uses; see Dialect.
func detectDialect(ps []pair) Dialect {
	has := make(map[string]*yaml.Node, len(ps))
	for _, p := range ps {
		has[p.key.Value] = p.value
	}
	if typ, ok := has["type"]; ok {
		if tn := resolve(typ); tn.Kind == yaml.ScalarNode && tn.Value == "function" {
			return DialectOpenAI
		}
	}
	switch {
	case has["inputSchema"] != nil || has["outputSchema"] != nil:
		return DialectMCP
	case has["input_schema"] != nil:
		return DialectOpenAkita
	case has["arguments"] != nil && has["parameters"] == nil:
		return DialectDocker
	}
	if params := resolve(has["parameters"]); params != nil {
		switch params.Kind {
		case yaml.SequenceNode:
			return DialectFeagent
		case yaml.MappingNode:
			return DialectSDK
		}
	}
	if has["id"] != nil || has["metadata"] != nil || has["type"] != nil {
		return DialectSDK
	}
	if has["entry"] != nil || has["returns"] != nil {
		return DialectFeagent
	}
	return DialectToolctl
}

// --- scalars --------------------------------------------------------------

// str reads a string field. Numbers and booleans are taken as written
// (version: 1.0 reads as "1.0"); null is empty.
func (d *decoder) str(v *yaml.Node, ptr, field string) string {
	n := resolve(v)
	if n == nil || isNull(n) {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		d.errorf(v, ptr, "%s: expected a string, got %s", field, KindName(v))
		return ""
	}
	return n.Value
}

func (d *decoder) strList(v *yaml.Node, ptr, field string) []string {
	n := resolve(v)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(v, ptr, "%s: expected a list of strings, got %s", field, KindName(v))
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		it := resolve(item)
		if it == nil || it.Kind != yaml.ScalarNode || isNull(it) {
			d.errorf(item, ptr+"/"+strconv.Itoa(i), "%s[%d]: expected a string, got %s", field, i, KindName(item))
			continue
		}
		out = append(out, it.Value)
	}
	return out
}

func (d *decoder) boolean(v *yaml.Node, ptr, field string) *bool {
	n := resolve(v)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		d.errorf(v, ptr, "%s: expected true or false, got %s", field, KindName(v))
		return nil
	}
	b := n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
	return &b
}

func (d *decoder) mapping(v *yaml.Node, ptr, field string) *yaml.Node {
	n := resolve(v)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(v, ptr, "%s: expected a mapping, got %s", field, KindName(v))
		return nil
	}
	return n
}

func (d *decoder) list(v *yaml.Node, ptr, field string) *yaml.Node {
	n := resolve(v)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(v, ptr, "%s: expected a list, got %s", field, KindName(v))
		return nil
	}
	return n
}

// duration reads "30s", "1m30s" or a number of seconds.
func (d *decoder) duration(v *yaml.Node, ptr, field string) time.Duration {
	n := resolve(v)
	if isNull(n) {
		return 0
	}
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int", "!!float":
			if secs, err := strconv.ParseFloat(n.Value, 64); err == nil && secs >= 0 && secs < 1e9 {
				return time.Duration(secs * float64(time.Second))
			}
		case "!!str":
			if dur, err := time.ParseDuration(strings.TrimSpace(n.Value)); err == nil && dur >= 0 {
				return dur
			}
		}
	}
	d.errorf(v, ptr, "%s: %s is not a duration; write it like \"30s\", \"1m30s\" or a number of seconds", field, KindName(v))
	return 0
}

// size reads a memory size (ParseSize): a string with a unit, a number of
// bytes, or unlimited.
func (d *decoder) size(v *yaml.Node, ptr, field string) int64 {
	n := resolve(v)
	if isNull(n) {
		return 0
	}
	var (
		b   int64
		err error
	)
	switch {
	case n.Kind != yaml.ScalarNode:
		err = fmt.Errorf("write a size like 256MiB, 1GiB or 512MB, or unlimited")
	case n.ShortTag() == "!!int" || n.ShortTag() == "!!float":
		f, perr := strconv.ParseFloat(n.Value, 64)
		if perr != nil || f < 0 {
			err = fmt.Errorf("write a size like 256MiB, 1GiB or 512MB, or unlimited")
			break
		}
		b, err = checkSize(f)
		if err != nil {
			err = fmt.Errorf("%w (a bare number is bytes; write 256MiB for 256 mebibytes)", err)
		}
	default:
		b, err = ParseSize(n.Value)
	}
	if err != nil {
		d.errorf(v, ptr, "%s: %s is not a memory limit: %v", field, KindName(v), err)
		return 0
	}
	return b
}

// --- sections -------------------------------------------------------------

func (d *decoder) toolType(t *Tool, v *yaml.Node, ptr string) {
	s := d.str(v, ptr, "type")
	if s == "" || (t.Dialect == DialectOpenAI && s == "function") {
		return
	}
	if _, ok := sdkTypes[strings.ToUpper(s)]; !ok {
		d.errorf(v, ptr, "type: %q is not a tool type; the SDK dialect uses BUILTIN, NATIVE, REST or MCP (the execution type of other tools goes in entry.type)", s)
		return
	}
	t.SDKType = s
}

func (d *decoder) metadata(t *Tool, v *yaml.Node, ptr string) {
	n := d.mapping(v, ptr, "metadata")
	if n == nil {
		return
	}
	from := func(field, key string) {
		if t.layout.fromMetadata == nil {
			t.layout.fromMetadata = map[string]string{}
		}
		t.layout.fromMetadata[field] = key
	}
	for _, p := range d.pairs(n, ptr) {
		k := p.key.Value
		kp := ptr + "/" + escapeToken(k)
		switch k {
		case "category":
			if c := d.str(p.value, kp, "metadata.category"); t.Category == "" {
				t.Category = c
				from("category", k)
			}
		case "tags":
			if tags := d.strList(p.value, kp, "metadata.tags"); t.Tags == nil {
				t.Tags = tags
				from("tags", k)
			}
		case "documentationUrl":
			if u := d.str(p.value, kp, "metadata.documentationUrl"); t.DocumentationURL == "" {
				t.DocumentationURL = u
				from("documentation_url", k)
			}
		default:
			t.unknownAt(kp)
		}
	}
}

func (d *decoder) entry(t *Tool, v *yaml.Node, ptr string) *Entry {
	n := d.mapping(v, ptr, "entry")
	if n == nil {
		return nil
	}
	e := &Entry{}
	for _, p := range d.pairs(n, ptr) {
		k, v := p.key.Value, p.value
		kp := ptr + "/" + escapeToken(k)
		field := "entry." + k
		switch k {
		case "type":
			e.Type = d.str(v, kp, field)
		case "handler":
			e.Handler = d.str(v, kp, field)
		case "url":
			e.URL = d.str(v, kp, field)
		case "method":
			e.Method = d.str(v, kp, field)
		case "headers":
			e.Headers = d.stringMap(v, kp, field)
		case "query":
			if m := d.mapping(v, kp, field); m != nil {
				e.Query, _ = d.value(m, kp, 2).(*Map)
			}
		case "body":
			e.Body = d.value(v, kp, 2)
		case "code":
			e.Code = d.str(v, kp, field)
		case "file":
			e.File = d.str(v, kp, field)
		case "module":
			e.Module = d.str(v, kp, field)
		case "function":
			e.Function = d.str(v, kp, field)
		case "path":
			e.Path = d.str(v, kp, field)
		case "interpreter":
			e.Interpreter = d.str(v, kp, field)
		case "command":
			if s := resolve(v); s != nil && s.Kind == yaml.ScalarNode && !isNull(s) {
				d.errorf(v, kp, "entry.command: expected a list of arguments (no shell is used), e.g. [\"wc\", \"-l\", \"{path}\"]; got %s", KindName(v))
				continue
			}
			e.Command = d.strList(v, kp, field)
		case "server":
			if s := resolve(v); s != nil && s.Kind == yaml.SequenceNode {
				e.ServerArgs = d.strList(v, kp, field)
			} else {
				e.Server = d.str(v, kp, field)
			}
		case "tool":
			e.Tool = d.str(v, kp, field)
		default:
			if e.Extra == nil {
				e.Extra = NewMap(1)
			}
			e.Extra.Set(k, d.value(v, kp, 2))
			t.unknownAt(kp)
		}
	}
	return e
}

// stringMap reads a mapping whose values are scalars (HTTP headers).
func (d *decoder) stringMap(v *yaml.Node, ptr, field string) *Map {
	n := d.mapping(v, ptr, field)
	if n == nil {
		return nil
	}
	ps := d.pairs(n, ptr)
	m := NewMap(len(ps))
	for _, p := range ps {
		kp := ptr + "/" + escapeToken(p.key.Value)
		m.Set(p.key.Value, d.str(p.value, kp, field+"."+p.key.Value))
	}
	return m
}

func (d *decoder) prerequisites(t *Tool, v *yaml.Node, ptr string) []Prerequisite {
	n := d.list(v, ptr, "prerequisites")
	if n == nil {
		return nil
	}
	out := make([]Prerequisite, 0, len(n.Content))
	for i, item := range n.Content {
		ip := ptr + "/" + strconv.Itoa(i)
		it := resolve(item)
		switch {
		case it != nil && it.Kind == yaml.ScalarNode && !isNull(it):
			out = append(out, Prerequisite{Text: it.Value})
		case it != nil && it.Kind == yaml.MappingNode:
			var pr Prerequisite
			for _, p := range d.pairs(it, ip) {
				kp := ip + "/" + escapeToken(p.key.Value)
				switch p.key.Value {
				case "condition":
					pr.Condition = d.str(p.value, kp, "prerequisites.condition")
				case "check_tool":
					pr.CheckTool = d.str(p.value, kp, "prerequisites.check_tool")
				case "action_if_not_met":
					pr.ActionIfNotMet = d.str(p.value, kp, "prerequisites.action_if_not_met")
				default:
					t.unknownAt(kp)
				}
			}
			out = append(out, pr)
		default:
			d.errorf(item, ip, "prerequisites[%d]: expected a string or {condition, check_tool, action_if_not_met}, got %s", i, KindName(item))
		}
	}
	return out
}

// objects reads a list of mappings: an item that is not a mapping is
// reported with the expected shape; each mapping's pairs go to each.
func (d *decoder) objects(v *yaml.Node, ptr, field, shape string, each func(i int, ip string, ps []pair)) {
	n := d.list(v, ptr, field)
	if n == nil {
		return
	}
	for i, item := range n.Content {
		ip := ptr + "/" + strconv.Itoa(i)
		it := resolve(item)
		if it == nil || it.Kind != yaml.MappingNode {
			d.errorf(item, ip, "%s[%d]: expected %s, got %s", field, i, shape, KindName(item))
			continue
		}
		each(i, ip, d.pairs(it, ip))
	}
}

func (t *Tool) unknownAt(ptr string) { t.UnknownFields = append(t.UnknownFields, t.rel(ptr)) }

func (d *decoder) examples(t *Tool, v *yaml.Node, ptr string) []Example {
	var out []Example
	d.objects(v, ptr, "examples", "{scenario, params, expected}", func(i int, ip string, ps []pair) {
		var ex Example
		for _, p := range ps {
			kp := ip + "/" + escapeToken(p.key.Value)
			switch p.key.Value {
			case "scenario":
				ex.Scenario = d.str(p.value, kp, "examples.scenario")
			case "params":
				if m := d.mapping(p.value, kp, "examples["+strconv.Itoa(i)+"].params"); m != nil {
					ex.Params, _ = d.value(m, kp, 2).(*Map)
				}
			case "expected":
				ex.Expected = d.value(p.value, kp, 2)
			case "expect":
				if m := d.mapping(p.value, kp, "examples["+strconv.Itoa(i)+"].expect"); m != nil {
					ex.Expect, _ = d.value(m, kp, 2).(*Map)
				}
			default:
				t.unknownAt(kp)
			}
		}
		out = append(out, ex)
	})
	return out
}

func (d *decoder) relatedTools(t *Tool, v *yaml.Node, ptr string) []RelatedTool {
	var out []RelatedTool
	d.objects(v, ptr, "related_tools", "{name, relation}", func(_ int, ip string, ps []pair) {
		var rt RelatedTool
		for _, p := range ps {
			kp := ip + "/" + escapeToken(p.key.Value)
			switch p.key.Value {
			case "name":
				rt.Name = d.str(p.value, kp, "related_tools.name")
			case "relation":
				rt.Relation = d.str(p.value, kp, "related_tools.relation")
			default:
				t.unknownAt(kp)
			}
		}
		out = append(out, rt)
	})
	return out
}

func (d *decoder) workflow(t *Tool, v *yaml.Node, ptr string) *Workflow {
	n := d.mapping(v, ptr, "workflow")
	if n == nil {
		return nil
	}
	w := &Workflow{}
	for _, p := range d.pairs(n, ptr) {
		kp := ptr + "/" + escapeToken(p.key.Value)
		switch p.key.Value {
		case "name":
			w.Name = d.str(p.value, kp, "workflow.name")
		case "steps":
			d.objects(p.value, kp, "workflow.steps", "{step, action, tool or tools, condition}", func(_ int, ip string, ps []pair) {
				var st WorkflowStep
				for _, sp := range ps {
					sk := ip + "/" + escapeToken(sp.key.Value)
					switch sp.key.Value {
					case "step":
						st.Step = d.value(sp.value, sk, 3)
					case "action":
						st.Action = d.str(sp.value, sk, "workflow.steps.action")
					case "tool":
						st.Tool = d.str(sp.value, sk, "workflow.steps.tool")
					case "tools":
						st.Tools = d.strList(sp.value, sk, "workflow.steps.tools")
					case "condition":
						st.Condition = d.str(sp.value, sk, "workflow.steps.condition")
					default:
						t.unknownAt(sk)
					}
				}
				w.Steps = append(w.Steps, st)
			})
		default:
			t.unknownAt(kp)
		}
	}
	return w
}

func (d *decoder) annotations(t *Tool, v *yaml.Node, ptr string) *Annotations {
	n := d.mapping(v, ptr, "annotations")
	if n == nil {
		return nil
	}
	a := &Annotations{}
	for _, p := range d.pairs(n, ptr) {
		k := p.key.Value
		kp := ptr + "/" + escapeToken(k)
		switch k {
		case "title":
			a.Title = d.str(p.value, kp, "annotations.title")
		case "readOnlyHint":
			a.ReadOnlyHint = d.boolean(p.value, kp, "annotations."+k)
		case "destructiveHint":
			a.DestructiveHint = d.boolean(p.value, kp, "annotations."+k)
		case "idempotentHint":
			a.IdempotentHint = d.boolean(p.value, kp, "annotations."+k)
		case "openWorldHint":
			a.OpenWorldHint = d.boolean(p.value, kp, "annotations."+k)
		default:
			t.unknownAt(kp)
		}
	}
	return a
}

func (d *decoder) bind(v *yaml.Node, ptr string) []Binding {
	n := d.mapping(v, ptr, "bind")
	if n == nil {
		return nil
	}
	var out []Binding
	for _, p := range d.pairs(n, ptr) {
		param := p.key.Value
		kp := ptr + "/" + escapeToken(param)
		src := resolve(p.value)
		if src == nil || src.Kind != yaml.MappingNode || len(src.Content) != 2 {
			d.errorf(p.value, kp, "bind.%s: expected exactly one of {env: VAR}, {value: x} or {config: dotted.key}, got %s", param, KindName(p.value))
			continue
		}
		b := Binding{Param: param}
		kind, val := src.Content[0].Value, src.Content[1]
		vp := kp + "/" + escapeToken(kind)
		switch BindKind(kind) {
		case BindEnv, BindConfig:
			b.Kind = BindKind(kind)
			b.Ref = d.str(val, vp, "bind."+param+"."+kind)
			if b.Ref == "" {
				d.errorf(val, vp, "bind.%s.%s: name the %s to read", param, kind, map[string]string{"env": "environment variable", "config": "config key"}[kind])
				continue
			}
		case BindValue:
			b.Kind = BindValue
			b.Value = d.value(val, vp, 3)
		default:
			d.errorf(src.Content[0], vp, "bind.%s: %q is not a binding source; use env, value or config", param, kind)
			continue
		}
		out = append(out, b)
	}
	return out
}

// output reads the output section: {content: MEDIA/TYPE}.
func (d *decoder) output(t *Tool, v *yaml.Node, ptr string) *Output {
	n := d.mapping(v, ptr, "output")
	if n == nil {
		return nil
	}
	o := &Output{}
	for _, p := range d.pairs(n, ptr) {
		k := p.key.Value
		kp := ptr + "/" + escapeToken(k)
		switch k {
		case "content":
			s := d.str(p.value, kp, "output.content")
			typ, sub, ok := strings.Cut(s, "/")
			if s == "" || !ok || typ == "" || sub == "" || strings.ContainsAny(s, " ;,") {
				d.errorf(p.value, kp, "output.content: %q is not a media type; write one such as image/png, audio/wav or image/*", s)
				continue
			}
			o.Content = strings.ToLower(s)
		default:
			t.unknownAt(kp)
		}
	}
	return o
}

func (d *decoder) runtime(t *Tool, v *yaml.Node, ptr string) *Runtime {
	n := d.mapping(v, ptr, "runtime")
	if n == nil {
		return nil
	}
	r := &Runtime{}
	for _, p := range d.pairs(n, ptr) {
		k := p.key.Value
		kp := ptr + "/" + escapeToken(k)
		field := "runtime." + k
		switch k {
		case "timeout":
			r.Timeout = d.duration(p.value, kp, field)
		case "memory":
			r.Memory = d.size(p.value, kp, field)
		case "retry_delay":
			r.RetryDelay = d.duration(p.value, kp, field)
		case "max_delay":
			r.MaxDelay = d.duration(p.value, kp, field)
		case "retries":
			rv := resolve(p.value)
			n, err := strconv.Atoi(rv.Value)
			if rv.Kind != yaml.ScalarNode || rv.ShortTag() != "!!int" || err != nil || n < 0 || n > 100 {
				d.errorf(p.value, kp, "%s: expected a whole number from 0 to 100, got %s", field, KindName(p.value))
				continue
			}
			r.Retries = &n
		case "backoff":
			r.Backoff = d.str(p.value, kp, field)
			if r.Backoff != "exponential" && r.Backoff != "fixed" {
				d.errorf(p.value, kp, "%s: %q is not a backoff; use exponential (the default) or fixed", field, r.Backoff)
				r.Backoff = ""
			}
		case "retry_non_idempotent":
			r.RetryNonIdempotent = d.boolean(p.value, kp, field)
		default:
			t.unknownAt(kp)
		}
	}
	return r
}
