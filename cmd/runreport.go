package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/run"
)

// runReporter shows what a tool reports while toolctl run waits for it:
// progress as a bar on stderr when stderr is a terminal (nothing when it
// is piped: a log file must not fill with carriage returns), log messages
// on stderr with -v, one line each.
type runReporter struct {
	mu      sync.Mutex
	w       io.Writer
	tool    string
	bar     bool // stderr is a terminal
	verbose bool
	shown   bool // a bar is on the screen
}

// barWidth is the bar's width in cells.
const barWidth = 24

func (r *runReporter) Progress(p run.Progress) {
	if !r.bar {
		return
	}
	var line string
	if p.Total > 0 {
		frac := min(max(p.Progress/p.Total, 0), 1)
		n := int(frac * barWidth)
		line = fmt.Sprintf("%s [%s%s] %3.0f%%", r.tool, strings.Repeat("#", n), strings.Repeat("-", barWidth-n), frac*100)
	} else {
		line = fmt.Sprintf("%s %g", r.tool, p.Progress)
	}
	if p.Message != "" {
		line += " " + oneLine(p.Message, 60)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "\r\x1b[K%s", line)
	r.shown = true
}

func (r *runReporter) Log(m run.LogMessage) {
	if !r.verbose {
		return
	}
	text := logText(m.Data)
	who := r.tool
	if m.Logger != "" {
		who += "/" + oneLine(m.Logger, 100)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearLocked()
	fmt.Fprintf(r.w, "toolctl: %s: %s: %s\n", who, m.Level, oneLine(text, 2000))
}

// logText is a log message's data as a line: its text, then its data as
// JSON ({"message", "data"} is how ctx.log sends both).
func logText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if m, ok := v.(map[string]any); ok && len(m) == 2 {
		if msg, ok := m["message"].(string); ok {
			if _, ok := m["data"]; ok {
				return msg + " " + logText(m["data"])
			}
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// done takes the bar off the screen.
func (r *runReporter) done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearLocked()
}

func (r *runReporter) clearLocked() {
	if r.shown {
		fmt.Fprint(r.w, "\r\x1b[K")
		r.shown = false
	}
}

// oneLine is s on one line, cut to n bytes at most, with no control
// character (a tool's text must not drive the terminal).
func oneLine(s string, n int) string {
	s = run.Printable(strings.Join(strings.Fields(s), " "), false)
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
