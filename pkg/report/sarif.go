package report

import (
	"bytes"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
)

const (
	sarifSchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	toolName       = "toolctl"
	toolInfoURI    = "https://github.com/toolctl/toolctl"
)

// The sarif* types are the subset of SARIF 2.1.0 toolctl emits; field order
// is struct order, so output is stable.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool      sarifTool       `json:"tool"`
	Artifacts []sarifArtifact `json:"artifacts,omitempty"`
	Results   []sarifResult   `json:"results"`
	// ColumnKind is unicodeCodePoints: spec.Pos columns count runes, and
	// SARIF's default unit is UTF-16 code units.
	ColumnKind string `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	Help                 *sarifText  `json:"help,omitempty"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfig struct {
	Enabled *bool  `json:"enabled,omitempty"`
	Level   string `json:"level"`
}

type sarifArtifact struct {
	Location sarifArtifactLocation `json:"location"`
	Roles    []string              `json:"roles"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index *int   `json:"index,omitempty"`
}

type sarifResult struct {
	RuleID     string           `json:"ruleId,omitempty"`
	RuleIndex  *int             `json:"ruleIndex,omitempty"`
	Level      string           `json:"level"`
	Message    sarifText        `json:"message"`
	Locations  []sarifLocation  `json:"locations"`
	Properties *sarifProperties `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation  `json:"physicalLocation"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
}

// sarifLogicalLocation is the value a finding is about, by its JSON
// pointer in the tool (Options.ToolPointers).
type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifProperties is a result's property bag: the tool and the pointer
// (Options.ToolPointers).
type sarifProperties struct {
	Tool    string `json:"tool,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

func writeSARIF(b *bytes.Buffer, findings []diag.Diagnostic, sum Summary, opt Options) error {
	rules, ruleIndex := sarifRules(opt.Rules)

	// Artifacts list every linted file, clean ones included, so a consumer
	// can tell "checked and clean" from "not checked".
	var artifacts []sarifArtifact
	artifactIndex := map[string]int{}
	for _, file := range fileOrder(sum, findings) {
		uri := sarifURI(opt.Root, file)
		if _, dup := artifactIndex[uri]; dup {
			continue
		}
		artifactIndex[uri] = len(artifacts)
		artifacts = append(artifacts, sarifArtifact{Location: sarifArtifactLocation{URI: uri}, Roles: []string{"analysisTarget"}})
	}

	results := make([]sarifResult, 0, len(findings))
	for _, f := range findings {
		uri := sarifURI(opt.Root, f.File)
		loc := sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: uri, Index: intPtr(artifactIndex[uri])}}
		if hasPos(f.Span) {
			loc.Region = &sarifRegion{StartLine: f.Span.Start.Line, StartColumn: f.Span.Start.Col}
			if hasEnd(f.Span) {
				loc.Region.EndLine, loc.Region.EndColumn = f.Span.End.Line, f.Span.End.Col
			}
		}
		r := sarifResult{
			RuleID:    f.Rule,
			Level:     sarifLevel(f.Severity),
			Message:   sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: loc}},
		}
		if i, ok := ruleIndex[f.Rule]; ok {
			r.RuleIndex = intPtr(i)
		}
		if opt.ToolPointers && (f.Tool != "" || f.Pointer != "") {
			r.Properties = &sarifProperties{Tool: f.Tool, Pointer: f.Pointer}
			if f.Pointer != "" {
				name := f.Pointer[strings.LastIndexByte(f.Pointer, '/')+1:]
				name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
				r.Locations[0].LogicalLocations = []sarifLogicalLocation{{Name: name, FullyQualifiedName: f.Pointer, Kind: "value"}}
			}
		}
		results = append(results, r)
	}

	log := sarifLog{
		Schema:  sarifSchemaURI,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:       sarifTool{Driver: sarifDriver{Name: toolName, InformationURI: toolInfoURI, Version: opt.Version, Rules: rules}},
			Artifacts:  artifacts,
			Results:    results,
			ColumnKind: "unicodeCodePoints",
		}},
	}
	return encodeJSON(b, log)
}

// sarifRules describes the catalog sorted by ID (SARIF wants rule IDs
// unique) and maps each ID to its index for results' ruleIndex.
func sarifRules(catalog []Rule) ([]sarifRule, map[string]int) {
	sorted := make([]Rule, 0, len(catalog))
	for _, r := range catalog {
		if r.ID != "" {
			sorted = append(sorted, r)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	rules := make([]sarifRule, 0, len(sorted))
	index := make(map[string]int, len(sorted))
	for _, r := range sorted {
		if _, dup := index[r.ID]; dup {
			continue
		}
		index[r.ID] = len(rules)
		sr := sarifRule{
			ID:                   r.ID,
			Name:                 camelCase(r.ID),
			ShortDescription:     sarifText{Text: r.Description},
			FullDescription:      sarifText{Text: r.Description},
			DefaultConfiguration: sarifConfig{Level: sarifLevel(r.Severity)},
		}
		if r.Explain != "" {
			sr.Help = &sarifText{Text: r.Explain}
		}
		if r.Severity == diag.Off {
			sr.DefaultConfiguration.Enabled = boolPtr(false)
		}
		rules = append(rules, sr)
	}
	return rules, index
}

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	case diag.Info:
		return "note"
	}
	return "none"
}

// sarifURI is path as a URI reference: relative to root where possible
// (code-scanning services resolve it against the repository), a file: URI
// otherwise, percent-escaped either way.
func sarifURI(root, path string) string {
	p := relPath(root, path)
	if filepath.IsAbs(filepath.FromSlash(p)) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // Windows: C:/x becomes file:///C:/x
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	// url.URL.String adds "./" before a first segment holding a colon, so
	// the path is not read as a scheme.
	return (&url.URL{Path: p}).String()
}

// camelCase turns a rule ID (name-snake-case) into a SARIF rule name
// (NameSnakeCase).
func camelCase(id string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func intPtr(i int) *int    { return &i }
func boolPtr(b bool) *bool { return &b }
