package main

// The vocabulary the generator draws from. Tools are built from a category,
// a service, an action and a noun, so names, descriptions, parameters and
// entries stay coherent with each other (an http tool that lists invoices
// has a GET URL ending in /invoices and a limit parameter).

type category struct {
	name string
	// prefix starts every tool name of the category, so that a rule asking
	// same-category tools to share a prefix stays quiet.
	prefix   string
	services []service
	nouns    []noun
	actions  []action
	tags     []string
	// entries are the entry kinds the category is executed with, by weight.
	entries []weighted[string]
}

type service struct{ slug, display string }

type noun struct {
	slug, singular, plural, zh string
	// statuses feed status enums; empty for nouns without a lifecycle.
	statuses []string
}

type action struct {
	slug, verb, base string
	// plural: the action works on a collection ("lists the invoices").
	plural bool
	// method is the HTTP method an http entry uses for it.
	method string
	zh     string
}

type weighted[T any] struct {
	value  T
	weight int
}

var commonActions = []action{
	{"list", "Lists", "list", true, "GET", "列出"},
	{"get", "Gets", "get", false, "GET", "获取"},
	{"search", "Searches", "search", true, "GET", "搜索"},
	{"create", "Creates", "create", false, "POST", "创建"},
	{"update", "Updates", "update", false, "PATCH", "更新"},
	{"delete", "Deletes", "delete", false, "DELETE", "删除"},
	{"export", "Exports", "export", true, "GET", "导出"},
	{"sync", "Synchronises", "synchronise", true, "POST", "同步"},
	{"count", "Counts", "count", true, "GET", "统计"},
	{"archive", "Archives", "archive", false, "POST", "归档"},
	{"validate", "Validates", "validate", false, "POST", "校验"},
	{"summarise", "Summarises", "summarise", true, "GET", "汇总"},
}

