package lint

import (
	"slices"
	"strings"
)

// rules is every lint rule, in ID order, listed explicitly as actionlint's
// linter.go lists its rules: adding a rule is one file (rule_<id>.go,
// which declares the rule value) and one line here. TestRuleTable checks
// that every rule a file declares is listed and that IDs are unique.
var rules = []*Rule{
	ruleAnthropicName,
	ruleAnthropicStrictLimits,
	ruleAnthropicStrictSchema,
	ruleBudgetToolTokens,
	ruleBudgetTotalTokens,
	ruleCategoryRequired,
	ruleCategoryUnknown,
	ruleCommandPlaceholderOption,
	ruleCommandProgramPlaceholder,
	ruleDescriptionMaxLength,
	ruleDescriptionRequired,
	ruleDescriptionThirdPerson,
	ruleDescriptionTooShort,
	ruleDescriptionTrailingWhitespace,
	ruleDescriptionWhen,
	ruleDetailMaxLength,
	ruleEntryFieldMissing,
	ruleEntryHandlerUnknown,
	ruleEntryJavaScriptInvalid,
	ruleEntryPythonDrift,
	ruleEntryRequired,
	ruleEntryTypeUnknown,
	ruleExampleParamsInvalid,
	ruleExampleExpectedInvalid,
	ruleFieldUnknown,
	ruleGeminiName,
	ruleGeminiNameSeparator,
	ruleGeminiSchema,
	ruleHTTPPlaceholderUnknown,
	ruleIgnoreNoReason,
	ruleIgnoreUnused,
	ruleInputSchemaInvalid,
	ruleInputSchemaNotObject,
	ruleInputSchemaRequiredUndefined,
	ruleMCPName,
	ruleMCPOutputSchema,
	ruleNameCategoryPrefix,
	ruleNameMatchesFile,
	ruleNameMaxLength,
	ruleNameRequired,
	ruleNameSnakeCase,
	ruleNameUnique,
	ruleOpenAIName,
	ruleOpenAIStrictSchema,
	ruleOpenAIToolCount,
	ruleOutputSchemaInvalid,
	ruleParamDefaultInvalid,
	ruleParamDefaultMissing,
	ruleParamDescriptionMissing,
	ruleParamEnumInvalid,
	ruleParamRequiredDefault,
	ruleParamTypeFeagent,
	ruleParamTypeMissing,
	ruleParseError,
	rulePrerequisitesMalformed,
	ruleReferenceUnknown,
	ruleSchemaKeywordUnknown,
	ruleSecretLiteral,
	ruleSecurityBidiOverride,
	ruleSecurityConfusableName,
	ruleSecurityExfiltrationURL,
	ruleSecurityHiddenInstructions,
	ruleSecurityInvisibleUnicode,
	ruleSecuritySensitiveData,
	ruleSecurityToolShadowing,
	ruleShareableScopeKnown,
	ruleTriggersMalformed,
	ruleURLPlaceholderHost,
	ruleURLPlaceholderOrigin,
	ruleVersionSemVer,
	ruleWarningsMalformed,
}

// byID and sortedRules index the table; no rule file adds to them.
var (
	byID        = indexRules(rules)
	sortedRules = sortRules(rules)
)

func indexRules(rs []*Rule) map[string]*Rule {
	m := make(map[string]*Rule, len(rs))
	for _, r := range rs {
		m[r.ID] = r
	}
	return m
}

func sortRules(rs []*Rule) []*Rule {
	out := slices.Clone(rs)
	slices.SortFunc(out, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Rules returns every rule, sorted by ID.
func Rules() []*Rule {
	return slices.Clone(sortedRules)
}

// RuleIDs returns every rule ID, sorted (for suggestions).
func RuleIDs() []string {
	ids := make([]string, len(sortedRules))
	for i, r := range sortedRules {
		ids[i] = r.ID
	}
	return ids
}

// Lookup returns the rule with id.
func Lookup(id string) (*Rule, bool) {
	r, ok := byID[id]
	return r, ok
}
