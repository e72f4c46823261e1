package report

import (
	"bytes"
	"encoding/xml"
	"fmt"

	"github.com/toolctl/toolctl/pkg/diag"
)

// JUnit XML as CI dashboards read it: a suite per file, a failing test case
// per finding, one passing case for a clean file.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(b *bytes.Buffer, findings []diag.Diagnostic, sum Summary, opt Options) error {
	byFile := map[string][]diag.Diagnostic{}
	for _, f := range findings {
		byFile[f.File] = append(byFile[f.File], f)
	}
	out := junitSuites{Name: "toolctl lint"}
	for _, file := range fileOrder(sum, findings) {
		name := relPath(opt.Root, file)
		suite := junitSuite{Name: name}
		for _, f := range byFile[file] {
			caseName, loc := f.Rule, name
			if caseName == "" { // a problem no rule names (a syntax error)
				caseName = f.Severity.String()
			}
			if opt.ToolPointers && f.Tool != "" {
				caseName += fmt.Sprintf(" in tool %q", f.Tool)
				if f.Pointer != "" {
					caseName += " (" + f.Pointer + ")"
				}
			}
			if hasPos(f.Span) {
				at := fmt.Sprintf("%d:%d", f.Span.Start.Line, f.Span.Start.Col)
				caseName += " at " + at
				loc += ":" + at
			}
			suite.Cases = append(suite.Cases, junitCase{
				Name:      caseName,
				Classname: name,
				Failure: &junitFailure{
					Message: f.Message,
					Type:    f.Severity.String(),
					Text:    loc + ": " + f.Message,
				},
			})
		}
		suite.Failures = len(suite.Cases)
		if len(suite.Cases) == 0 {
			suite.Cases = []junitCase{{Name: "lint", Classname: name}}
		}
		suite.Tests = len(suite.Cases)
		out.Tests += suite.Tests
		out.Failures += suite.Failures
		out.Suites = append(out.Suites, suite)
	}
	data, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JUnit XML: %w", err)
	}
	b.WriteString(xml.Header)
	b.Write(data)
	b.WriteString("\n")
	return nil
}
