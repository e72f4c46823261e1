package lint

import (
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"regexp"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// ConfigKeys are the keys of the lint section of .toolctl.yaml.
var ConfigKeys = []string{"profile", "targets", "rules", "categories", "limits", "ignore", "overrides", "security", "budget"}

// SecurityKeys are the keys of lint.security, mapped onto SecurityConfig.
var SecurityKeys = []string{"hidden_instructions", "sensitive_data", "allow_hosts"}

// LimitKeys are the keys of lint.limits, mapped onto Limits.
var LimitKeys = []string{"name_max", "description_min", "description_min_words", "description_max", "detail_max"}

// ParseConfig reads the lint section (the value node of "lint:") of the
// config file at path. Globs are relative to the config file's directory
// (root). Unknown keys, rule IDs, severities and profiles are errors with
// their position and a suggestion.
func ParseConfig(path, root string, n *yaml.Node) (Config, []string, error) {
	p := configParser{file: path}
	var cfg Config
	var ignore []string
	if n == nil || n.Tag == "!!null" {
		return cfg, nil, nil
	}
	err := p.mapping(n, "lint", ConfigKeys, func(key string, k, v *yaml.Node) error {
		switch key {
		case "profile":
			s, err := p.str(v, "lint.profile")
			if err != nil {
				return err
			}
			if !slices.Contains(ProfileNames, s) {
				return p.errorf(v, "lint.profile: unknown profile %q; use %s", s, strings.Join(ProfileNames, " or "))
			}
			cfg.Profile = s
		case "targets":
			list, err := p.strList(v, "lint.targets")
			if err != nil {
				return err
			}
			for i, t := range list {
				if !slices.Contains(Targets, t) {
					return p.errorf(v.Content[i], "lint.targets: unknown target %q; use %s", t, strings.Join(Targets, ", "))
				}
			}
			cfg.Targets = list
		case "rules":
			rules, err := p.severities(v, "lint.rules")
			if err != nil {
				return err
			}
			cfg.Severities = rules
		case "categories":
			list, err := p.strList(v, "lint.categories")
			if err != nil {
				return err
			}
			if len(list) == 0 {
				return p.errorf(v, "lint.categories: the list is empty; name at least one category, or remove the key for the default set")
			}
			cfg.Categories = list
		case "limits":
			return p.mapping(v, "lint.limits", LimitKeys, func(key string, k, v *yaml.Node) error {
				var n int
				if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&n) != nil || n < 1 {
					return p.errorf(v, "lint.limits.%s: expected a whole number of at least 1, got %q", key, v.Value)
				}
				switch key {
				case "name_max":
					cfg.Limits.NameMax = n
				case "description_min":
					cfg.Limits.DescriptionMin = n
				case "description_min_words":
					cfg.Limits.DescriptionMinWords = n
				case "description_max":
					cfg.Limits.DescriptionMax = n
				case "detail_max":
					cfg.Limits.DetailMax = n
				}
				return nil
			})
		case "security":
			return p.mapping(v, "lint.security", SecurityKeys, func(key string, k, v *yaml.Node) error {
				list, err := p.strList(v, "lint.security."+key)
				if err != nil {
					return err
				}
				for i, e := range list {
					if key == "allow_hosts" {
						if e == "" || strings.ContainsAny(e, "/:@ ") {
							return p.errorf(v.Content[i], "lint.security.allow_hosts: %q is not a host name; write it as docs.example.org (subdomains are included)", e)
						}
						continue
					}
					if _, err := regexp.Compile("(?i)" + e); err != nil {
						return p.errorf(v.Content[i], "lint.security.%s: %q is not a regular expression (RE2 syntax): %v", key, e, err)
					}
				}
				switch key {
				case "hidden_instructions":
					cfg.Security.HiddenInstructions = list
				case "sensitive_data":
					cfg.Security.SensitiveData = list
				case "allow_hosts":
					cfg.Security.AllowHosts = list
				}
				return nil
			})
		case "budget":
			return p.budget(v, &cfg.Budget)
		case "ignore":
			list, err := p.globs(v, "lint.ignore")
			if err != nil {
				return err
			}
			ignore = list
		case "overrides":
			if v.Kind != yaml.SequenceNode {
				return p.errorf(v, "lint.overrides: expected a list of {files: [globs], rules: {rule-id: severity}}, got %s", spec.KindName(v))
			}
			for i, item := range v.Content {
				field := fmt.Sprintf("lint.overrides[%d]", i)
				o := Override{Root: root}
				seen := map[string]bool{}
				err := p.mapping(item, field, []string{"files", "rules", "budget"}, func(key string, k, v *yaml.Node) error {
					seen[key] = true
					var err error
					switch key {
					case "files":
						o.Files, err = p.globs(v, field+".files")
					case "rules":
						o.Rules, err = p.severities(v, field+".rules")
					case "budget":
						o.Budget, err = p.budgetLimits(v, field+".budget")
					}
					return err
				})
				if err != nil {
					return err
				}
				if !seen["files"] || !seen["rules"] && !seen["budget"] {
					return p.errorf(item, "%s: needs both files: [globs] and rules: {rule-id: severity}", field)
				}
				cfg.Overrides = append(cfg.Overrides, o)
			}
		}
		return nil
	})
	return cfg, ignore, err
}

