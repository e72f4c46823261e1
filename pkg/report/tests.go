package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
)

// TestCase is one test's outcome (toolctl test: one example of a tool).
type TestCase struct {
	// Suite groups cases (the tool's name); Name is the case (TOOL/SCENARIO).
	Suite, Name string
	File        string
	Pos         diag.Pos
	// Status is "ok", "FAIL" or "skip".
	Status string
	// Message is why it failed or was skipped; Detail the diff.
	Message, Detail string
	Seconds         float64
}

// TestFormats are the formats WriteTests renders; text is the caller's
// (it streams like go test).
var TestFormats = []string{"json", "junit", "github", "sarif"}

// WriteTests renders test cases in format: json and junit list every
// case (junit: a testcase per case, in a testsuite per Suite), github and
// sarif the failures, as diagnostics of rule ruleID.
func WriteTests(w io.Writer, format, ruleID string, cases []TestCase, opt Options) error {
	var buf bytes.Buffer
	switch format {
	case "json":
		type jsonCase struct {
			Suite   string  `json:"tool"`
			Name    string  `json:"name"`
			File    string  `json:"file"`
			Line    int     `json:"line,omitempty"`
			Column  int     `json:"column,omitempty"`
			Status  string  `json:"status"`
			Message string  `json:"message,omitempty"`
			Diff    string  `json:"diff,omitempty"`
			Seconds float64 `json:"seconds"`
		}
		out := struct {
			Cases []jsonCase `json:"cases"`
		}{Cases: make([]jsonCase, 0, len(cases))}
		for _, c := range cases {
			out.Cases = append(out.Cases, jsonCase{c.Suite, c.Name, relPath(opt.Root, c.File), c.Pos.Line, c.Pos.Col, c.Status, c.Message, c.Detail, c.Seconds})
		}
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	case "junit":
		type skipped struct {
			Message string `xml:"message,attr"`
		}
		type tcase struct {
			Name      string        `xml:"name,attr"`
			Classname string        `xml:"classname,attr"`
			File      string        `xml:"file,attr,omitempty"`
			Line      int           `xml:"line,attr,omitempty"`
			Time      string        `xml:"time,attr"`
			Failure   *junitFailure `xml:"failure"`
			Skipped   *skipped      `xml:"skipped"`
		}
		type suite struct {
			Name     string  `xml:"name,attr"`
			Tests    int     `xml:"tests,attr"`
			Failures int     `xml:"failures,attr"`
			Skipped  int     `xml:"skipped,attr"`
			Cases    []tcase `xml:"testcase"`
		}
		out := struct {
			XMLName  xml.Name `xml:"testsuites"`
			Name     string   `xml:"name,attr"`
			Tests    int      `xml:"tests,attr"`
			Failures int      `xml:"failures,attr"`
			Skipped  int      `xml:"skipped,attr"`
			Suites   []*suite `xml:"testsuite"`
		}{Name: "toolctl test"}
		index := map[string]*suite{}
		for _, c := range cases {
			s := index[c.Suite]
			if s == nil {
				s = &suite{Name: c.Suite}
				index[c.Suite] = s
				out.Suites = append(out.Suites, s)
			}
			file := relPath(opt.Root, c.File)
			tc := tcase{Name: c.Name, Classname: c.Suite, File: file, Line: c.Pos.Line, Time: fmt.Sprintf("%.3f", c.Seconds)}
			switch c.Status {
			case "FAIL":
				text := diag.Where(file, c.Pos) + ": " + c.Message
				if c.Detail != "" {
					text += "\n" + c.Detail
				}
				tc.Failure = &junitFailure{Message: c.Message, Type: "failure", Text: text}
				s.Failures++
				out.Failures++
			case "skip":
				tc.Skipped = &skipped{Message: c.Message}
				s.Skipped++
				out.Skipped++
			}
			s.Cases = append(s.Cases, tc)
			s.Tests++
			out.Tests++
		}
		data, err := xml.MarshalIndent(out, "", "  ")
		if err != nil {
			return fmt.Errorf("encoding JUnit XML: %w", err)
		}
		buf.WriteString(xml.Header)
		buf.Write(data)
		buf.WriteString("\n")
	case "github", "sarif":
		var ds []diag.Diagnostic
		var files []string
		seen := map[string]bool{}
		for _, c := range cases {
			if !seen[c.File] {
				seen[c.File] = true
				files = append(files, c.File)
			}
			if c.Status != "FAIL" {
				continue
			}
			msg := c.Name + ": " + c.Message
			if c.Detail != "" {
				msg += "\n" + strings.TrimRight(c.Detail, "\n")
			}
			ds = append(ds, diag.Diagnostic{File: c.File, Span: diag.At(c.Pos), Severity: diag.Error, Rule: ruleID, Message: msg, Tool: c.Suite})
		}
		return Write(w, format, ds, Summary{Files: files}, opt)
	default:
		return fmt.Errorf("unknown report format %q; use text or one of: %s", format, strings.Join(TestFormats, ", "))
	}
	_, err := w.Write(buf.Bytes())
	return err
}
