package lint

var ruleIgnoreNoReason = &Rule{
	ID:       IgnoreNoReasonID,
	Severity: Warning,
	// Checked by applyIgnores after every rule ran.
	Description: "Every inline ignore says why after the rule ID.",
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Explain: `The next reader cannot tell a deliberate exception from a shortcut. Say why.

Bad:
  name: HTTPRequest  # toolctl:ignore name-snake-case

Good:
  name: HTTPRequest  # toolctl:ignore name-snake-case -- the gateway matches this exact name`,
}
