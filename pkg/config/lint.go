package config

import (
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// Lint is the lint section, handed over undecoded: its settings (profile,
// targets, rules, categories, limits, ignore, overrides) name rule IDs,
// severities and profiles that pkg/lint defines, and lint.ParseConfig
// decodes them with their positions. This package sits below pkg/lint and
// does not import it.
type Lint struct {
	File string     // the config file, for positions ("" when none)
	Dir  string     // the directory the globs are relative to
	Node *yaml.Node // the value of lint:, nil when there is none
}

func (*Lint) sectionKey() string { return "lint" }

func (l *Lint) decode(d decoder, n *yaml.Node) error {
	l.File, l.Dir, l.Node = d.file, filepath.Dir(d.file), n
	return nil
}
