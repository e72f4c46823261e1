package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"
)

// CassetteMode says what toolctl test does with the cassettes of http
// tools.
type CassetteMode int

const (
	// Replay replays a tool's cassette when it has one, and calls the
	// network otherwise (the default).
	Replay CassetteMode = iota
	// Record calls the network and (re)writes every http tool's cassette.
	Record
	// Live ignores cassettes.
	Live
)

// CassettePath is where the cassette of t is: testdata/NAME.cassette.yaml
// beside the tool file.
func CassettePath(t *spec.Tool) string {
	return filepath.Join(filepath.Dir(t.Path()), "testdata", t.Name+".cassette.yaml")
}

// Recordable tells whether t's calls can be recorded: an http entry and
// the http_request builtin (the runner's HTTP client), an mcp entry (the
// messages of its client).
func Recordable(t *spec.Tool) bool {
	if t.Entry == nil {
		return false
	}
	k := t.Entry.Kind()
	return k == spec.EntryHTTP || k == "builtin" && t.Entry.Handler == "http_request" || k == spec.EntryMCP
}

// Cassette is a tool's open cassette.
type Cassette struct {
	// Client is the HTTP client the tool's runner uses (nil for an mcp
	// entry).
	Client *http.Client
	// Wire records or replays an mcp entry's calls (nil for http).
	Wire run.MCPWire
	// Getenv is the environment the tool runs with: on replay a secret
	// that is not set reads as a placeholder, so that CI needs none.
	Getenv func(string) string
	// Replaying tells whether responses come from the cassette.
	Replaying bool
	rec       *recorder.Recorder
	path      string
	mcp       *mcpCassette
	http      *mismatch
}

// Stop writes a recorded cassette.
func (c *Cassette) Stop() error {
	var err error
	switch {
	case c.mcp != nil && !c.Replaying:
		err = c.mcp.save()
	case c.rec != nil:
		err = c.rec.Stop()
		if err == nil && !c.Replaying {
			err = c.checkSize()
		}
	}
	if err != nil {
		return fmt.Errorf("writing the cassette: %w", err)
	}
	return nil
}

// checkSize removes a recorded HTTP cassette larger than a replay reads
// (go-vcr writes it whole).
func (c *Cassette) checkSize() error {
	info, err := os.Stat(c.path)
	if err != nil || info.Size() <= int64(cassetteLimit) {
		return nil
	}
	os.Remove(c.path)
	return fmt.Errorf("cassette %s: the recorded HTTP exchanges exceed %d MB; record fewer or smaller calls (--run)", c.path, MaxCassetteSize>>20)
}

// TakeMismatch returns, and forgets, the first request since the last
// call that the replayed cassette holds no recording of: the example
// fails with it, whatever else the call did (a negative example does not
// pass on it).
func (c *Cassette) TakeMismatch() *Mismatch {
	switch {
	case c.mcp != nil:
		return c.mcp.takeMismatch()
	case c.http != nil:
		return c.http.take()
	}
	return nil
}

// placeholder is the value an unset secret has on replay.
const placeholder = "toolctl-replay-secret"

// OpenCassette opens t's cassette in mode: nil when there is none to use
// (Live, or Replay without a cassette file). Secrets (the tool's bound env
// variables and ${VAR}s) are redacted in everything the cassette stores.
// An HTTP request matches a recorded one when its method, URL and body are
// the same once redacted alike; an MCP request when its method and params
// are (initialize: its method).
func OpenCassette(t *spec.Tool, mode CassetteMode, getenv func(string) string) (*Cassette, error) {
	return openCassette(t, mode, getenv, nil)
}

