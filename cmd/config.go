package cmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// DefaultConfigFile is read from the working directory when present.
const DefaultConfigFile = ".toolctl.yaml"

// configKeys are the top-level keys of .toolctl.yaml this version knows, with
// the YAML tag their value must have.
var configKeys = map[string]string{
	"tools_dir": "!!str",  // directory of tool files used when no paths are given
	"no_color":  "!!bool", // true disables colour even on a terminal
	"lint":      "!!map",  // the lint section, validated by lint.ParseConfig
	"run":       "!!map",  // run settings: timeout, retries, python, file_root
	"llm":       "!!map",  // llm_call settings: base_url, api_key_env, model
	"values":    "!!map",  // values for bind: {config: dotted.key}
}

var tagNames = map[string]string{"!!str": "a string", "!!bool": "true or false", "!!map": "a mapping"}

// readConfig reads and validates a config file. Unknown keys are errors with
// their position, so a typo never silently does nothing. It returns the
// file's top-level mapping (nil for an empty file).
func readConfig(path string) (*yaml.Node, error) {
	// As a tool file: a regular file (never a named pipe, which would block)
	// of at most spec.MaxFileSize.
	data, err := spec.ReadToolFile(path)
	var tooLarge *spec.TooLargeError
	var notRegular *spec.NotRegularError
	if errors.As(err, &notRegular) && notRegular.Mode.IsDir() {
		return nil, fmt.Errorf("config file %s: is a directory", path)
	}
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("config file %s is larger than %d MB; is it really a config file?", path, spec.MaxFileSize>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("config file %s: %v", path, unwrapPathError(err))
	}
	// As a tool file is read: JSON's rules for a .json file (surrogate
	// pairs...), YAML's otherwise; syntax errors positioned.
	root, perr := spec.ParseDocument(path, data)
	if perr != nil {
		return nil, perr
	}
	if root == nil || root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil // an empty config is fine
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d:%d: the config file must be a mapping of settings", path, root.Line, root.Column)
	}
	known := make([]string, 0, len(configKeys))
	for k := range configKeys {
		known = append(known, k)
	}
	sort.Strings(known)
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, val := root.Content[i], root.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			return nil, fmt.Errorf("%s:%d:%d: %q is set twice (first at line %d); remove one", path, k.Line, k.Column, k.Value, line)
		}
		seen[k.Value] = k.Line
		if tag, ok := configKeys[k.Value]; ok {
			if tag == "!!map" {
				if val.Kind != yaml.MappingNode && val.ShortTag() != "!!null" {
					return nil, fmt.Errorf("%s:%d:%d: %s must be %s, got %s", path, val.Line, val.Column, k.Value, tagNames[tag], spec.KindName(val))
				}
				continue
			}
			if val.Kind != yaml.ScalarNode || val.ShortTag() != tag || (tag == "!!str" && val.Value == "") {
				return nil, fmt.Errorf("%s:%d:%d: %s must be %s, got %q", path, val.Line, val.Column, k.Value, tagNames[tag], val.Value)
			}
			continue
		}
		hint := ""
		if s := spec.Suggest(k.Value, known); s != "" {
			hint = fmt.Sprintf("; did you mean %q?", s)
		}
		return nil, fmt.Errorf("%s:%d:%d: unknown setting %q%s (known: %v)", path, k.Line, k.Column, k.Value, hint, known)
	}
	return root, nil
}

// resolveRelative makes a path from a config file relative to that file.
func resolveRelative(configPath, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(configPath), p)
}