type configParser struct{ file string }

// tokens reads a token limit: a whole number of at least 1.
func (p configParser) tokens(v *yaml.Node, field string) (int, error) {
	var n int
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&n) != nil || n < 1 {
		return 0, p.errorf(v, "%s: expected a number of tokens of at least 1, got %q", field, v.Value)
	}
	return n, nil
}

// budgetLimits reads an override's budget: {tool, total}.
func (p configParser) budgetLimits(n *yaml.Node, field string) (BudgetLimits, error) {
	var b BudgetLimits
	err := p.mapping(n, field, []string{"tool", "total"}, func(key string, k, v *yaml.Node) error {
		t, err := p.tokens(v, field+"."+key)
		if key == "tool" {
			b.Tool = t
		} else {
			b.Total = t
		}
		return err
	})
	if err == nil && b.Tool == 0 && b.Total == 0 {
		return b, p.errorf(n, "%s: set tool, total or both, in tokens", field)
	}
	return b, err
}

// budget reads lint.budget: {model, format, tool, total}. The counter
// checks the model (cmd reports an unknown one at ModelPos).
func (p configParser) budget(n *yaml.Node, b *BudgetConfig) error {
	err := p.mapping(n, "lint.budget", BudgetKeys, func(key string, k, v *yaml.Node) error {
		switch key {
		case "model":
			s, err := p.str(v, "lint.budget.model")
			if err != nil {
				return err
			}
			b.Model, b.ModelPos = s, spec.Pos{Line: v.Line, Col: v.Column}
		case "format":
			s, err := p.str(v, "lint.budget.format")
			if err != nil {
				return err
			}
			if !slices.Contains(BudgetFormats, s) {
				return p.errorf(v, "lint.budget.format: unknown format %q; use one of %s", s, strings.Join(BudgetFormats, ", "))
			}
			b.Format = s
		case "tool", "total":
			n, err := p.tokens(v, "lint.budget."+key)
			if err != nil {
				return err
			}
			if key == "tool" {
				b.Tool = n
			} else {
				b.Total = n
			}
		}
		return nil
	})
	if err == nil && b.Tool == 0 && b.Total == 0 {
		return p.errorf(n, "lint.budget: set tool (the most one tool may cost), total (the most the set may cost) or both, in tokens")
	}
	return err
}

func (p configParser) errorf(n *yaml.Node, format string, args ...any) error {
	return &diag.Diagnostic{File: p.file, Span: diag.At(spec.Pos{Line: n.Line, Col: n.Column}), Message: fmt.Sprintf(format, args...)}
}

// mapping walks a mapping's keys in order, rejecting unknown and repeated
// keys; known == nil accepts any key.
func (p configParser) mapping(n *yaml.Node, field string, known []string, each func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errorf(n, "%s: expected a mapping, got %s", field, spec.KindName(n))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			return p.errorf(k, "%s.%s is set twice (first at line %d); remove one", field, k.Value, line)
		}
		seen[k.Value] = k.Line
		if known != nil && !slices.Contains(known, k.Value) {
			msg := fmt.Sprintf("unknown setting %s.%s", field, k.Value)
			if s := spec.Suggest(k.Value, known); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			return p.errorf(k, "%s (known: %s)", msg, strings.Join(known, ", "))
		}
		if err := each(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p configParser) str(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || n.Value == "" {
		return "", p.errorf(n, "%s: expected a string, got %s", field, spec.KindName(n))
	}
	return n.Value, nil
}

func (p configParser) strList(n *yaml.Node, field string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "%s: expected a list of strings, got %s", field, spec.KindName(n))
	}
	out := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		s, err := p.str(item, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (p configParser) globs(n *yaml.Node, field string) ([]string, error) {
	list, err := p.strList(n, field)
	if err != nil {
		return nil, err
	}
	for i, g := range list {
		if !ValidGlob(g) {
			return nil, p.errorf(n.Content[i], "%s[%d]: %q is not a valid glob (unclosed [ ... ]?)", field, i, g)
		}
	}
	return list, nil
}

func (p configParser) severities(n *yaml.Node, field string) (map[string]Severity, error) {
	out := map[string]Severity{}
	err := p.mapping(n, field, nil, func(key string, k, v *yaml.Node) error {
		if _, ok := Lookup(key); !ok {
			msg := fmt.Sprintf("%s: unknown rule %q", field, key)
			if s := spec.Suggest(key, RuleIDs()); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; see toolctl lint --list-rules"
			}
			return p.errorf(k, "%s", msg)
		}
		// YAML 1.1 reads a bare off as false; accept it as "off".
		val := v.Value
		if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" && (val == "false" || val == "off" || val == "no") {
			val = "off"
		}
		sev, err := ParseSeverity(val)
		if v.Kind != yaml.ScalarNode || err != nil {
			return p.errorf(v, "%s.%s: %q is not a severity; use off, info, warning or error", field, key, v.Value)
		}
		out[key] = sev
		return nil
	})
	return out, err
}