// openCassette is OpenCassette with the transport recorded HTTP requests
// go to (nil: http.DefaultTransport).
func openCassette(t *spec.Tool, mode CassetteMode, getenv func(string) string, real http.RoundTripper) (*Cassette, error) {
	if mode == Live || !Recordable(t) {
		return nil, nil
	}
	path := CassettePath(t)
	replaying := mode != Record
	if replaying {
		if _, err := os.Stat(path); err != nil {
			return nil, nil
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	vars := secretVars(t)
	env := getenv
	if replaying {
		env = func(k string) string {
			v := getenv(k)
			if v == "" && vars[k] {
				return placeholder
			}
			return v
		}
	}
	secrets := &run.Secrets{}
	for v := range vars {
		if s := env(v); s != "" {
			secrets.Add(s)
		}
	}
	if t.Entry.Kind() == spec.EntryMCP {
		mc := &mcpCassette{path: path, tool: t.Name, secrets: secrets}
		if replaying {
			var err error
			if mc, err = loadMCPCassette(path, t.Name, secrets); err != nil {
				return nil, err
			}
		}
		return &Cassette{Wire: mc, Getenv: env, Replaying: replaying, mcp: mc}, nil
	}
	return openHTTPCassette(path, replaying, env, secrets, real)
}

func openHTTPCassette(path string, replaying bool, env func(string) string, secrets *run.Secrets, real http.RoundTripper) (*Cassette, error) {
	name := strings.TrimSuffix(path, ".yaml")
	vcrMode := recorder.ModeRecordOnly
	if replaying {
		vcrMode = recorder.ModeReplayOnly
		// go-vcr reads the file whole: bound it first
		if _, err := readCassette(path); err != nil {
			return nil, err
		}
	}
	redact := func(i *cassette.Interaction) error {
		// replays skip the latency: a recorded one only makes a new
		// recording differ from the last
		i.Response.Duration = 0
		i.Request.URL = secrets.Redact(i.Request.URL)
		i.Request.Host = secrets.Redact(i.Request.Host)
		i.Request.RequestURI = secrets.Redact(i.Request.RequestURI)
		i.Request.Body = secrets.Redact(i.Request.Body)
		redactHeaders(secrets, i.Request.Headers)
		redactHeaders(secrets, i.Response.Headers)
		i.Response.Body = secrets.Redact(i.Response.Body)
		for k, vs := range i.Request.Form {
			for j := range vs {
				vs[j] = secrets.Redact(vs[j])
			}
			i.Request.Form[k] = vs
		}
		return nil
	}
	match := func(r *http.Request, i cassette.Request) bool {
		if r.Method != i.Method || secrets.Redact(r.URL.String()) != i.URL {
			return false
		}
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		return secrets.Redact(string(body)) == i.Body
	}
	if real == nil {
		real = http.DefaultTransport
	}
	rec, err := recorder.New(name,
		recorder.WithRealTransport(&limitBodies{rt: real}),
		recorder.WithMode(vcrMode),
		recorder.WithMatcher(match),
		recorder.WithHook(redact, recorder.BeforeSaveHook),
		recorder.WithReplayableInteractions(true),
		recorder.WithSkipRequestLatency(true),
	)
	if err != nil {
		return nil, fmt.Errorf("cassette %s: %w; record it again with toolctl test --record", path, err)
	}
	mm := &mismatch{rt: rec, path: path, secrets: secrets}
	client := &http.Client{Transport: mm}
	return &Cassette{Client: client, Getenv: env, Replaying: replaying, rec: rec, path: path, http: mm}, nil
}

func redactHeaders(s *run.Secrets, h http.Header) {
	for k, vs := range h {
		for j := range vs {
			vs[j] = s.Redact(vs[j])
		}
		h[k] = vs
	}
}

// limitBodies bounds a recorded response body (go-vcr reads it whole) to
// one byte more than the runner reads, so that the runner's own limit
// still fails the call.
type limitBodies struct{ rt http.RoundTripper }

func (l *limitBodies) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(r)
	if err == nil && resp.Body != nil {
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.LimitReader(resp.Body, run.HTTPMaxBody+1), resp.Body}
	}
	return resp, err
}

// mismatch words a replayed request that the cassette does not hold.
type mismatch struct {
	rt      http.RoundTripper
	path    string
	secrets *run.Secrets

	mu    sync.Mutex
	first *Mismatch
}

// ErrCassetteMismatch is a request a replayed cassette has no recording of.
var ErrCassetteMismatch = errors.New("request not in the cassette")

func (m *mismatch) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := m.rt.RoundTrip(r)
	if errors.Is(err, cassette.ErrInteractionNotFound) {
		err = fmt.Errorf("%w: %s %s matches no recorded request in %s (the tool's request changed?); record it again with toolctl test --record, or run with --live", ErrCassetteMismatch, r.Method, m.secrets.Redact(r.URL.String()), m.path)
		m.mu.Lock()
		if m.first == nil {
			m.first = &Mismatch{Message: err.Error()}
		}
		m.mu.Unlock()
		return nil, err
	}
	return resp, err
}

func (m *mismatch) take() *Mismatch {
	m.mu.Lock()
	defer m.mu.Unlock()
	f := m.first
	m.first = nil
	return f
}

// secretVars are the environment variables t reads: bound ones and the
// ${VAR}s of its entry.
func secretVars(t *spec.Tool) map[string]bool {
	vars := map[string]bool{}
	for _, b := range t.Bind {
		if b.Kind == spec.BindEnv {
			vars[b.Ref] = true
		}
	}
	for _, s := range entryTexts(t.Entry) {
		for _, m := range envRef.FindAllStringSubmatch(s, -1) {
			vars[m[1]] = true
		}
	}
	return vars
}

func entryTexts(e *spec.Entry) []string {
	if e == nil {
		return nil
	}
	texts := []string{e.URL, e.Server, e.Code}
	for _, v := range []any{e.Headers, e.Query, e.Body} {
		if v != nil {
			texts = append(texts, asText(spec.Plain(v)))
		}
	}
	return append(texts, e.Command...)
}
