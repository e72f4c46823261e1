package run

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"
)

// Progress is a tool's report of how far a call has come: Progress of
// Total (0: unknown), with an optional message (MCP notifications/progress).
type Progress struct {
	Progress float64
	Total    float64
	Message  string
}

// LogMessage is a log message a tool sends during a call (MCP
// notifications/message): a level of LogLevels, an optional logger name
// and the data (the message text, or an object with "message" and "data").
type LogMessage struct {
	Level  string
	Logger string
	Data   any
}

// LogLevels are the MCP (syslog) levels, lowest first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogLevel returns the index of level in LogLevels, -1 if it is none.
func LogLevel(level string) int {
	for i, l := range LogLevels {
		if l == level {
			return i
		}
	}
	return -1
}

// Reporter receives what a tool reports while it runs. serve forwards it
// as MCP notifications, toolctl run shows it on stderr. Its methods may be
// called from any goroutine, but not concurrently for one call.
type Reporter interface {
	Progress(Progress)
	Log(LogMessage)
}

type reporterKey struct{}

// WithReporter returns ctx carrying r: Runner.Run hands what the call's
// tool reports to r.
func WithReporter(ctx context.Context, r Reporter) context.Context {
	return context.WithValue(ctx, reporterKey{}, r)
}

func reporterFrom(ctx context.Context) Reporter {
	r, _ := ctx.Value(reporterKey{}).(Reporter)
	return r
}

// Bounds on what one call may report: a tool that loops on ctx.log must
// not flood the client.
const (
	maxNotices    = 10000
	maxNoticeSize = 64 << 10
)

// notices is a call's reporter, with the bounds and the redaction.
type notices struct {
	to      Reporter
	secrets *Secrets
	n       atomic.Int64
	last    atomic.Uint64 // math.Float64bits of the last progress
	hasLast atomic.Bool
}

// admit counts a notice and tells whether it may go out.
func (n *notices) admit() bool {
	return n != nil && n.to != nil && n.n.Add(1) <= maxNotices
}

// progress reports p; a value lower than the last is raised to it (MCP:
// "the progress value MUST increase with each notification").
func (c *Call) progress(p Progress) {
	n := c.notices
	if math.IsNaN(p.Progress) || math.IsInf(p.Progress, 0) || !n.admit() {
		return
	}
	if last := math.Float64frombits(n.last.Load()); n.hasLast.Load() && p.Progress < last {
		p.Progress = last
	}
	n.last.Store(math.Float64bits(p.Progress))
	n.hasLast.Store(true)
	if math.IsNaN(p.Total) || math.IsInf(p.Total, 0) || p.Total < 0 {
		p.Total = 0
	}
	p.Message = n.secrets.Redact(clip(p.Message))
	n.to.Progress(p)
}

// log reports m; an unknown level is "info".
func (c *Call) log(m LogMessage) {
	n := c.notices
	if !n.admit() {
		return
	}
	m.Level = strings.ToLower(m.Level)
	if m.Level == "warn" {
		m.Level = "warning"
	}
	if LogLevel(m.Level) < 0 {
		m.Level = "info"
	}
	m.Logger = clip(m.Logger)
	if data, err := json.Marshal(m.Data); err != nil || len(data) > maxNoticeSize {
		m.Data = fmt.Sprintf("[log data of %s omitted: more than %s]", ByteSize(len(data)), ByteSize(maxNoticeSize))
	}
	m.Data = n.secrets.RedactValue(m.Data)
	m.Logger = n.secrets.Redact(m.Logger)
	n.to.Log(m)
}

// logData is the data of a log message with text and optional data.
func logData(message string, data any) any {
	if data == nil {
		return message
	}
	if message == "" {
		return data
	}
	return map[string]any{"message": message, "data": data}
}

