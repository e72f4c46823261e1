package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// Dialects written by the generator, as pkg/spec names them.
const (
	feagent   = "feagent"
	sdk       = "sdk"
	openakita = "openakita"
	mcp       = "mcp"
	openai    = "openai"
)

// dialectWeights: Feagent and OpenAkita YAML dominate, as in the corpora;
// SDK and OpenAI files are JSON, MCP files are a quarter JSON, which puts
// JSON at about 20% overall.
var dialectWeights = []weighted[string]{{feagent, 35}, {openakita, 27}, {mcp, 22}, {sdk, 13}, {openai, 3}}

// tool is one generated tool before a dialect writes it.
type tool struct {
	index    int
	name     string
	cat      *category
	service  service
	noun     noun
	action   action
	dialect  string
	json     bool
	cjk      bool
	big      bool
	params   []*param
	required map[string]bool
	dir      string
	ext      string
	// dangle: the file's first related tool names a tool that is not in
	// the set (see plan.dangling).
	dangle bool
}

// plan decides every tool's name, dialect, size class and place before any
// content is written, so that references (related_tools, workflow,
// check_tool) can name any tool of the set.
type plan struct {
	rng   *rand.Rand
	tools []*tool
	names map[string]bool
	// byCategory indexes tools for same-category references.
	byCategory map[string][]*tool
	// dangleRNG makes every choice about dangling references, so that a
	// corpus without them (-dangling 0) has the same bytes as before the
	// option existed.
	dangleRNG *rand.Rand
	dangled   dangleStats
}

