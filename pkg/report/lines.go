package report

import (
	"bytes"
	"io"

	"github.com/toolctl/toolctl/pkg/diag"
)

// WriteLines writes one line per diagnostic, "FILE:LINE:COL: severity:
// message [rule]" (no brackets without a rule), with no source excerpt
// and no summary: the form of the problems that stop a command (a file
// that does not load, fmt, import, export --strict). With color, an
// error's "error:" is red; other severities stay plain.
func WriteLines(w io.Writer, ds []*diag.Diagnostic, color bool) error {
	var b bytes.Buffer
	st := newTextStyles(&b, color)
	for _, d := range ds {
		sev := d.Severity.String() + ":"
		if d.Severity == diag.Error && color {
			sev = st.err.Render(sev)
		}
		b.WriteString(d.Where())
		b.WriteString(": ")
		b.WriteString(sev)
		b.WriteString(" ")
		b.WriteString(d.Message)
		if d.Rule != "" {
			b.WriteString(" [" + d.Rule + "]")
		}
		b.WriteString("\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}
