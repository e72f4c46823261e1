package cmd

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// runConfig is the run section of .toolctl.yaml.
type runConfig struct {
	Timeout  time.Duration
	Memory   int64
	Retries  *int
	Python   string
	FileRoot string
}

var runConfigKeys = []string{"file_root", "memory", "python", "retries", "timeout"}

// runSettings reads and checks the run section; a mistake is an error with
// its position.
func runSettings(app *App) (runConfig, error) {
	var rc runConfig
	sec := configSection(app.configRoot, "run")
	if sec == nil || sec.Kind != yaml.MappingNode {
		return rc, nil
	}
	bad := func(n *yaml.Node, format string, args ...any) error {
		return usageError(fmt.Errorf("%s:%d:%d: run.%s", app.configFile, n.Line, n.Column, fmt.Sprintf(format, args...)))
	}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		switch k.Value {
		case "timeout":
			d, err := time.ParseDuration(v.Value)
			if err != nil || d <= 0 || v.Kind != yaml.ScalarNode {
				return rc, bad(v, "timeout must be a positive duration such as 30s or 2m, got %q", v.Value)
			}
			rc.Timeout = d
		case "memory":
			n, err := spec.ParseSize(v.Value)
			if err != nil || v.Kind != yaml.ScalarNode {
				msg := "expected a scalar"
				if err != nil {
					msg = err.Error()
				}
				return rc, bad(v, "memory must be a size such as 256MiB or 1GiB, or unlimited, got %q: %s", v.Value, msg)
			}
			rc.Memory = n
		case "retries":
			n, err := strconv.Atoi(v.Value)
			if err != nil || n < 0 || v.Kind != yaml.ScalarNode {
				return rc, bad(v, "retries must be a whole number ≥ 0, got %q", v.Value)
			}
			rc.Retries = &n
		case "python":
			rc.Python = v.Value
		case "file_root":
			rc.FileRoot = resolveRelative(app.configFile, v.Value)
		default:
			hint := ""
			if s := spec.Suggest(k.Value, runConfigKeys); s != "" {
				hint = fmt.Sprintf("; did you mean %q?", s)
			}
			return rc, bad(k, "%s is not a run setting%s (known: %s)", k.Value, hint, strings.Join(runConfigKeys, ", "))
		}
	}
	return rc, nil
}

// configSection returns the value of a top-level key of the config file.
func configSection(root *yaml.Node, key string) *yaml.Node {
	if root == nil {
		return nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			return root.Content[i+1]
		}
	}
	return nil
}

// configValue looks up a dotted key in the config file for bind's
// {config: key} and llm_call's settings: under values: first, then from
// the top (llm.model).
func (app *App) configValue(key string) (any, bool) {
	for _, full := range []string{"values." + key, key} {
		n := app.configRoot
		for _, part := range strings.Split(full, ".") {
			n = configSection(n, part)
			if n == nil {
				break
			}
		}
		if n == nil {
			continue
		}
		var v any
		if err := n.Decode(&v); err != nil {
			continue
		}
		return plainYAML(v), true
	}
	return nil, false
}

// plainYAML turns yaml.v3's decoded maps into map[string]any with string
// keys and numbers into json.Number-free Go values the runner accepts.
func plainYAML(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out[k] = plainYAML(v[k])
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plainYAML(x)
		}
		return out
	case int:
		return int64(v)
	}
	return v
}