// decodeExact decodes JSON with numbers as json.Number, so that a
// tool's figures reach the client as written.
func decodeExact(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

func clip(s string) string {
	if len(s) <= maxNoticeSize {
		return s
	}
	cut := maxNoticeSize
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// NoticePrefix starts a line a command or python tool writes on stderr to
// report progress or a log message (README "Rich results"): the rest of
// the line is a JSON object, {"progress": 3, "total": 10, "message": "…"}
// or {"log": "info", "message": "…", "data": …, "logger": "…"}. Such
// lines are taken out of stderr; any other line passes through.
const NoticePrefix = "##toolctl "

// noticeFilter passes a subprocess's stderr on to next, taking out the
// notice lines. A line is held back only while it may still be one.
type noticeFilter struct {
	c    *Call
	next io.Writer
	held []byte // the start of a line that may be a notice
	pass bool   // the rest of the current line passes through
	// answers takes the requests to the client ("ask") and writes the
	// answers back; nil: such lines are not notices.
	answers *askPipe
}

// maxNoticeLine bounds a notice line held back: a request to the client
// may be as large as its params may be.
const maxNoticeLine = maxAskParams + 64<<10

func newNoticeFilter(c *Call, next io.Writer) *noticeFilter {
	return &noticeFilter{c: c, next: next}
}

func (f *noticeFilter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if f.pass {
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				_, _ = f.next.Write(p)
				return n, nil
			}
			_, _ = f.next.Write(p[:i+1])
			p, f.pass = p[i+1:], false
			continue
		}
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i+1]
		}
		f.held = append(f.held, chunk...)
		p = p[len(chunk):]
		line := f.held
		maybe := bytes.HasPrefix(line, []byte(NoticePrefix)) || bytes.HasPrefix([]byte(NoticePrefix), bytes.TrimSuffix(line, []byte("\n")))
		if !maybe || len(line) > maxNoticeLine {
			_, _ = f.next.Write(line)
			f.held = f.held[:0]
			f.pass = i < 0
			continue
		}
		if i < 0 {
			return n, nil // wait for the rest of the line
		}
		if !bytes.HasPrefix(line, []byte(NoticePrefix)) || !f.notice(bytes.TrimRight(line[len(NoticePrefix):], "\r\n")) {
			_, _ = f.next.Write(line)
		}
		f.held = f.held[:0]
	}
	return n, nil
}

// Flush passes on a last line without its newline.
func (f *noticeFilter) Flush() {
	if len(f.held) > 0 {
		_, _ = f.next.Write(f.held)
		f.held = f.held[:0]
	}
}

// askPipe answers a process's requests to the client on its stdin, one
// line each, in order.
type askPipe struct {
	c     *Call
	ctx   context.Context // ends when the process is gone
	mu    sync.Mutex
	w     io.Writer
	nonce string // in every request of the process's own: a line the tool prints cannot be one
}

// askNonce is a fresh unguessable nonce for a process's requests.
func askNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (a *askPipe) answer(method string, params json.RawMessage) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var ans struct {
		Result json.RawMessage `json:"result,omitempty"`
		Error  string          `json:"error,omitempty"`
	}
	res, err := a.c.ask(a.ctx, method, params)
	if err != nil {
		ans.Error = err.Error()
	} else {
		ans.Result = res
	}
	line, err := json.Marshal(ans)
	if err != nil {
		line, _ = json.Marshal(map[string]string{"error": "the client's answer is not JSON"})
	}
	_, _ = a.w.Write(append(line, '\n'))
}

// notice reports one notice line's JSON; false when it is not one.
func (f *noticeFilter) notice(line []byte) bool {
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var m struct {
		Progress *float64 `json:"progress"`
		Total    float64  `json:"total"`
		Message  string   `json:"message"`
		Log      string   `json:"log"`
		Logger   string   `json:"logger"`
		Data     any      `json:"data"`
		Nonce    string   `json:"nonce"`
		Ask      *struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		} `json:"ask"`
	}
	if decodeExact(line, &m) != nil {
		return false
	}
	// A process with a nonce (python's runner) marks its own notices with
	// it: a line the tool prints, text from its input say, is plain stderr.
	if f.answers != nil && subtle.ConstantTimeCompare([]byte(m.Nonce), []byte(f.answers.nonce)) != 1 {
		return false
	}
	switch {
	case m.Ask != nil && f.answers != nil:
		go f.answers.answer(m.Ask.Method, m.Ask.Params)
	case m.Progress != nil:
		f.c.progress(Progress{Progress: *m.Progress, Total: m.Total, Message: m.Message})
	case m.Log != "":
		f.c.log(LogMessage{Level: m.Log, Logger: m.Logger, Data: logData(m.Message, m.Data)})
	default:
		return false
	}
	return true
}
