package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// param is one input property, independent of the dialect that writes it.
type param struct {
	name string
	typ  string
	desc string
	// descZH replaces desc in CJK tools.
	descZH string
	enum   []any
	// def is the default of an optional parameter; it satisfies every
	// keyword below (a lint rule checks defaults against the schema).
	def any
	// keywords are the other JSON Schema keywords, in writing order.
	keywords obj
	// requiredOnly: no sensible default exists (a URL, a query), so the
	// parameter is always required.
	requiredOnly bool
	// example returns a value valid against the parameter's schema.
	example func(r *rand.Rand) any
}

// schema returns the property's JSON Schema: type, description, enum,
// default (when optional), then the other keywords.
func (p *param) schema(cjk, optional bool) obj {
	s := obj{{"type", p.typ}, {"description", p.description(cjk)}}
	if p.enum != nil {
		s = append(s, kv{"enum", p.enum})
	}
	if optional {
		s = append(s, kv{"default", p.def})
	}
	return append(s, p.keywords...)
}

func (p *param) description(cjk bool) string {
	if cjk && p.descZH != "" {
		return p.descZH
	}
	return p.desc
}

// paramCtx is what a parameter maker may use to fit the tool.
type paramCtx struct {
	noun    noun
	service service
	big     bool
}

type paramMaker func(r *rand.Rand, c paramCtx) *param

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// idPrefix turns "pull_request" into "pr" and "invoice" into "inv", as
// Stripe-style ids do.
func idPrefix(slug string) string {
	if parts := strings.Split(slug, "_"); len(parts) > 1 {
		var b strings.Builder
		for _, p := range parts {
			b.WriteByte(p[0])
		}
		return b.String()
	}
	if len(slug) > 3 {
		return slug[:3]
	}
	return slug
}

func intExample(lo, hi int) func(r *rand.Rand) any {
	return func(r *rand.Rand) any { return lo + r.IntN(hi-lo+1) }
}

func enumExample(values []any) func(r *rand.Rand) any {
	return func(r *rand.Rand) any { return pick(r, values) }
}

