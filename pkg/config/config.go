// Package config reads .toolctl.yaml, once per invocation: Load checks the
// file's top-level keys (each with its position when wrong), Get decodes one
// section into its type when a command asks for it, and Resolve settles the
// global settings in the order flags > TOOLCTL_* environment > config file >
// defaults. Mistakes are *spec.Error values with the file:line:col.
//
// A new section (for a new command) is a type with sectionKey and decode
// methods in its own file, and a row in keys.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// DefaultFile is read from the working directory when present.
const DefaultFile = ".toolctl.yaml"

// key is one top-level key of the config file and the YAML tag its value
// must have. Scalars are resolved by Resolve; a mapping is a section,
// decoded by its type (Get) only when a command uses it, so a mistake in
// run: never stops toolctl lint.
type key struct {
	name string
	tag  string
}

// keys are the top-level keys this version knows.
var keys = []key{
	{"tools_dir", "!!str"}, // Settings.ToolsDir
	{"no_color", "!!bool"}, // Settings.NoColor
	{"lint", "!!map"},      // Lint
	{"breaking", "!!map"},  // Breaking
	{"run", "!!map"},       // Run
	{"llm", "!!map"},       // llm_call's base_url, api_key_env, model: File.Lookup
	{"values", "!!map"},    // values for bind's {config: key}: File.Lookup
}

var tagNames = map[string]string{"!!str": "a string", "!!bool": "true or false", "!!map": "a mapping"}

// File is a config file read and checked by Load. A nil *File is no config
// file: every section is empty.
type File struct {
	// Path is the file read; relative paths in it are relative to its
	// directory.
	Path string
	root *yaml.Node // the top-level mapping; nil for an empty file
}

// Dir is the directory relative paths and globs of the file are relative
// to ("." when there is no file).
func (f *File) Dir() string {
	if f == nil {
		return "."
	}
	return filepath.Dir(f.Path)
}

// Section is the typed value of one top-level mapping of the config file.
type Section interface {
	// sectionKey is the section's top-level key (a row of keys).
	sectionKey() string
	// decode fills the section from the key's value: nil when the key is
	// absent, else any node Load let through (a mapping or null).
	decode(d decoder, n *yaml.Node) error
}

// Get decodes section T of f, e.g. Get[Run](f); a mistake is a *spec.Error
// at its position.
func Get[T any, P interface {
	*T
	Section
}](f *File) (T, error) {
	var s T
	p := P(&s)
	var path string
	if f != nil {
		path = f.Path
	}
	err := p.decode(decoder{file: path}, f.section(p.sectionKey()))
	return s, err
}

// FromNode wraps a settings mapping already parsed, such as a lint
// baseline's (lint.overrides in a file of its own), for Get; Load's checks
// are not applied.
func FromNode(path string, root *yaml.Node) *File {
	return &File{Path: path, root: root}
}

// section is the value of a top-level key, or nil.
func (f *File) section(name string) *yaml.Node {
	if f == nil || f.root == nil || f.root.Kind != yaml.MappingNode {
		return nil
	}
	return child(f.root, name)
}

// child is the value of key in n's pairs, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// Load reads and checks the config file at path ("" is none: an empty
// File). Unknown keys are errors with their position, so a typo never
// silently does nothing.
func Load(path string) (*File, error) {
	if path == "" {
		return &File{}, nil
	}
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
		return &File{Path: path}, nil // an empty config is fine
	}
	d := decoder{file: path}
	if root.Kind != yaml.MappingNode {
		return nil, d.errorf(root, "", "the config file must be a mapping of settings")
	}
	known := make([]string, len(keys))
	tags := make(map[string]string, len(keys))
	for i, k := range keys {
		known[i] = k.name
		tags[k.name] = k.tag
	}
	sort.Strings(known)
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, val := root.Content[i], root.Content[i+1]
		ptr := "/" + pointerToken(k.Value)
		if line, dup := seen[k.Value]; dup {
			return nil, d.errorf(k, ptr, "%q is set twice (first at line %d); remove one", k.Value, line)
		}
		seen[k.Value] = k.Line
		if tag, ok := tags[k.Value]; ok {
			if tag == "!!map" {
				if val.Kind != yaml.MappingNode && val.ShortTag() != "!!null" {
					return nil, d.errorf(val, ptr, "%s must be %s, got %s", k.Value, tagNames[tag], spec.KindName(val))
				}
				continue
			}
			if val.Kind != yaml.ScalarNode || val.ShortTag() != tag || (tag == "!!str" && val.Value == "") {
				return nil, d.errorf(val, ptr, "%s must be %s, got %q", k.Value, tagNames[tag], val.Value)
			}
			continue
		}
		hint := ""
		if s := spec.Suggest(k.Value, known); s != "" {
			hint = fmt.Sprintf("; did you mean %q?", s)
		}
		return nil, d.errorf(k, ptr, "unknown setting %q%s (known: %v)", k.Value, hint, known)
	}
	return &File{Path: path, root: root}, nil
}

// decoder makes positioned errors for one config file.
type decoder struct{ file string }

// errorf is a *spec.Error at n, about the value at the JSON pointer ptr.
func (d decoder) errorf(n *yaml.Node, ptr, format string, args ...any) error {
	return &spec.Error{File: d.file, Span: spec.Span{Start: spec.Pos{Line: n.Line, Col: n.Column}}, Pointer: ptr, Message: fmt.Sprintf(format, args...)}
}

// resolve makes a path from the config file relative to its directory.
func (d decoder) resolve(p string) string {
	return resolveRelative(d.file, p)
}

// pointerToken escapes a key for a JSON pointer (RFC 6901).
func pointerToken(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

func resolveRelative(configPath, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(configPath), p)
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
