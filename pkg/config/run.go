package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// Run is the run section: the defaults of toolctl run and serve's calls,
// below their flags and the tool file's runtime section.
type Run struct {
	Timeout  time.Duration // 0: unset
	Memory   int64         // 0: unset
	Retries  *int          // nil: unset
	Python   string
	FileRoot string // relative to the config file's directory
}

var runKeys = []string{"file_root", "memory", "python", "retries", "timeout"}

func (*Run) sectionKey() string { return "run" }

func (rc *Run) decode(d decoder, sec *yaml.Node) error {
	if sec == nil || sec.Kind != yaml.MappingNode {
		return nil
	}
	bad := func(n *yaml.Node, key, format string, args ...any) error {
		return d.errorf(n, "/run/"+pointerToken(key), "run.%s", fmt.Sprintf(format, args...))
	}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		switch k.Value {
		case "timeout":
			dur, err := time.ParseDuration(v.Value)
			if err != nil || dur <= 0 || v.Kind != yaml.ScalarNode {
				return bad(v, k.Value, "timeout must be a positive duration such as 30s or 2m, got %q", v.Value)
			}
			rc.Timeout = dur
		case "memory":
			n, err := spec.ParseSize(v.Value)
			if err != nil || v.Kind != yaml.ScalarNode {
				msg := "expected a scalar"
				if err != nil {
					msg = err.Error()
				}
				return bad(v, k.Value, "memory must be a size such as 256MiB or 1GiB, or unlimited, got %q: %s", v.Value, msg)
			}
			rc.Memory = n
		case "retries":
			n, err := strconv.Atoi(v.Value)
			if err != nil || n < 0 || v.Kind != yaml.ScalarNode {
				return bad(v, k.Value, "retries must be a whole number ≥ 0, got %q", v.Value)
			}
			rc.Retries = &n
		case "python":
			rc.Python = v.Value
		case "file_root":
			rc.FileRoot = d.resolve(v.Value)
		default:
			hint := ""
			if s := spec.Suggest(k.Value, runKeys); s != "" {
				hint = fmt.Sprintf("; did you mean %q?", s)
			}
			return bad(k, k.Value, "%s is not a run setting%s (known: %s)", k.Value, hint, strings.Join(runKeys, ", "))
		}
	}
	return nil
}

// ReaderPython is the interpreter commands that only read Python modules
// (lint's entry-python-drift, the language server) may start: run.python
// when it is a command found on PATH, "" (python3) when it is a path. A
// cloned repository's config must not make reading its files run a
// program it ships (run.python: ./bin/python); toolctl run, which runs
// the repository's tools anyway, uses the path.
func (r Run) ReaderPython() string {
	if strings.ContainsAny(r.Python, `/\`) {
		return ""
	}
	return r.Python
}
