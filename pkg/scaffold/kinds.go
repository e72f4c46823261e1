package scaffold

// The scaffold of each entry type: realistic placeholders that pass lint as
// they are and, for javascript, python, command and builtin, run as they
// are (the example's expected value is what `toolctl run` returns).

// param is one input parameter, rendered as a JSON Schema property or as
// a Feagent list item.
type param struct {
	name, typ, description string
	required               bool
	// def is the default as a YAML scalar ("" for none; optional
	// parameters always have one).
	def  string
	enum []string
	// extra are further JSON Schema keywords, as YAML scalars, in order.
	extra [][2]string
}

// field is one field of the result.
type field struct{ name, typ, description string }

// kind is the scaffold of one entry type.
type kind struct {
	description string
	detail      string
	category    string
	icon        string
	tags        []string
	// entryComment goes above entry:, entry is its body (2-space indented
	// YAML lines, comments included).
	entryComment string
	entry        func(n names) string
	params       []param
	output       []field
	// scenario, exampleParams (YAML flow mapping) and expected (YAML) make
	// the one example.
	scenario      string
	exampleParams string
	expected      string
	triggers      []string
	prerequisites []string
	warnings      []string
	// annotations are MCP hints as YAML key: value lines.
	annotations [][2]string
	timeout     string
	retries     string
	// script, when set, is a file the entry runs, next to the tool file.
	script func(n names) *File
}

// names are the identifiers a scaffold uses.
type names struct {
	tool   string // the tool's name
	module string // python module (tool name, or tool_tool when it shadows the standard library)
}

// measureText fills in what the javascript and python scaffolds share: the
// same text-measuring tool, run by different engines.
func measureText(k kind) *kind {
	k.description = "Counts the words, characters or lines of a text. Use when the user asks how long a text is or a text must fit a length limit."
	k.detail = `Words are separated by white space; characters are Unicode code points;
lines are counted by line breaks (a last line without one counts too). The
text is not stored or sent anywhere.`
	k.category = "custom"
	k.tags = []string{"text"}
	k.params = []param{
		{name: "text", typ: "string", description: "The text to measure, at most 100000 characters.", required: true},
		{name: "unit", typ: "string", description: "What to count.", def: "words", enum: []string{"words", "characters", "lines"}},
	}
	k.output = []field{
		{"count", "integer", "How many units the text has."},
		{"unit", "string", "The unit counted."},
	}
	k.scenario = "Count the words of a sentence"
	k.exampleParams = `{text: "Tools make agents useful.", unit: words}`
	k.expected = "{count: 4, unit: words}"
	k.triggers = []string{"count the words", "how long is this text"}
	k.prerequisites = []string{"The text is in the conversation or was read with a file tool"}
	k.warnings = []string{"Texts longer than 100000 characters are refused."}
	k.annotations = [][2]string{{"readOnlyHint", "true"}, {"idempotentHint", "true"}, {"openWorldHint", "false"}}
	k.retries = "0"
	return &k
}

