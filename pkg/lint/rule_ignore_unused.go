package lint

var ruleIgnoreUnused = &Rule{
	ID:       IgnoreUnusedID,
	Severity: Warning,
	// Checked by applyIgnores after every rule ran.
	Description: "Every inline ignore names a known rule and suppresses a finding.",
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Explain: `An ignore comment that suppresses nothing (the problem was fixed, or the rule
ID is misspelt) hides the next real finding at that place. Remove it.

Bad:
  name: http_request  # toolctl:ignore name-snake-case -- legacy name

Good:
  name: http_request`,
}
