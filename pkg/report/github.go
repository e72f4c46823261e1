package report

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
)

// writeGitHub prints one GitHub Actions workflow command per finding, which
// the runner turns into an annotation on the file:
//
//	::error file=tools/x.yaml,line=3,col=7,endLine=3,endColumn=14,title=name-snake-case::message
func writeGitHub(b *bytes.Buffer, findings []diag.Diagnostic, opt Options) {
	for _, f := range findings {
		props := []string{"file=" + escapeProperty(relPath(opt.Root, f.File))}
		if hasPos(f.Span) {
			props = append(props, "line="+strconv.Itoa(f.Span.Start.Line))
			if f.Span.Start.Col > 0 {
				props = append(props, "col="+strconv.Itoa(f.Span.Start.Col))
				// The runner drops col and endColumn when line and endLine
				// differ, so a multi-line span keeps its start column
				// instead of its end line.
				if hasEnd(f.Span) && f.Span.End.Line == f.Span.Start.Line {
					props = append(props, "endLine="+strconv.Itoa(f.Span.End.Line), "endColumn="+strconv.Itoa(f.Span.End.Col))
				}
			}
		}
		if f.Rule != "" {
			props = append(props, "title="+escapeProperty(f.Rule))
		}
		b.WriteString("::" + githubCommand(f.Severity) + " " + strings.Join(props, ",") + "::" + escapeData(f.Message) + "\n")
	}
}

func githubCommand(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "notice"
}

// escapeData escapes a command's message as @actions/core does (escapeData
// in actions/toolkit's command.ts): a raw newline would end the command.
func escapeData(s string) string { return dataEscaper.Replace(s) }

// escapeProperty escapes a property value (escapeProperty in command.ts):
// also ':' and ',', which delimit properties.
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