var kinds = map[string]*kind{
	"http": {
		description: "Looks up a customer by id in the Example CRM API and returns their profile. Use when the user names a customer id or asks for a customer's contact details.",
		detail: `Calls ` + "`GET https://api.example.com/v1/customers/{customer_id}`" + ` with the token from
the EXAMPLE_API_TOKEN environment variable. Unknown ids return a NotFoundError;
ask the user to check the id rather than guessing another one.`,
		category:     "http",
		icon:         "👤",
		tags:         []string{"crm", "customers"},
		entryComment: "How it runs: an HTTP request. {param} takes a parameter's value, ${ENV} an\nenvironment variable (never printed); GET and DELETE send the parameters not\nused in the URL as the query string, other methods as a JSON body.",
		entry: func(names) string {
			return `  type: http
  url: https://api.example.com/v1/customers/{customer_id}
  method: GET
  headers:
    Accept: application/json
    # Secrets only as ${ENV}: lint rejects a literal credential.
    Authorization: Bearer ${EXAMPLE_API_TOKEN}
`
		},
		params: []param{
			{name: "customer_id", typ: "string", description: "The customer's id, as shown in the CRM (cus_ followed by letters and digits).", required: true, extra: [][2]string{{"pattern", `"^cus_[A-Za-z0-9]+$"`}}},
			{name: "include", typ: "string", description: "Related records to return with the profile.", def: "none", enum: []string{"none", "orders", "invoices"}},
		},
		output: []field{
			{"id", "string", "The customer's id."},
			{"name", "string", "Full name."},
			{"email", "string", "Contact email address."},
		},
		scenario:      "The user asks for the email of customer cus_123",
		exampleParams: "{customer_id: cus_123, include: none}",
		expected:      "{id: cus_123, name: Ada Lovelace, email: ada@example.com}",
		triggers:      []string{"look up a customer", "customer contact details"},
		prerequisites: []string{"EXAMPLE_API_TOKEN is set in the environment"},
		warnings:      []string{"Returns personal data: show only the fields the user asked for."},
		annotations:   [][2]string{{"readOnlyHint", "true"}, {"openWorldHint", "true"}},
		timeout:       "10s",
		retries:       "2",
	},
	"builtin": {
		description: "Evaluates an arithmetic expression exactly and rounds the result. Use when a total, ratio or percentage must be computed rather than estimated.",
		detail: `Supports + - * / % ^, parentheses, pi and e, and functions such as sqrt, round,
min and max. Nothing else is evaluated: no variables or strings. Division by
zero is an error.`,
		category:     "custom",
		icon:         "🧮",
		tags:         []string{"math"},
		entryComment: "How it runs: a handler compiled into toolctl: http_request, llm_call,\nfile_reader, json_transformer, text_analyzer, calculator, datetime, string,\narray or object. Its parameters are the handler's own.",
		entry: func(names) string {
			return "  type: builtin\n  handler: calculator\n"
		},
		params: []param{
			{name: "expression", typ: "string", description: "Arithmetic expression, e.g. (19.99 * 3) * 1.2; at most 4096 characters.", required: true},
			{name: "precision", typ: "integer", description: "Decimal places the result is rounded to, 0 to 15.", def: "2"},
		},
		output: []field{
			{"result", "number", "The value, rounded to precision decimals."},
			{"expression", "string", "The expression as given."},
		},
		scenario:      "Price of three items with 20% tax",
		exampleParams: `{expression: "19.99 * 3 * 1.2", precision: 2}`,
		expected:      `{result: 71.96, expression: "19.99 * 3 * 1.2"}`,
		triggers:      []string{"calculate", "how much is"},
		prerequisites: []string{"The numbers are known; ask for missing ones instead of guessing"},
		warnings:      []string{"Angles are in radians."},
		annotations:   [][2]string{{"readOnlyHint", "true"}, {"idempotentHint", "true"}, {"openWorldHint", "false"}},
		timeout:       "5s",
		retries:       "0",
	},
	"javascript": measureText(kind{
		icon:         "🔢",
		entryComment: "How it runs: JavaScript in toolctl's embedded engine (no Node.js needed, no\nfile or network access). code defines execute(input), which returns the\nresult or a Promise of it; or file: names a .js file next to this one.",
		entry: func(names) string {
			return `  type: javascript
  code: |
    function execute(input) {
      const text = input.text;
      let count;
      if (input.unit === "characters") {
        count = Array.from(text).length;
      } else if (input.unit === "lines") {
        count = text === "" ? 0 : text.replace(/(\r\n|\r|\n)$/, "").split(/\r\n|\r|\n/).length;
      } else {
        count = text.split(/\s+/).filter(function (w) { return w !== ""; }).length;
      }
      return { count: count, unit: input.unit };
    }
`
		},
		timeout: "5s",
	}),
	"python": measureText(kind{
		icon:         "🐍",
		entryComment: "How it runs: python3 in a subprocess imports module from path (relative to\nthis file) and calls function with the input as keyword arguments; it\nreturns the result as JSON-serialisable data. print() goes to stderr.",
		entry: func(n names) string {
			return "  type: python\n  module: " + n.module + "\n  function: run\n  path: scripts\n"
		},
		timeout: "10s",
		script: func(n names) *File {
			return &File{Path: "scripts/" + n.module + ".py", Mode: 0o644, Data: []byte(`"""` + n.tool + ` tool: toolctl's python entry calls run(**input) with the
validated input (defaults filled in) and sends the return value to the agent
as JSON. Raise an exception to fail the call; print() output goes to stderr.
"""


def run(text, unit="words"):
    if unit == "characters":
        count = len(text)
    elif unit == "lines":
        count = len(text.splitlines())
    else:
        count = len(text.split())
    return {"count": count, "unit": unit}


if __name__ == "__main__":
    import sys

    print(run(sys.stdin.read()))
`)}
		},
	}),
	"command": {
		description: "Echoes a message back from a local script, the starting point of a command tool. Use when checking that local script tools run on this machine.",
		detail: `Runs scripts/` + "{{tool}}" + `.sh next to this file with the input as JSON on stdin and
returns what it prints (JSON, or text). A non-zero exit status fails the call
with the last line of stderr as the message.`,
		category:     "custom",
		icon:         "🖥️",
		tags:         []string{"local", "script"},
		entryComment: "How it runs: a local program, without a shell. command is the argv:\n{param} takes a parameter's value as one argument; a program with a slash is\nrelative to this file. Keep \"--\" before a {param} that is a whole argument:\nwithout it a value starting with - is refused, as the program would read it\nas an option. The input also arrives as JSON on stdin.",
		entry: func(n names) string {
			return "  type: command\n  command: [./scripts/" + n.tool + ".sh, --, \"{message}\"]\n"
		},
		params: []param{
			{name: "message", typ: "string", description: "The message to send back.", required: true},
		},
		output: []field{
			{"received", "object", "The input the script read on stdin."},
		},
		scenario:      "Check that the script runs",
		exampleParams: "{message: hello}",
		expected:      "{received: {message: hello}}",
		triggers:      []string{"test the local script"},
		prerequisites: []string{"A POSIX shell (sh) is installed, as on Linux and macOS"},
		warnings:      []string{"Runs a program on the local machine with the caller's permissions."},
		annotations:   [][2]string{{"readOnlyHint", "true"}, {"idempotentHint", "true"}, {"openWorldHint", "false"}},
		timeout:       "10s",
		retries:       "0",
		script: func(n names) *File {
			return &File{Path: "scripts/" + n.tool + ".sh", Mode: 0o755, Data: []byte(`#!/bin/sh
# ` + n.tool + ` tool: toolctl runs this script with the input as JSON on stdin
# and returns what it prints on stdout (JSON, or text). Exit with a non-zero
# status and a message on stderr to fail the call.
set -eu
# The arguments are "--" and the message: "--" says that what follows is a
# value even when it starts with "-", never an option.
if [ "${1-}" = "--" ]; then shift; fi
input=$(cat)
printf '{"received": %s}\n' "$input"
`)}
		},
	},
	"mcp": {
		description: "Echoes a message back through the MCP reference server, the starting point of an MCP tool. Use when checking that an MCP server can be reached.",
		detail: `Starts the MCP "everything" reference server with npx and calls its echo
tool. Replace server and tool with your own server's command line (or its
https URL) and tool name.`,
		category:     "custom",
		icon:         "🔌",
		tags:         []string{"mcp"},
		entryComment: "How it runs: calls a tool on an MCP server. server is a command line (stdio;\nthe process is stopped after the call) or an https URL (Streamable HTTP);\ntool is the tool's name on that server.",
		entry: func(names) string {
			return "  type: mcp\n  server: npx -y @modelcontextprotocol/server-everything\n  tool: echo\n"
		},
		params: []param{
			{name: "message", typ: "string", description: "The message to send back.", required: true},
		},
		output: []field{
			{"text", "string", "The server's reply."},
		},
		scenario:      "Check that the server answers",
		exampleParams: "{message: hello}",
		expected:      `{content: [{type: text, text: "Echo: hello"}]}`,
		triggers:      []string{"test the MCP server"},
		prerequisites: []string{"Node.js (npx) is installed; the first call downloads the server"},
		warnings:      []string{"The first call can take a minute while npx downloads the server."},
		annotations:   [][2]string{{"readOnlyHint", "true"}, {"openWorldHint", "false"}},
		timeout:       "60s",
		retries:       "1",
	},
}