// spread returns n labels in the given proportions, exactly (largest
// remainder), in a seeded random order: small corpora still get every
// label and proportions do not drift with the seed.
func spread[T any](r *rand.Rand, n int, ws []weighted[T]) []T {
	total := 0
	for _, w := range ws {
		total += w.weight
	}
	out := make([]T, 0, n)
	for _, w := range ws {
		for range (n*w.weight + total/2) / total {
			out = append(out, w.value)
		}
	}
	for len(out) < n {
		out = append(out, ws[0].value)
	}
	out = out[:n]
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func weightedPick[T any](r *rand.Rand, ws []weighted[T]) T {
	total := 0
	for _, w := range ws {
		total += w.weight
	}
	n := r.IntN(total)
	for _, w := range ws {
		if n < w.weight {
			return w.value
		}
		n -= w.weight
	}
	return ws[len(ws)-1].value
}

// flags returns n booleans with about share percent true, spread evenly.
func flags(r *rand.Rand, n, share int) []bool {
	return spread(r, n, []weighted[bool]{{true, share}, {false, 100 - share}})
}

// newPlan plans n tools; dangling is the percentage of files whose first
// related tool dangles.
func newPlan(n int, seed uint64, perDir int, dangling float64) *plan {
	p := &plan{
		rng:        rand.New(rand.NewPCG(seed, 0x746f6f6c63746c)),
		names:      map[string]bool{},
		byCategory: map[string][]*tool{},
		dangleRNG:  rand.New(rand.NewPCG(seed, 0x64616e676c65)),
	}
	r := p.rng
	var catWeights []weighted[int]
	for i, w := range categoryWeights {
		catWeights = append(catWeights, weighted[int]{i, w})
	}
	cats := spread(r, n, catWeights)
	dialects := spread(r, n, dialectWeights)
	cjk := flags(r, n, 5)
	big := flags(r, n, 5)
	mcpJSON := flags(r, n, 25)
	yml := flags(r, n, 10)
	for i := range n {
		t := &tool{index: i, cat: &categories[cats[i]], dialect: dialects[i], cjk: cjk[i], big: big[i]}
		t.service = pick(r, t.cat.services)
		t.noun = pick(r, t.cat.nouns)
		t.action = pick(r, t.cat.actions)
		t.name = p.uniqueName(t)
		t.json = t.dialect == sdk || t.dialect == openai || (t.dialect == mcp && mcpJSON[i])
		t.ext = ".yaml"
		switch {
		case t.json:
			t.ext = ".json"
		case yml[i]:
			t.ext = ".yml"
		}
		// ~100 files a directory, ten directories a group.
		leaf := i / perDir
		t.dir = fmt.Sprintf("group-%02d/pack-%03d", leaf/10, leaf)
		p.tools = append(p.tools, t)
		p.byCategory[t.cat.name] = append(p.byCategory[t.cat.name], t)
	}
	p.chooseDangling(dangling)
	return p
}

// uniqueName builds prefix_service_action_noun and, when it is taken, adds
// a suffix as a team would ("_v2", "_batch"), then a number.
func (p *plan) uniqueName(t *tool) string {
	base := strings.Join([]string{t.cat.prefix, t.service.slug, t.action.slug, t.noun.slug}, "_")
	try := func(s string) bool {
		if len(s) > 64 || p.names[s] {
			return false
		}
		p.names[s] = true
		return true
	}
	if try(base) {
		return base
	}
	for _, i := range p.rng.Perm(len(nameSuffixes)) {
		if s := base + "_" + nameSuffixes[i]; try(s) {
			return s
		}
	}
	for k := 2; ; k++ {
		if s := fmt.Sprintf("%s_%d", base, k); try(s) {
			return s
		}
	}
}

// others picks up to k distinct tools other than t, same category first.
func (p *plan) others(t *tool, k int) []*tool {
	pool := p.byCategory[t.cat.name]
	if p.rng.IntN(4) == 0 {
		pool = p.tools
	}
	var out []*tool
	for tries := 0; len(out) < k && tries < 4*k; tries++ {
		o := pick(p.rng, pool)
		if o != t && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// chooseParams picks the tool's inputs: the category's main ones first,
// then a random selection; big tools get the deep schemas too.
func (p *plan) chooseParams(t *tool) {
	r := p.rng
	ctx := paramCtx{noun: t.noun, service: t.service, big: t.big}
	pool := paramsByCategory[t.cat.name]
	k := 2 + r.IntN(5)
	if t.big {
		k = 9 + r.IntN(5)
	}
	names := []string{pool[0]}
	if r.IntN(2) == 0 {
		names = append(names, pool[1])
	}
	for _, i := range r.Perm(len(pool)) {
		if len(names) >= k {
			break
		}
		if !slices.Contains(names, pool[i]) {
			names = append(names, pool[i])
		}
	}
	if t.big {
		for _, i := range r.Perm(len(bigParams))[:5] {
			if !slices.Contains(names, bigParams[i]) {
				names = append(names, bigParams[i])
			}
		}
	}
	t.required = map[string]bool{}
	for _, n := range names {
		prm := paramMakers[n](r, ctx)
		// In the Feagent list form "required" is the parameter's boolean,
		// so an object with its own required list cannot be written there.
		if t.dialect == feagent && prm.keywords.has("required") {
			continue
		}
		i := len(t.params)
		t.params = append(t.params, prm)
		// The main input is required; others are required only when they
		// have no sensible default, or now and then.
		if i == 0 || prm.requiredOnly || r.IntN(6) == 0 && prm.def == nil {
			t.required[prm.name] = true
		}
	}
	for _, prm := range t.params {
		if !t.required[prm.name] && prm.def == nil {
			t.required[prm.name] = true
		}
	}
}

func (t *tool) param(name string) *param {
	for _, p := range t.params {
		if p.name == name {
			return p
		}
	}
	return nil
}

func (t *tool) requiredNames() []any {
	var out []any
	for _, p := range t.params {
		if t.required[p.name] {
			out = append(out, p.name)
		}
	}
	return out
}

// description is one sentence of what and one of when, 20–200 characters,
// third person.
func (p *plan) description(t *tool) string {
	r := p.rng
	if t.cjk {
		s := fmt.Sprintf("%s %s 中的%s并返回结果。当需要处理%s相关的任务时使用。", t.action.zh, serviceName(t), t.noun.zh, t.noun.zh)
		if utf8.RuneCountInString(s) > 200 {
			s = fmt.Sprintf("%s%s。当需要%s时使用。", t.action.zh, t.noun.zh, t.noun.zh)
		}
		return s
	}
	obj := "a " + t.noun.singular
	if t.action.plural {
		obj = "the " + t.noun.plural
	}
	if strings.HasPrefix(t.noun.singular, "a") || strings.HasPrefix(t.noun.singular, "e") || strings.HasPrefix(t.noun.singular, "i") || strings.HasPrefix(t.noun.singular, "o") || strings.HasPrefix(t.noun.singular, "u") {
		obj = strings.Replace(obj, "a ", "an ", 1)
	}
	prep := pick(r, []string{"in", "from", "via"})
	what := fmt.Sprintf("%s %s %s %s and %s.", t.action.verb, obj, prep, t.service.display, pick(r, returnsPhrases))
	when := "Use when " + fmt.Sprintf(pick(r, whenClauses), t.noun.singular, t.noun.plural, t.service.display, t.action.base) + "."
	for _, s := range []string{what + " " + when, fmt.Sprintf("%s %s %s %s. %s", t.action.verb, obj, prep, t.service.display, when)} {
		if utf8.RuneCountInString(s) <= 200 {
			return s
		}
	}
	return fmt.Sprintf("%s %s. Use when a task needs %s.", t.action.verb, obj, t.noun.plural)
}

// serviceName is the service without an English article, for CJK text.
func serviceName(t *tool) string {
	for _, a := range []string{"the ", "an ", "a "} {
		if rest, ok := strings.CutPrefix(t.service.display, a); ok {
			return rest
		}
	}
	return t.service.display
}

// detail is Markdown usage notes well under the 2000-character limit; big
// tools come close to it.
func (p *plan) detail(t *tool) string {
	r := p.rng
	limit := 300 + r.IntN(600)
	if t.big {
		limit = 1500 + r.IntN(400)
	}
	sentences := detailSentences
	if t.cjk {
		sentences = detailSentencesZH
		limit /= 2
	}
	var b strings.Builder
	if t.cjk {
		fmt.Fprintf(&b, "%s %s 中的%s。\n\n**参数说明**：\n", t.action.zh, serviceName(t), t.noun.zh)
	} else {
		fmt.Fprintf(&b, "%s %s in %s.\n\n**Parameters**\n", t.action.verb, t.noun.plural, t.service.display)
	}
	for _, prm := range t.params {
		line := fmt.Sprintf("- `%s`: %s\n", prm.name, prm.description(t.cjk))
		if utf8.RuneCountInString(b.String()+line) > limit/2 {
			break
		}
		b.WriteString(line)
	}
	if t.cjk {
		b.WriteString("\n**注意事项**：\n")
	} else {
		b.WriteString("\n**Notes**\n")
	}
	for _, i := range r.Perm(len(sentences)) {
		line := "- " + sentences[i] + "\n"
		if utf8.RuneCountInString(b.String()+line) > limit {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

func (p *plan) triggers(t *tool) []any {
	r := p.rng
	n := 1 + r.IntN(3)
	if t.big {
		n = 4 + r.IntN(3)
	}
	var out []any
	// Distinct clauses: the triggers rule flags repeats.
	for i, c := range r.Perm(len(whenClauses))[:n] {
		if t.cjk {
			out = append(out, fmt.Sprintf("当用户需要%s%s时（场景 %d）", t.action.zh, t.noun.zh, i+1))
			continue
		}
		out = append(out, "When "+fmt.Sprintf(whenClauses[c], t.noun.singular, t.noun.plural, t.service.display, t.action.base))
	}
	return out
}

// examples are valid calls: every required parameter and some optional
// ones, each with a value valid against its schema.
func (p *plan) examples(t *tool) []any {
	r := p.rng
	n := 1 + r.IntN(2)
	if t.big {
		n = 4 + r.IntN(3)
	}
	var out []any
	for i := range n {
		params := obj{}
		for _, prm := range t.params {
			if t.required[prm.name] || r.IntN(3) == 0 {
				params = append(params, kv{prm.name, prm.example(r)})
			}
		}
		scenario := fmt.Sprintf("%s %s %s", strings.ToUpper(t.action.base[:1])+t.action.base[1:], t.noun.plural, pick(r, []string{"for a weekly report", "after an incident", "for one customer", "before a release", "in a nightly job", "on request"}))
		// expected conforms to the output schema (lint's
		// example-expected-invalid): a value, never prose about one
		expected := obj{{"ok", true}, {"count", r.IntN(50)}}
		if t.cjk {
			scenario = fmt.Sprintf("示例 %d：%s%s", i+1, t.action.zh, t.noun.zh)
		} else if r.IntN(2) == 0 {
			r.IntN(50) // keep the random sequence of the rest of the corpus
		}
		out = append(out, obj{{"scenario", scenario}, {"params", params}, {"expected", expected}})
	}
	return out
}

func (p *plan) warnings(t *tool) []any {
	texts := warningTexts
	if t.cjk {
		texts = warningTextsZH
	}
	n := 1
	if t.big {
		n = 3
	}
	var out []any
	for _, i := range p.rng.Perm(len(texts))[:n] {
		out = append(out, texts[i])
	}
	return out
}

func (p *plan) relatedTools(t *tool) []any {
	rel := relations
	if t.cjk {
		rel = relationsZH
	}
	var out []any
	for _, o := range p.others(t, 1+p.rng.IntN(3)) {
		out = append(out, obj{{"name", o.name}, {"relation", pick(p.rng, rel)}})
	}
	if t.dangle {
		name := p.danglingName(t)
		if len(out) == 0 {
			out = append(out, obj{{"name", name}, {"relation", pick(p.dangleRNG, rel)}})
		} else {
			out[0].(obj)[0].v = name
		}
	}
	return out
}

func (p *plan) prerequisites(t *tool) []any {
	r := p.rng
	var out []any
	if r.IntN(2) == 0 {
		out = append(out, fmt.Sprintf("Access to %s must be configured for the workspace", t.service.display))
	}
	if o := p.others(t, 1); len(o) == 1 && r.IntN(2) == 0 {
		out = append(out, obj{
			{"condition", fmt.Sprintf("The %s exists", t.noun.singular)},
			{"check_tool", o[0].name},
			{"action_if_not_met", "Ask the user for a valid id"},
		})
	}
	return out
}

func (p *plan) workflow(t *tool) obj {
	others := p.others(t, 2)
	steps := []any{}
	for i, o := range others {
		steps = append(steps, obj{{"step", i + 1}, {"action", "Look up the inputs"}, {"tool", o.name}})
	}
	steps = append(steps, obj{{"step", len(others) + 1}, {"action", fmt.Sprintf("%s the %s", strings.ToUpper(t.action.base[:1])+t.action.base[1:], t.noun.singular)}, {"tool", t.name}})
	return obj{{"name", t.action.base + "_" + t.noun.slug + "_flow"}, {"steps", steps}}
}

func (p *plan) tags(t *tool) []any {
	out := []any{t.service.slug}
	for _, i := range p.rng.Perm(len(t.cat.tags))[:1+p.rng.IntN(2)] {
		if !slices.Contains(out, any(t.cat.tags[i])) {
			out = append(out, t.cat.tags[i])
		}
	}
	return out
}

func (p *plan) version() string {
	r := p.rng
	v := fmt.Sprintf("%d.%d.%d", r.IntN(3), r.IntN(12), r.IntN(10))
	if v == "0.0.0" {
		v = "0.1.0"
	}
	if r.IntN(20) == 0 {
		v += "-beta." + fmt.Sprint(1+r.IntN(4))
	}
	return v
}

func (t *tool) title() string {
	words := strings.Split(strings.TrimPrefix(t.name, t.cat.prefix+"_"), "_")
	words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
	return strings.Join(words, " ")
}
