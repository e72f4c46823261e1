package main

import (
	"fmt"
	"strings"
)

// entryKind picks how the tool runs. The SDK dialect only has REST and
// BUILTIN among the kinds generated here, so it is restricted to those.
func (p *plan) entryKind(t *tool) string {
	if t.dialect == sdk {
		if _, ok := builtinHandlers[t.cat.name]; ok && (t.cat.name == "custom" || t.cat.name == "file") {
			return "builtin"
		}
		return "http"
	}
	kind := weightedPick(p.rng, t.cat.entries)
	if kind == "builtin" {
		if _, ok := builtinHandlers[t.cat.name]; !ok {
			kind = "http"
		}
	}
	return kind
}

// envName is the environment variable holding a service's credential:
// secrets are never literal (the secrets rule flags "Bearer sk-...").
func envName(t *tool) string {
	return strings.ToUpper(t.service.slug) + "_API_TOKEN"
}

func (p *plan) entry(t *tool, kind string) obj {
	r := p.rng
	switch kind {
	case "http":
		return p.httpEntry(t)
	case "builtin":
		return obj{{"type", "builtin"}, {"handler", pick(r, builtinHandlers[t.cat.name])}}
	case "python":
		e := obj{{"type", "python"}, {"module", fmt.Sprintf("%stools.%s", t.cat.prefix, t.service.slug)}, {"function", t.action.slug + "_" + t.noun.slug}}
		return e
	case "javascript":
		return obj{{"type", "javascript"}, {"code", block(p.jsCode(t))}}
	}
	panic("unknown entry kind " + kind)
}

func (p *plan) httpEntry(t *tool) obj {
	r := p.rng
	method := t.action.method
	host := fmt.Sprintf("https://api.%s.example.com", t.service.slug)
	if t.cat.name == "ai" {
		host = "https://llm.internal.example.com"
	}
	url := fmt.Sprintf("%s/v%d/%s", host, 1+r.IntN(3), strings.ReplaceAll(t.noun.slug, "_", "-")+"s")
	// A {placeholder} must name a parameter of the tool.
	if id := t.noun.slug + "_id"; t.param(id) != nil && !t.action.plural {
		url += "/{" + id + "}"
	}
	if t.cat.name == "notification" {
		method = "POST"
		url = fmt.Sprintf("https://hooks.%s.example.com/services/${%s_WEBHOOK_PATH}", t.service.slug, strings.ToUpper(t.service.slug))
	}
	headers := obj{{"Accept", "application/json"}}
	if t.cat.name != "notification" {
		headers = append(headers, kv{"Authorization", "Bearer ${" + envName(t) + "}"})
	}
	if r.IntN(3) == 0 {
		headers = append(headers, kv{"User-Agent", "toolctl-agent/1.0"})
	}
	e := obj{{"type", pick(r, []string{"http", "http", "http", "rest"})}, {"url", url}, {"method", method}, {"headers", headers}}
	if method == "POST" && len(t.params) > 0 && r.IntN(2) == 0 {
		body := obj{}
		for _, prm := range t.params {
			if t.required[prm.name] {
				body = append(body, kv{prm.name, "{" + prm.name + "}"})
			}
		}
		e = append(e, kv{"body", body})
	}
	return e
}

// jsCode returns ES5 defining function execute(input), as the embedded
// engine runs it; big tools get helpers too.
func (p *plan) jsCode(t *tool) string {
	r := p.rng
	main := t.params[0].name
	var b strings.Builder
	fmt.Fprintf(&b, "// %s %s; input.%s is the main input.\n", t.action.verb, t.noun.plural, main)
	if t.big {
		b.WriteString(`function chunk(list, size) {
  var out = [];
  for (var i = 0; i < list.length; i += size) {
    out.push(list.slice(i, i + size));
  }
  return out;
}

function pickFields(record, fields) {
  if (!fields || fields.length === 0) return record;
  var out = {};
  fields.forEach(function (f) {
    if (Object.prototype.hasOwnProperty.call(record, f)) out[f] = record[f];
  });
  return out;
}

function summarise(values) {
  var total = 0, min = Infinity, max = -Infinity;
  values.forEach(function (v) {
    total += v;
    if (v < min) min = v;
    if (v > max) max = v;
  });
  return { count: values.length, total: total, min: min, max: max, mean: values.length ? total / values.length : 0 };
}

`)
	}
	switch r.IntN(4) {
	case 0:
		fmt.Fprintf(&b, `function execute(input) {
  var value = input.%s;
  var text = typeof value === "string" ? value : JSON.stringify(value);
  var words = text.split(/\s+/).filter(function (w) { return w.length > 0; });
  return { ok: true, length: text.length, words: words.length };
}
`, main)
	case 1:
		fmt.Fprintf(&b, `function execute(input) {
  var items = [].concat(input.%s || []);
  var seen = {};
  var unique = items.filter(function (item) {
    var key = JSON.stringify(item);
    if (seen[key]) return false;
    seen[key] = true;
    return true;
  });
  return { ok: true, count: unique.length, items: unique };
}
`, main)
	case 2:
		fmt.Fprintf(&b, `function execute(input) {
  var started = Date.now();
  var result = {};
  Object.keys(input).sort().forEach(function (key) {
    result[key] = typeof input[key];
  });
  return { ok: true, main: input.%s, types: result, elapsed_ms: Date.now() - started };
}
`, main)
	default:
		fmt.Fprintf(&b, `function execute(input) {
  if (input.%[1]s === undefined || input.%[1]s === null) {
    throw new Error("%[1]s is required");
  }
  return new Promise(function (resolve) {
    resolve({ ok: true, echo: input.%[1]s });
  });
}
`, main)
	}
	return b.String()
}

// returnFields are the output fields of a tool, for returns / output schemas.
func (p *plan) returnFields(t *tool) obj {
	pool := obj{
		{"ok", obj{{"type", "boolean"}, {"description", "Whether the call succeeded."}}},
		{"count", obj{{"type", "integer"}, {"description", fmt.Sprintf("Number of %s affected or returned.", t.noun.plural)}}},
		{"items", obj{{"type", "array"}, {"description", fmt.Sprintf("The %s.", t.noun.plural)}, {"items", obj{{"type", "object"}}}}},
		{"id", obj{{"type", "string"}, {"description", fmt.Sprintf("Identifier of the %s.", t.noun.singular)}}},
		{"url", obj{{"type", "string"}, {"description", "Link to the result in the source system."}}},
		{"next_cursor", obj{{"type", "string"}, {"description", "Cursor of the next page; empty on the last page."}}},
		{"warnings", obj{{"type", "array"}, {"description", "Problems that did not stop the call."}, {"items", obj{{"type", "string"}}}}},
	}
	n := 2 + p.rng.IntN(3)
	if t.big {
		n = len(pool)
	}
	out := obj{pool[0]}
	for _, i := range p.rng.Perm(len(pool) - 1)[:n-1] {
		out = append(out, pool[i+1])
	}
	return out
}
