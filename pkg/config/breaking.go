package config

import (
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// Breaking is the breaking section (toolctl breaking), handed over
// undecoded as Lint is: its rules name rule IDs and categories that
// pkg/breaking defines, and breaking.ParseConfig decodes them with their
// positions.
type Breaking struct {
	File string     // the config file, for positions ("" when none)
	Dir  string     // the directory the globs are relative to
	Node *yaml.Node // the value of breaking:, nil when there is none
}

func (*Breaking) sectionKey() string { return "breaking" }

func (b *Breaking) decode(d decoder, n *yaml.Node) error {
	b.File, b.Dir, b.Node = d.file, filepath.Dir(d.file), n
	return nil
}