func strings2any(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

var sampleWords = []string{"quarterly", "revenue", "renewal", "outage", "checkout", "latency", "onboarding", "refund", "priority", "warehouse", "migration", "invoice", "customer", "billing", "roadmap"}

var sampleTexts = []string{
	"The checkout page timed out twice for customers in the EU region this morning.",
	"Please move the quarterly planning meeting to Thursday afternoon.",
	"Refund the duplicate charge on order 4471 and notify the customer.",
	"Latency on the search API rose from 120 ms to 900 ms after the deploy.",
	"New pricing takes effect on the first of next month for all annual plans.",
	"服务器在凌晨两点出现短暂中断，已自动恢复。",
}

// paramMakers is the pool every tool draws its parameters from.
var paramMakers = map[string]paramMaker{
	"id": func(r *rand.Rand, c paramCtx) *param {
		prefix := idPrefix(c.noun.slug)
		return &param{
			name: c.noun.slug + "_id", typ: "string",
			desc:         fmt.Sprintf("Identifier of the %s, e.g. %s_%d.", c.noun.singular, prefix, 1000+r.IntN(9000)),
			descZH:       c.noun.zh + "的唯一标识。",
			keywords:     obj{{"minLength", 1}, {"maxLength", 64}},
			requiredOnly: true,
			example: func(r *rand.Rand) any {
				return fmt.Sprintf("%s_%d", prefix, 10000+r.IntN(90000))
			},
		}
	},
	"limit": func(r *rand.Rand, c paramCtx) *param {
		def := pick(r, []int{10, 20, 25, 50, 100})
		return &param{
			name: "limit", typ: "integer",
			desc:     fmt.Sprintf("Maximum number of %s to return.", c.noun.plural),
			descZH:   "最多返回的条数。",
			def:      def,
			keywords: obj{{"minimum", 1}, {"maximum", 500}},
			example:  intExample(1, 200),
		}
	},
	"offset": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "offset", typ: "integer",
			desc: "Number of results to skip, for pagination.", descZH: "分页时跳过的条数。",
			def: 0, keywords: obj{{"minimum", 0}}, example: intExample(0, 400),
		}
	},
	"status": func(r *rand.Rand, c paramCtx) *param {
		statuses := c.noun.statuses
		if len(statuses) == 0 {
			statuses = []string{"active", "archived"}
		}
		values := strings2any(statuses)
		return &param{
			name: "status", typ: "string",
			desc:   fmt.Sprintf("Only %s in this state.", c.noun.plural),
			descZH: "按状态过滤。",
			enum:   values, def: values[0], example: enumExample(values),
		}
	},
	"sort_order": func(r *rand.Rand, c paramCtx) *param {
		values := []any{"asc", "desc"}
		return &param{
			name: "sort_order", typ: "string",
			desc: "Sort direction by creation time.", descZH: "按创建时间排序的方向。",
			enum: values, def: "desc", example: enumExample(values),
		}
	},
	"include_archived": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "include_archived", typ: "boolean",
			desc:   fmt.Sprintf("Also return archived %s.", c.noun.plural),
			descZH: "是否包含已归档的数据。",
			def:    false, example: func(r *rand.Rand) any { return r.IntN(2) == 0 },
		}
	},
	"dry_run": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "dry_run", typ: "boolean",
			desc: "Validate and report what would change without changing anything.", descZH: "只校验并报告将要发生的变更，不实际执行。",
			def: false, example: func(r *rand.Rand) any { return r.IntN(2) == 0 },
		}
	},
	"since": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "since", typ: "string",
			desc:         fmt.Sprintf("Only %s changed at or after this time (RFC 3339).", c.noun.plural),
			descZH:       "起始时间（RFC 3339）。",
			keywords:     obj{{"format", "date-time"}},
			requiredOnly: true,
			example: func(r *rand.Rand) any {
				return fmt.Sprintf("2026-%02d-%02dT%02d:00:00Z", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24))
			},
		}
	},
	"query": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "query", typ: "string",
			desc:         fmt.Sprintf("Free-text search over %s titles and bodies.", c.noun.plural),
			descZH:       "全文检索关键词。",
			keywords:     obj{{"minLength", 1}, {"maxLength", 256}},
			requiredOnly: true,
			example:      func(r *rand.Rand) any { return pick(r, sampleWords) + " " + pick(r, sampleWords) },
		}
	},
	"fields": func(r *rand.Rand, c paramCtx) *param {
		values := []any{"id", "name", "status", "created_at", "updated_at", "owner", "amount", "url"}
		return &param{
			name: "fields", typ: "array",
			desc: "Fields to include in each result; all when empty.", descZH: "需要返回的字段，留空表示全部。",
			def:      []any{},
			keywords: obj{{"items", obj{{"type", "string"}, {"enum", values}}}, {"uniqueItems", true}},
			example: func(r *rand.Rand) any {
				k := 1 + r.IntN(3)
				out := make([]any, 0, k)
				for _, i := range r.Perm(len(values))[:k] {
					out = append(out, values[i])
				}
				return out
			},
		}
	},
	"labels": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "labels", typ: "array",
			desc: "Labels to attach; existing labels are kept.", descZH: "要附加的标签。",
			def:      []any{},
			keywords: obj{{"items", obj{{"type", "string"}, {"minLength", 1}}}, {"maxItems", 20}},
			example: func(r *rand.Rand) any {
				return []any{pick(r, sampleWords), pick(r, []string{"urgent", "customer", "backend", "q3"})}
			},
		}
	},
	"timeout_seconds": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "timeout_seconds", typ: "number",
			desc: "Seconds to wait before giving up.", descZH: "超时时间（秒）。",
			def: 30, keywords: obj{{"minimum", 1}, {"maximum", 300}},
			example: func(r *rand.Rand) any { return float64(5 + r.IntN(60)) },
		}
	},
	"language": func(r *rand.Rand, c paramCtx) *param {
		values := []any{"en", "de", "fr", "es", "ja", "zh"}
		return &param{
			name: "language", typ: "string",
			desc: "ISO 639-1 code of the output language.", descZH: "输出语言（ISO 639-1）。",
			enum: values, def: "en", example: enumExample(values),
		}
	},
	"output_format": func(r *rand.Rand, c paramCtx) *param {
		values := []any{"json", "csv", "markdown"}
		return &param{
			name: "output_format", typ: "string",
			desc: "Shape of the returned data.", descZH: "返回数据的格式。",
			enum: values, def: "json", example: enumExample(values),
		}
	},
	"url": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "url", typ: "string",
			desc: "Absolute https URL of the resource.", descZH: "资源的完整 https 地址。",
			keywords: obj{{"format", "uri"}}, requiredOnly: true,
			example: func(r *rand.Rand) any {
				return fmt.Sprintf("https://%s.example.com/%s/%d", c.service.slug, c.noun.slug, r.IntN(1000))
			},
		}
	},
	"email": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "email", typ: "string",
			desc: "Email address of the person concerned.", descZH: "相关人员的邮箱地址。",
			keywords: obj{{"format", "email"}}, requiredOnly: true,
			example: func(r *rand.Rand) any {
				return pick(r, []string{"ada", "grace", "linus", "ops", "billing", "support"}) + "@example.com"
			},
		}
	},
	"text": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "text", typ: "string",
			desc:     fmt.Sprintf("The %s to process, plain text or Markdown.", c.noun.singular),
			descZH:   "需要处理的文本内容。",
			keywords: obj{{"minLength", 1}, {"maxLength", 20000}}, requiredOnly: true,
			example: func(r *rand.Rand) any { return pick(r, sampleTexts) },
		}
	},
	"channel": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "channel", typ: "string",
			desc: "Channel or group to post to, e.g. #ops-alerts.", descZH: "目标频道，例如 #ops-alerts。",
			keywords: obj{{"pattern", "^#?[a-z0-9_-]+$"}}, requiredOnly: true,
			example: func(r *rand.Rand) any {
				return "#" + pick(r, []string{"ops-alerts", "general", "billing", "deploys", "support"})
			},
		}
	},
	"priority": func(r *rand.Rand, c paramCtx) *param {
		values := []any{"low", "normal", "high", "urgent"}
		return &param{
			name: "priority", typ: "string",
			desc: "How urgently the recipient should act.", descZH: "优先级。",
			enum: values, def: "normal", example: enumExample(values),
		}
	},
	"temperature": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "temperature", typ: "number",
			desc: "Sampling temperature from 0 (deterministic) to 2.", descZH: "采样温度，0 表示确定性输出。",
			def: 0.2, keywords: obj{{"minimum", 0}, {"maximum", 2}},
			example: func(r *rand.Rand) any { return round2(r.Float64()) },
		}
	},
	"max_tokens": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "max_tokens", typ: "integer",
			desc: "Upper bound on the tokens of the answer.", descZH: "输出的最大 token 数。",
			def: 1024, keywords: obj{{"minimum", 1}, {"maximum", 8192}}, example: intExample(64, 4096),
		}
	},
	"path": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "path", typ: "string",
			desc:     fmt.Sprintf("Path of the %s relative to the root of %s.", c.noun.singular, c.service.display),
			descZH:   "相对于根目录的文件路径。",
			keywords: obj{{"minLength", 1}}, requiredOnly: true,
			example: func(r *rand.Rand) any {
				return fmt.Sprintf("%s/2026/%s-%02d.%s", c.noun.slug, pick(r, sampleWords), 1+r.IntN(12), pick(r, []string{"csv", "json", "txt", "pdf"}))
			},
		}
	},
	"encoding": func(r *rand.Rand, c paramCtx) *param {
		values := []any{"utf-8", "utf-16", "latin-1", "gbk"}
		return &param{
			name: "encoding", typ: "string",
			desc: "Character encoding of the file.", descZH: "文件编码。",
			enum: values, def: "utf-8", example: enumExample(values),
		}
	},
	"currency": func(r *rand.Rand, c paramCtx) *param {
		values := []any{"USD", "EUR", "GBP", "JPY", "CNY"}
		return &param{
			name: "currency", typ: "string",
			desc: "ISO 4217 currency code of amounts.", descZH: "金额的币种（ISO 4217）。",
			enum: values, def: "USD", example: enumExample(values),
		}
	},
	"amount": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "amount", typ: "number",
			desc: "Amount in major units, e.g. 12.50.", descZH: "金额（主币单位）。",
			keywords: obj{{"minimum", 0}}, requiredOnly: true,
			example: func(r *rand.Rand) any { return round2(r.Float64() * 500) },
		}
	},
	"recipients": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "recipients", typ: "array",
			desc: "Email addresses to notify.", descZH: "接收人邮箱列表。",
			keywords:     obj{{"items", obj{{"type", "string"}, {"format", "email"}}}, {"minItems", 1}, {"maxItems", 50}},
			requiredOnly: true,
			example: func(r *rand.Rand) any {
				return []any{pick(r, []string{"oncall", "ada", "team-lead"}) + "@example.com"}
			},
		}
	},
	"metadata": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "metadata", typ: "object",
			desc: "Free-form key-value pairs stored with the record.", descZH: "附加的键值对信息。",
			def:      obj{},
			keywords: obj{{"additionalProperties", obj{{"type", "string"}}}},
			example: func(r *rand.Rand) any {
				return obj{{"source", pick(r, []string{"agent", "import", "api"})}, {"ticket", fmt.Sprintf("OPS-%d", 100+r.IntN(900))}}
			},
		}
	},
	"coordinates": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "coordinates", typ: "object",
			desc: "Location in decimal degrees.", descZH: "经纬度坐标。",
			keywords: obj{
				{"properties", obj{
					{"latitude", obj{{"type", "number"}, {"description", "Latitude, -90 to 90."}, {"minimum", -90}, {"maximum", 90}}},
					{"longitude", obj{{"type", "number"}, {"description", "Longitude, -180 to 180."}, {"minimum", -180}, {"maximum", 180}}},
				}},
				{"required", []any{"latitude", "longitude"}},
				{"additionalProperties", false},
			},
			requiredOnly: true,
			example: func(r *rand.Rand) any {
				return obj{{"latitude", round2(r.Float64()*180 - 90)}, {"longitude", round2(r.Float64()*360 - 180)}}
			},
		}
	},
	"options": func(r *rand.Rand, c paramCtx) *param {
		modes := []any{"fast", "balanced", "thorough"}
		return &param{
			name: "options", typ: "object",
			desc: "Execution options; every field must be given when the object is.", descZH: "执行选项。",
			def: obj{{"retries", 2}, {"mode", "balanced"}, {"verbose", false}},
			keywords: obj{
				{"properties", obj{
					{"retries", obj{{"type", "integer"}, {"description", "Retries on transient failures."}, {"minimum", 0}, {"maximum", 10}}},
					{"mode", obj{{"type", "string"}, {"description", "Speed versus completeness."}, {"enum", modes}}},
					{"verbose", obj{{"type", "boolean"}, {"description", "Include diagnostic details in the result."}}},
				}},
				{"required", []any{"retries", "mode", "verbose"}},
			},
			example: func(r *rand.Rand) any {
				return obj{{"retries", r.IntN(5)}, {"mode", pick(r, modes)}, {"verbose", r.IntN(2) == 0}}
			},
		}
	},
	"filters": func(r *rand.Rand, c paramCtx) *param {
		ops := []any{"eq", "ne", "gt", "lt", "contains", "in"}
		fields := []any{"status", "owner", "created_at", "amount", "region", "name"}
		return &param{
			name: "filters", typ: "array",
			desc:   fmt.Sprintf("Conditions the %s must all satisfy.", c.noun.plural),
			descZH: "过滤条件，需全部满足。",
			def:    []any{},
			keywords: obj{
				{"items", obj{
					{"type", "object"},
					{"description", "One condition."},
					{"properties", obj{
						{"field", obj{{"type", "string"}, {"description", "Field to compare."}, {"enum", fields}}},
						{"operator", obj{{"type", "string"}, {"description", "Comparison operator."}, {"enum", ops}}},
						{"value", obj{{"type", "string"}, {"description", "Value compared against, as text."}}},
					}},
					{"required", []any{"field", "operator", "value"}},
					{"additionalProperties", false},
				}},
				{"maxItems", 10},
			},
			example: func(r *rand.Rand) any {
				return []any{obj{{"field", pick(r, fields)}, {"operator", pick(r, ops)}, {"value", pick(r, sampleWords)}}}
			},
		}
	},
	// schedule is deep (object → array → object) and long: it makes the
	// 10 KB files of the corpus.
	"schedule": func(r *rand.Rand, c paramCtx) *param {
		days := []any{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
		hhmm := "^([01][0-9]|2[0-3]):[0-5][0-9]$"
		return &param{
			name: "schedule", typ: "object",
			desc: "When the job may run: a time zone and weekly windows.", descZH: "允许运行的时间窗口。",
			keywords: obj{
				{"properties", obj{
					{"timezone", obj{{"type", "string"}, {"description", "IANA time zone, e.g. Europe/Berlin."}, {"minLength", 1}}},
					{"windows", obj{
						{"type", "array"},
						{"description", "Weekly windows; outside them the job waits."},
						{"minItems", 1},
						{"items", obj{
							{"type", "object"},
							{"description", "One window on one day."},
							{"properties", obj{
								{"day", obj{{"type", "string"}, {"description", "Day of the week."}, {"enum", days}}},
								{"start", obj{{"type", "string"}, {"description", "Start time, HH:MM."}, {"pattern", hhmm}}},
								{"end", obj{{"type", "string"}, {"description", "End time, HH:MM, after start."}, {"pattern", hhmm}}},
							}},
							{"required", []any{"day", "start", "end"}},
							{"additionalProperties", false},
						}},
					}},
					{"blackout_dates", obj{
						{"type", "array"},
						{"description", "Dates (YYYY-MM-DD) on which nothing runs."},
						{"items", obj{{"type", "string"}, {"format", "date"}}},
					}},
				}},
				{"required", []any{"timezone", "windows", "blackout_dates"}},
			},
			requiredOnly: true,
			example: func(r *rand.Rand) any {
				start := 6 + r.IntN(6)
				return obj{
					{"timezone", pick(r, []string{"Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"})},
					{"windows", []any{obj{{"day", pick(r, days)}, {"start", fmt.Sprintf("%02d:00", start)}, {"end", fmt.Sprintf("%02d:30", start+8)}}}},
					{"blackout_dates", []any{fmt.Sprintf("2026-12-%02d", 20+r.IntN(8))}},
				}
			},
		}
	},
	"mapping": func(r *rand.Rand, c paramCtx) *param {
		return &param{
			name: "mapping", typ: "object",
			desc: "Output field names mapped to dotted paths into the input.", descZH: "输出字段到输入路径的映射。",
			keywords: obj{{"additionalProperties", obj{{"type", "string"}}}, {"minProperties", 1}}, requiredOnly: true,
			example: func(r *rand.Rand) any {
				return obj{{"id", "data.id"}, {pick(r, []string{"name", "title", "owner"}), "data.attributes.name"}}
			},
		}
	},
}

// paramsByCategory lists the makers that fit each category, most typical
// first; the first one or two are the tool's main inputs.
var paramsByCategory = map[string][]string{
	"http":         {"id", "query", "limit", "status", "since", "fields", "sort_order", "include_archived", "labels", "metadata", "timeout_seconds", "filters", "offset", "currency", "dry_run"},
	"database":     {"query", "id", "limit", "filters", "since", "fields", "offset", "sort_order", "dry_run", "output_format", "options", "timeout_seconds", "include_archived"},
	"file":         {"path", "encoding", "output_format", "limit", "since", "dry_run", "options", "labels", "metadata", "offset"},
	"ai":           {"text", "language", "temperature", "max_tokens", "output_format", "labels", "options", "limit", "metadata"},
	"notification": {"channel", "text", "recipients", "priority", "labels", "dry_run", "email", "metadata", "options"},
	"custom":       {"text", "mapping", "amount", "currency", "coordinates", "output_format", "language", "options", "dry_run", "url"},
}

// bigParams are added to the large tools: deep schemas and long lists.
var bigParams = []string{"schedule", "filters", "options", "coordinates", "metadata", "fields", "labels", "recipients", "mapping", "url", "email"}