var categories = []category{
	{
		name: "http", prefix: "http",
		services: []service{
			{"github", "GitHub"}, {"gitlab", "GitLab"}, {"jira", "Jira"}, {"stripe", "Stripe"},
			{"zendesk", "Zendesk"}, {"shopify", "Shopify"}, {"hubspot", "HubSpot"}, {"salesforce", "Salesforce"},
			{"weather", "the weather API"}, {"geocoder", "the geocoding API"}, {"fx", "the exchange-rate API"},
			{"shipping", "the shipping API"}, {"calendar", "the calendar API"}, {"news", "the news API"},
			{"crm", "the CRM"}, {"billing", "the billing API"},
		},
		nouns: []noun{
			{"issue", "issue", "issues", "问题单", []string{"open", "in_progress", "closed"}},
			{"invoice", "invoice", "invoices", "发票", []string{"draft", "open", "paid", "void"}},
			{"ticket", "ticket", "tickets", "工单", []string{"new", "open", "pending", "solved"}},
			{"order", "order", "orders", "订单", []string{"pending", "paid", "shipped", "cancelled"}},
			{"contact", "contact", "contacts", "联系人", nil},
			{"deal", "deal", "deals", "商机", []string{"open", "won", "lost"}},
			{"repo", "repository", "repositories", "代码仓库", nil},
			{"release", "release", "releases", "发布版本", []string{"draft", "published"}},
			{"forecast", "forecast", "forecasts", "天气预报", nil},
			{"rate", "exchange rate", "exchange rates", "汇率", nil},
			{"shipment", "shipment", "shipments", "运单", []string{"created", "in_transit", "delivered"}},
			{"event", "calendar event", "calendar events", "日程", []string{"tentative", "confirmed", "cancelled"}},
			{"article", "article", "articles", "新闻文章", nil},
			{"customer", "customer", "customers", "客户", []string{"active", "churned"}},
			{"subscription", "subscription", "subscriptions", "订阅", []string{"trialing", "active", "past_due", "cancelled"}},
			{"webhook", "webhook", "webhooks", "回调地址", []string{"enabled", "disabled"}},
			{"pull_request", "pull request", "pull requests", "合并请求", []string{"open", "merged", "closed"}},
			{"product", "product", "products", "商品", []string{"active", "archived"}},
		},
		actions: commonActions,
		tags:    []string{"http", "api", "rest", "saas", "integration"},
		entries: []weighted[string]{{"http", 80}, {"builtin", 10}, {"javascript", 10}},
	},
	{
		name: "database", prefix: "db",
		services: []service{
			{"orders", "the orders database"}, {"analytics", "the analytics warehouse"}, {"inventory", "the inventory database"},
			{"billing", "the billing database"}, {"users", "the user store"}, {"events", "the event store"},
			{"catalog", "the product catalog"}, {"ledger", "the ledger"}, {"metrics", "the metrics store"},
			{"crm", "the CRM database"},
		},
		nouns: []noun{
			{"rows", "row", "rows", "数据行", nil},
			{"customer", "customer record", "customer records", "客户记录", []string{"active", "inactive"}},
			{"order", "order", "orders", "订单", []string{"pending", "paid", "refunded"}},
			{"stock", "stock level", "stock levels", "库存", nil},
			{"payment", "payment", "payments", "付款记录", []string{"authorised", "captured", "refunded"}},
			{"session", "session", "sessions", "会话", []string{"active", "expired"}},
			{"sku", "SKU", "SKUs", "商品编码", []string{"active", "discontinued"}},
			{"entry", "ledger entry", "ledger entries", "账目", []string{"pending", "posted"}},
			{"metric", "metric series", "metric series", "指标序列", nil},
			{"table", "table", "tables", "数据表", nil},
			{"migration", "migration", "migrations", "迁移脚本", []string{"pending", "applied"}},
			{"index", "index", "indexes", "索引", nil},
		},
		actions: append([]action{
			{"query", "Queries", "query", true, "POST", "查询"},
			{"upsert", "Upserts", "upsert", false, "PUT", "写入"},
			{"aggregate", "Aggregates", "aggregate", true, "POST", "聚合"},
		}, commonActions[:9]...),
		tags:    []string{"database", "sql", "storage", "data", "warehouse"},
		entries: []weighted[string]{{"python", 75}, {"javascript", 15}, {"http", 10}},
	},
	{
		name: "file", prefix: "file",
		services: []service{
			{"local", "the workspace"}, {"s3", "an S3 bucket"}, {"gcs", "a GCS bucket"}, {"sftp", "the SFTP server"},
			{"share", "the shared drive"}, {"archive", "the archive store"}, {"docs", "the document store"},
			{"logs", "the log directory"},
		},
		nouns: []noun{
			{"report", "report", "reports", "报表", nil},
			{"csv", "CSV file", "CSV files", "CSV 文件", nil},
			{"log", "log file", "log files", "日志文件", nil},
			{"image", "image", "images", "图片", nil},
			{"pdf", "PDF document", "PDF documents", "PDF 文档", nil},
			{"config", "config file", "config files", "配置文件", nil},
			{"backup", "backup", "backups", "备份", []string{"running", "complete", "failed"}},
			{"folder", "folder", "folders", "文件夹", nil},
			{"manifest", "manifest", "manifests", "清单文件", nil},
			{"upload", "upload", "uploads", "上传文件", []string{"pending", "scanned", "rejected"}},
		},
		actions: append([]action{
			{"read", "Reads", "read", false, "GET", "读取"},
			{"write", "Writes", "write", false, "PUT", "写入"},
			{"copy", "Copies", "copy", false, "POST", "复制"},
			{"compress", "Compresses", "compress", true, "POST", "压缩"},
		}, commonActions...),
		tags:    []string{"file", "storage", "io", "documents"},
		entries: []weighted[string]{{"python", 50}, {"builtin", 35}, {"javascript", 15}},
	},
	{
		name: "ai", prefix: "ai",
		services: []service{
			{"llm", "the language model"}, {"embed", "the embedding model"}, {"vision", "the vision model"},
			{"speech", "the speech model"}, {"rerank", "the reranker"}, {"moderation", "the moderation model"},
			{"translate", "the translation model"}, {"nlp", "the NLP pipeline"},
		},
		nouns: []noun{
			{"text", "text", "texts", "文本", nil},
			{"ticket", "support ticket", "support tickets", "客服工单", nil},
			{"review", "product review", "product reviews", "商品评论", nil},
			{"document", "document", "documents", "文档", nil},
			{"transcript", "transcript", "transcripts", "转写稿", nil},
			{"caption", "image caption", "image captions", "图片描述", nil},
			{"query", "search query", "search queries", "检索语句", nil},
			{"email", "email", "emails", "邮件", nil},
			{"intent", "user intent", "user intents", "用户意图", nil},
			{"entity", "named entity", "named entities", "命名实体", nil},
		},
		actions: []action{
			{"classify", "Classifies", "classify", false, "POST", "分类"},
			{"summarise", "Summarises", "summarise", false, "POST", "总结"},
			{"extract", "Extracts", "extract", true, "POST", "提取"},
			{"translate", "Translates", "translate", false, "POST", "翻译"},
			{"embed", "Embeds", "embed", true, "POST", "向量化"},
			{"rank", "Ranks", "rank", true, "POST", "排序"},
			{"detect", "Detects", "detect", true, "POST", "识别"},
			{"score", "Scores", "score", false, "POST", "打分"},
			{"analyse", "Analyses", "analyse", false, "POST", "分析"},
			{"rewrite", "Rewrites", "rewrite", false, "POST", "改写"},
		},
		tags:    []string{"ai", "llm", "nlp", "ml"},
		entries: []weighted[string]{{"http", 45}, {"builtin", 25}, {"python", 20}, {"javascript", 10}},
	},
	{
		name: "notification", prefix: "notify",
		services: []service{
			{"slack", "Slack"}, {"email", "email"}, {"sms", "SMS"}, {"teams", "Microsoft Teams"},
			{"pagerduty", "PagerDuty"}, {"webhook", "a webhook"}, {"push", "mobile push"}, {"discord", "Discord"},
		},
		nouns: []noun{
			{"alert", "alert", "alerts", "告警", []string{"triggered", "acknowledged", "resolved"}},
			{"message", "message", "messages", "消息", nil},
			{"digest", "digest", "digests", "摘要通知", nil},
			{"reminder", "reminder", "reminders", "提醒", []string{"scheduled", "sent"}},
			{"incident", "incident", "incidents", "故障", []string{"open", "mitigated", "resolved"}},
			{"announcement", "announcement", "announcements", "公告", nil},
			{"receipt", "receipt", "receipts", "回执", nil},
		},
		actions: []action{
			{"send", "Sends", "send", false, "POST", "发送"},
			{"post", "Posts", "post", false, "POST", "发布"},
			{"schedule", "Schedules", "schedule", false, "POST", "定时发送"},
			{"broadcast", "Broadcasts", "broadcast", false, "POST", "广播"},
			{"acknowledge", "Acknowledges", "acknowledge", false, "POST", "确认"},
			{"escalate", "Escalates", "escalate", false, "POST", "升级"},
			{"list", "Lists", "list", true, "GET", "列出"},
			{"cancel", "Cancels", "cancel", false, "DELETE", "取消"},
		},
		tags:    []string{"notification", "messaging", "alerting", "chatops"},
		entries: []weighted[string]{{"http", 80}, {"python", 15}, {"javascript", 5}},
	},
	{
		name: "custom", prefix: "util",
		services: []service{
			{"math", "arithmetic"}, {"dates", "calendar dates"}, {"text", "plain text"}, {"json", "JSON data"},
			{"units", "unit conversion"}, {"geo", "geographic coordinates"}, {"money", "money amounts"},
			{"ids", "identifiers"}, {"csv", "tabular data"},
		},
		nouns: []noun{
			{"expression", "expression", "expressions", "表达式", nil},
			{"date", "date", "dates", "日期", nil},
			{"string", "string", "strings", "字符串", nil},
			{"record", "record", "records", "记录", nil},
			{"distance", "distance", "distances", "距离", nil},
			{"amount", "amount", "amounts", "金额", nil},
			{"uuid", "UUID", "UUIDs", "唯一标识", nil},
			{"slug", "slug", "slugs", "短链接名", nil},
			{"table", "table", "tables", "表格", nil},
			{"checksum", "checksum", "checksums", "校验和", nil},
		},
		actions: []action{
			{"compute", "Computes", "compute", false, "POST", "计算"},
			{"convert", "Converts", "convert", false, "POST", "转换"},
			{"format", "Formats", "format", false, "POST", "格式化"},
			{"parse", "Parses", "parse", false, "POST", "解析"},
			{"normalise", "Normalises", "normalise", true, "POST", "规范化"},
			{"diff", "Compares", "compare", true, "POST", "比较"},
			{"generate", "Generates", "generate", true, "POST", "生成"},
			{"merge", "Merges", "merge", true, "POST", "合并"},
			{"validate", "Validates", "validate", false, "POST", "校验"},
		},
		tags:    []string{"utility", "transform", "math", "text"},
		entries: []weighted[string]{{"builtin", 45}, {"javascript", 40}, {"python", 15}},
	},
}

