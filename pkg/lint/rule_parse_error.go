package lint

// ParseErrorID is the rule of files that cannot be read or parsed; the
// findings come from pkg/spec's positioned errors.
const ParseErrorID = "parse-error"

var ruleParseError = &Rule{
	ID:          ParseErrorID,
	Severity:    Error,
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Description: "The file must be valid YAML/JSON and hold tool definitions of the right shape.",
	Explain: `A file that cannot be parsed, or whose fields have the wrong type, defines no
usable tool. The message says what is wrong at the position shown.

Bad:
  name: http_request
  description: "Sends a request.
  tags: http

Good:
  name: http_request
  description: "Sends a request."
  tags: [http]`,
}
