package breaking

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// Config is the breaking section of .toolctl.yaml:
//
//	breaking:
//	  rules: {prompt: warning, examples-changed: off}  # rule IDs or categories
//	  ignore: ["tools/experimental/**"]                # files left out, both sides
//	  targets: [openai]                                # provider packs, as --target
type Config struct {
	Severity map[string]diag.Severity
	Ignore   []string
	Targets  []string
}

var configKeys = []string{"ignore", "rules", "targets"}

// ParseConfig decodes the breaking section's node (nil: defaults) of the
// config file file; mistakes are *spec.Error values at their position.
func ParseConfig(file string, n *yaml.Node) (Config, error) {
	var cfg Config
	if n == nil || n.Kind != yaml.MappingNode {
		return cfg, nil
	}
	bad := func(at *yaml.Node, ptr, format string, args ...any) error {
		return &spec.Error{File: file, Span: spec.Span{Start: spec.Pos{Line: at.Line, Col: at.Column}}, Pointer: "/breaking" + ptr, Message: "breaking." + fmt.Sprintf(format, args...)}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "rules":
			if v.Kind != yaml.MappingNode {
				return cfg, bad(v, "/rules", "rules must be a mapping of rule IDs or categories to off, info, warning or error")
			}
			cfg.Severity = map[string]diag.Severity{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				id, val := v.Content[j], v.Content[j+1]
				if _, ok := Lookup(id.Value); !ok && !slices.Contains(Categories, id.Value) {
					hint := "see toolctl breaking --list-rules"
					if s := spec.Suggest(id.Value, append(RuleIDs(), Categories...)); s != "" {
						hint = fmt.Sprintf("did you mean %q?", s)
					}
					return cfg, bad(id, "/rules/"+id.Value, "rules: unknown rule or category %q; %s", id.Value, hint)
				}
				sev, err := diag.ParseSeverity(val.Value)
				if err != nil || val.Kind != yaml.ScalarNode {
					return cfg, bad(val, "/rules/"+id.Value, "rules.%s: %q is not a severity; use off, info, warning or error", id.Value, val.Value)
				}
				cfg.Severity[id.Value] = sev
			}
		case "ignore", "targets":
			list, err := stringList(v)
			if err != nil {
				return cfg, bad(v, "/"+k.Value, "%s must be a list of strings", k.Value)
			}
			if k.Value == "ignore" {
				cfg.Ignore = list
				continue
			}
			for _, t := range list {
				if !slices.Contains(compat.Targets, t) {
					return cfg, bad(v, "/targets", "targets: unknown target %q; use %s", t, strings.Join(compat.Targets, ", "))
				}
			}
			cfg.Targets = list
		default:
			hint := ""
			if s := spec.Suggest(k.Value, configKeys); s != "" {
				hint = fmt.Sprintf("; did you mean %q?", s)
			}
			return cfg, bad(k, "/"+k.Value, "%s is not a breaking setting%s (known: %s)", k.Value, hint, strings.Join(configKeys, ", "))
		}
	}
	return cfg, nil
}

func stringList(v *yaml.Node) ([]string, error) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("not a list")
	}
	var out []string
	for _, e := range v.Content {
		if e.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("not a string")
		}
		out = append(out, e.Value)
	}
	return out, nil
}