// categoryWeights approximates a real tool catalogue: mostly API wrappers.
var categoryWeights = []int{30, 15, 15, 15, 10, 15}

// nameSuffixes disambiguate two tools that drew the same name, the way
// teams do ("_v2", "_batch").
var nameSuffixes = []string{"batch", "v2", "details", "summary", "by_date", "bulk", "latest", "async", "safe", "legacy", "v3", "preview"}

// builtinHandlers are handlers toolctl compiles in; the entry-known-handler
// rule rejects any other name.
var builtinHandlers = map[string][]string{
	"http":     {"json_transformer"},
	"database": {"json_transformer"},
	"file":     {"file_reader"},
	"ai":       {"text_analyzer"},
	"custom":   {"calculator", "datetime", "json_transformer", "text_analyzer"},
	// notification never uses builtin.
}

var authors = []string{"platform-team", "data-eng", "growth", "sre", "ml-infra", "support-tools", "integrations", "finance-eng"}

var icons = map[string][]string{
	"http":         {"🌐", "🔌", "📡"},
	"database":     {"🗄️", "📊", "🧮"},
	"file":         {"📄", "📁", "🗂️"},
	"ai":           {"🤖", "🧠", "✨"},
	"notification": {"🔔", "📣", "✉️"},
	"custom":       {"🔧", "🧰", "⚙️"},
}

