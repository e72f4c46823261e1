package breaking

import (
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
)

// Categories of rules, as .toolctl.yaml's breaking.rules may name them.
const (
	// CatCall: a call valid before is invalid, or means something else,
	// now.
	CatCall = "call"
	// CatResult: what a call returns lost a field or changed its type.
	CatResult = "result"
	// CatBehaviour: the tool may now do more harm, reach elsewhere or
	// give up sooner.
	CatBehaviour = "behaviour"
	// CatPrompt: what the model reads changed.
	CatPrompt = "prompt"
	// CatProvider: a provider that took the old version rejects the new.
	CatProvider = "provider"
	// CatVersion: the version does not say what changed.
	CatVersion = "version"
	// CatAddition: a change that breaks nothing; listed with -v.
	CatAddition = "addition"
)

// Categories lists the categories in documentation order.
var Categories = []string{CatCall, CatResult, CatBehaviour, CatPrompt, CatProvider, CatVersion, CatAddition}

// Rule is one kind of change Compare reports.
type Rule struct {
	ID       string
	Category string
	Severity diag.Severity
	// Description is one line: what the rule reports.
	Description string
	// Explain is the --explain text, with a bad and a good example.
	Explain string
}

var rules = []*Rule{
	// call
	{ID: "tool-removed", Category: CatCall, Severity: diag.Error,
		Description: "A tool agents could call is gone.",
		Explain: `Agents, stored prompts and other teams' plans still call it; every such call
now fails with "unknown tool". Keep the tool (mark it deprecated in its
description) until no caller is left, and bump the major version of the set.

Bad (old: tools/search.yaml, new: no such tool):
  name: search

Good: keep search, and add its replacement beside it.`},
	{ID: "tool-renamed", Category: CatCall, Severity: diag.Error,
		Description: "A tool disappeared while a new one with the same input schema appeared.",
		Explain: `A rename breaks every caller of the old name exactly as a removal does. A
tool without parameters is never taken for a renamed one (its schema says
nothing): it is reported as removed.

Bad:
  old: name: search_docs
  new: name: docs_search     # same parameters

Good: keep search_docs as well (it can call the same entry), or keep the name.`},
	{ID: "param-removed", Category: CatCall, Severity: diag.Error,
		Description: "A parameter (or a nested property) calls may pass is gone.",
		Explain: `A call that passes it is rejected (additionalProperties: false) or the value
is silently ignored: either way it no longer means what it did.

Bad:
  old: properties: {query: {type: string}, limit: {type: integer}}
  new: properties: {query: {type: string}}

Good: keep limit (describe it as deprecated) until callers stop sending it.`},
	{ID: "param-required-added", Category: CatCall, Severity: diag.Error,
		Description: "A new required parameter without a default.",
		Explain: `Every call made the old way lacks it and is now rejected.

Bad:
  new: properties: {region: {type: string}}
       required: [query, region]

Good: make it optional with a default:
       region: {type: string, default: eu}`},
	{ID: "param-now-required", Category: CatCall, Severity: diag.Error,
		Description: "An optional parameter became required (without a default).",
		Explain: `Calls that left it out were valid and are now rejected.

Bad:
  old: required: [query]
  new: required: [query, limit]

Good: keep limit optional and give it a default: limit: {type: integer, default: 10}`},
	{ID: "type-changed", Category: CatCall, Severity: diag.Error,
		Description: "A value's type changed or narrowed (number to integer, a type gone from a union, nullable removed).",
		Explain: `A value of the old type is now rejected: 2.5 for an integer, null where null
was allowed, a string where only a number is taken now.

Bad:
  old: limit: {type: number}
  new: limit: {type: integer}

Good: keep the wider type, or accept both: limit: {type: [number, integer]}`},
	{ID: "enum-value-removed", Category: CatCall, Severity: diag.Error,
		Description: "An enum value is gone (or an enum now limits a value that was free).",
		Explain: `Calls that pass the removed value are rejected.

Bad:
  old: order: {enum: [asc, desc, random]}
  new: order: {enum: [asc, desc]}

Good: keep accepting random (map it to a supported behaviour).`},
	{ID: "const-changed", Category: CatCall, Severity: diag.Error,
		Description: "A const value changed (or a const was added).",
		Explain: `The one value calls passed is now rejected.

Bad:
  old: version: {const: v1}
  new: version: {const: v2}

Good: accept both: version: {enum: [v1, v2]}`},
	{ID: "constraint-tightened", Category: CatCall, Severity: diag.Error,
		Description: "A bound tightened: minimum/maximum/exclusive*, min/maxLength, min/maxItems, multipleOf, uniqueItems, or another validation keyword added or changed.",
		Explain: `Values inside the old bounds but outside the new ones are now rejected.

Bad:
  old: limit: {type: integer, maximum: 100}
  new: limit: {type: integer, maximum: 50}

Good: keep maximum: 100 (clamp larger values in the implementation).`},
	{ID: "pattern-changed", Category: CatCall, Severity: diag.Error,
		Description: "A pattern was added or changed.",
		Explain: `Strings that matched the old pattern (or any string, before) may not match.

Bad:
  old: id: {type: string}
  new: id: {type: string, pattern: "^[a-z]+$"}

Good: keep the old pattern, or only ever widen it.`},
	{ID: "format-changed", Category: CatCall, Severity: diag.Error,
		Description: "A format was added or changed.",
		Explain: `Validators that check formats reject values of the old one.

Bad:
  old: when: {type: string, format: date}
  new: when: {type: string, format: date-time}

Good: keep format: date, or add a new parameter for the new form.`},
	{ID: "additional-properties-closed", Category: CatCall, Severity: diag.Error,
		Description: "An object that took extra properties now rejects or constrains them.",
		Explain: `Calls that passed extra members are now rejected.

Bad:
  old: options: {type: object}
  new: options: {type: object, additionalProperties: false}

Good: keep the object open, or list every member callers send as a property.`},
	{ID: "param-unbound", Category: CatCall, Severity: diag.Error,
		Description: "A bound parameter became visible: the model must now fill it.",
		Explain: `bind filled it at run time and the model never saw it; calls made so far do
not pass it, and the model now has to find a value (often a secret).

Bad:
  old: bind: {api_key: {env: API_KEY}}
  new: (no bind; api_key required)

Good: keep the binding.`},
	// result
	{ID: "output-field-removed", Category: CatResult, Severity: diag.Error,
		Description: "A field of the output schema (or the output schema) is gone.",
		Explain: `Callers that read the field get nothing.

Bad:
  old: output_schema: {properties: {items: {...}, total: {type: integer}}}
  new: output_schema: {properties: {items: {...}}}

Good: keep returning total.`},
	{ID: "output-type-changed", Category: CatResult, Severity: diag.Error,
		Description: "An output value may now be of a type it could not be before.",
		Explain: `Callers that parse the old type fail on the new one.

Bad:
  old: total: {type: integer}
  new: total: {type: [integer, "null"]}

Good: keep the type; return 0 rather than null.`},
	{ID: "output-field-optional", Category: CatResult, Severity: diag.Error,
		Description: "A required output field became optional.",
		Explain: `Callers that rely on it being there break when it is missing.

Bad:
  old: output_schema: {required: [id, url]}
  new: output_schema: {required: [id]}

Good: keep url required.`},
	// behaviour
	{ID: "annotation-weakened", Category: CatBehaviour, Severity: diag.Warning,
		Description: "A safety hint weakened: readOnlyHint true to false, destructiveHint false to true, idempotentHint true to false, openWorldHint false to true.",
		Explain: `Clients decide from these hints whether to ask the user before a call and
whether to retry; a weaker hint means agents may now run it unconfirmed
where it does more. An unset hint takes MCP's default (readOnly false,
destructive true, idempotent false, openWorld true).

Bad:
  old: annotations: {readOnlyHint: true}
  new: annotations: {readOnlyHint: false}

Good: keep the tool read-only, and add a separate tool for writes.`},
	{ID: "entry-changed", Category: CatBehaviour, Severity: diag.Warning,
		Description: "The entry type or the host, server or program it reaches changed.",
		Explain: `The same call now runs elsewhere: another host sees its arguments, another
program runs with them.

Bad:
  old: entry: {type: http, url: "https://api.example.com/v1/search"}
  new: entry: {type: http, url: "https://api.example.net/v1/search"}

Good: review the new target and say so in the change; this warning is the reminder.`},
	{ID: "default-changed", Category: CatBehaviour, Severity: diag.Warning,
		Description: "A parameter's default changed or was removed: calls that leave it out now do something else.",
		Explain: `Agents often leave optional parameters out and rely on the default; a new
default changes what those calls do, without any validation error.

Bad:
  old: limit: {type: integer, default: 100}
  new: limit: {type: integer, default: 10}

Good: keep the default, and let callers who want 10 pass it.`},
	{ID: "timeout-shortened", Category: CatBehaviour, Severity: diag.Warning,
		Description: "runtime.timeout became shorter.",
		Explain: `Calls that finished in time may now time out.

Bad:
  old: runtime: {timeout: 60s}
  new: runtime: {timeout: 10s}

Good: keep the timeout, or measure the slowest calls first.`},
	// prompt
	{ID: "description-changed", Category: CatPrompt, Severity: diag.Info,
		Description: "The tool's description or detail changed: what the model reads to choose it.",
		Explain: `The model picks tools by their descriptions; a change can make it choose
this tool for other requests, or stop choosing it. Review the word diff.

Bad: an unreviewed rewrite of the description.

Good: the same change, reviewed (turn the rule to warning in .toolctl.yaml,
breaking.rules: {prompt: warning}, to make reviewers see it).`},
	{ID: "param-description-changed", Category: CatPrompt, Severity: diag.Info,
		Description: "A parameter's description changed: what the model reads to fill it.",
		Explain: `The model fills parameters from their descriptions; a new wording can change
the values it sends.

Bad:
  old: limit: {description: Maximum number of results.}
  new: limit: {description: Page size.}

Good: the same change, reviewed with the example calls.`},
	{ID: "title-changed", Category: CatPrompt, Severity: diag.Info,
		Description: "The tool's title changed.",
		Explain: `Clients show the title to users and some models read it.

Bad:
  old: title: Search documents
  new: title: Find

Good: a title that says what the tool does, changed on purpose.`},
	{ID: "examples-changed", Category: CatPrompt, Severity: diag.Info,
		Description: "The examples (scenarios or params) changed.",
		Explain: `Examples are few-shot calls the model copies.

Bad: examples edited without checking they still validate (toolctl lint does).

Good: the same change, reviewed.`},
	// provider
	{ID: "provider-incompatible", Category: CatProvider, Severity: diag.Error,
		Description: "The new version fails a provider's rules (--target) that the old one passed.",
		Explain: `Exports to that provider now fail or change shape.

Bad (--target openai):
  new: name: search.docs   # OpenAI names take no dots

Good: keep the tool within the provider's rules (toolctl lint --target openai).`},
	// version
	{ID: "version-major-not-bumped", Category: CatVersion, Severity: diag.Error,
		Description: "A call or result break without a major version bump (a minor one below 1.0.0).",
		Explain: `Consumers read the version to know whether they can upgrade safely.

Bad:
  old: version: "1.4.0"
  new: version: "1.5.0"   # and a parameter removed

Good:
  new: version: "2.0.0"`},
	{ID: "version-minor-not-bumped", Category: CatVersion, Severity: diag.Info,
		Description: "Additions (a new parameter, a loosened constraint) without a minor version bump.",
		Explain: `Consumers that need the new parameter cannot tell which version has it.

Bad:
  old: version: "1.4.0"
  new: version: "1.4.1"   # and a new optional parameter

Good:
  new: version: "1.5.0"`},
	// additions
	{ID: "tool-added", Category: CatAddition, Severity: diag.Info,
		Description: "A new tool (breaks nothing; listed with -v).",
		Explain: `Nothing breaks. Listed so a review sees every change.

Bad: none.

Good:
  new: name: search_images`},
	{ID: "param-added", Category: CatAddition, Severity: diag.Info,
		Description: "A new optional parameter or output field (breaks nothing; listed with -v).",
		Explain: `Old calls do not pass it and stay valid.

Bad: a new parameter that is required (param-required-added).

Good:
  new: limit: {type: integer, default: 10}`},
	{ID: "constraint-loosened", Category: CatAddition, Severity: diag.Info,
		Description: "A type widened, an enum value added, a bound loosened, a parameter made optional (breaks nothing; listed with -v).",
		Explain: `Every old call stays valid.

Bad: none.

Good:
  old: limit: {maximum: 50}
  new: limit: {maximum: 100}`},
}

var byID = func() map[string]*Rule {
	m := map[string]*Rule{}
	for _, r := range rules {
		m[r.ID] = r
	}
	return m
}()

// Rules returns every rule, sorted by ID.
func Rules() []*Rule {
	out := slices.Clone(rules)
	slices.SortFunc(out, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// RuleIDs returns every rule ID, sorted.
func RuleIDs() []string {
	var ids []string
	for _, r := range Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// Lookup returns the rule with id.
func Lookup(id string) (*Rule, bool) {
	r, ok := byID[id]
	return r, ok
}
