package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/internal/jsonschema"
)

// The schema is for editors: it must accept every corpus file the parser
// reads cleanly, in every dialect, and reject the ones with unknown fields
// (what lint's field-unknown reports), so that a typo shows in the editor.
func TestSchemaAcceptsCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	s := compileFileSchema(t)
	set, err := Load([]string{corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read %d files from %s", len(set.Files), corpusDir)
	clean, unknown := 0, 0
	for _, f := range set.Files {
		if len(f.Errors) > 0 || len(f.Tools) == 0 {
			continue
		}
		rel, _ := filepath.Rel(corpusDir, f.Path)
		err := s.Validate(asJSON(t, f.Data))
		if field := unknownField(f); field != "" {
			unknown++
			if err == nil {
				t.Errorf("%s has the unknown field %s, but the schema accepts it", rel, field)
			}
			continue
		}
		clean++
		if err != nil {
			t.Errorf("%s is read by the parser but rejected by the schema: %s", rel, schemaErrorText(err))
		}
	}
	// Clean: feagent tools/ and scripts-tools/ 10, openakita 139 + 16 + 3,
	// docker-mcp-registry 28 (24 of them with Docker's compact arguments,
	// a dialect of its own). Unknown fields: graph-agent's
	// parameters_schema 8, Feagent's definitions-tools 2, LiveMCPBench's
	// server records 1, openakita 1.
	if clean != 196 || unknown != 12 {
		t.Errorf("%d clean files and %d with unknown fields; want 196 and 12 (did the corpus change?)", clean, unknown)
	}
}

func unknownField(f *File) string {
	for _, tool := range f.Tools {
		if len(tool.UnknownFields) > 0 {
			return tool.UnknownFields[0]
		}
	}
	return ""
}

// schemaErrorText lists the innermost causes of a validation error, the
// places a reader has to look at.
func schemaErrorText(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, fmt.Sprintf("%s: %s (%s)", e.InstanceLocation, e.Message, e.KeywordLocation))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(leaves) > 8 {
		leaves = append(leaves[:8], "...")
	}
	return strings.Join(leaves, "; ")
}