var whenClauses = []string{
	"a task needs up-to-date %[2]s from %[3]s",
	"the user asks about a specific %[1]s",
	"a workflow must %[4]s %[2]s before the next step",
	"another step needs %[1]s data as input",
	"an answer depends on recent %[2]s",
	"the user wants to %[4]s a %[1]s without leaving the chat",
	"a report or dashboard needs current %[2]s",
}

var returnsPhrases = []string{
	"returns the result as JSON",
	"returns the matching items with their ids",
	"returns a short status summary",
	"returns the fields the next step needs",
	"returns the outcome with any warnings",
}

var detailSentences = []string{
	"Results are returned in a stable order so that repeated calls can be compared.",
	"Large result sets are paginated; pass the returned cursor to fetch the next page.",
	"Timestamps are RFC 3339 in UTC unless a time zone is given.",
	"Failed calls are retried with exponential backoff on network errors and 5xx responses.",
	"The call is read-only unless the action says otherwise.",
	"Credentials come from the environment and are never echoed in the output.",
	"Empty optional fields are left out of the result instead of being returned as null.",
	"Rate limits apply per workspace; a 429 response is retried after the delay the server asks for.",
	"Identifiers are case-sensitive and must be copied exactly from a previous result.",
	"Numbers are returned as JSON numbers; money amounts are in minor units (cents).",
	"Use the smallest limit that answers the question to keep responses short.",
	"Fields that are not requested are not fetched, which keeps the call fast.",
	"When nothing matches, an empty list is returned rather than an error.",
	"Long texts are truncated to the model's context budget before processing.",
	"Validation happens before any side effect, so a rejected call changes nothing.",
}

var detailSentencesZH = []string{
	"结果按稳定顺序返回，便于多次调用之间比较。",
	"结果较多时会分页返回，使用返回的游标获取下一页。",
	"时间戳统一为 UTC 的 RFC 3339 格式。",
	"网络错误和 5xx 响应会按指数退避自动重试。",
	"凭据从环境变量读取，不会出现在输出中。",
	"未匹配到任何数据时返回空列表而不是报错。",
	"调用前会先校验参数，校验失败时不会产生任何副作用。",
	"标识符区分大小写，请从之前的结果中原样复制。",
	"较长的文本会先截断到模型的上下文预算内再处理。",
}

var warningTexts = []string{
	"Calls count against the shared API quota; avoid polling in a loop.",
	"Deleting is permanent; confirm the id with the user first.",
	"Results may lag the source system by up to five minutes.",
	"Large exports can take minutes; prefer a narrower filter.",
	"Outputs of the model can be wrong; verify critical facts.",
	"Messages are delivered to real people; double-check recipients.",
}

var warningTextsZH = []string{
	"调用会占用共享的接口配额，避免循环轮询。",
	"删除操作不可恢复，执行前请先向用户确认。",
	"数据可能比源系统延迟最多五分钟。",
	"模型输出可能有误，关键信息需要核实。",
}

var relations = []string{"commonly used before", "commonly used after", "alternative for bulk work", "provides the ids this tool needs", "follow-up for details"}

var relationsZH = []string{"通常先调用", "通常随后调用", "批量场景的替代方案", "提供本工具需要的 ID"}
