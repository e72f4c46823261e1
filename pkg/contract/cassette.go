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

// Recordable tells whether t's calls go through the runner's HTTP client
// (an http entry, the http_request builtin), which a cassette records.
func Recordable(t *spec.Tool) bool {
	if t.Entry == nil {
		return false
	}
	k := t.Entry.Kind()
	return k == spec.EntryHTTP || k == "builtin" && t.Entry.Handler == "http_request"
}

// Cassette is a tool's open cassette.
type Cassette struct {
	// Client is the HTTP client the tool's runner uses.
	Client *http.Client
	// Getenv is the environment the tool runs with: on replay a secret
	// that is not set reads as a placeholder, so that CI needs none.
	Getenv func(string) string
	// Replaying tells whether responses come from the cassette.
	Replaying bool
	rec       *recorder.Recorder
}

// Stop writes a recorded cassette.
func (c *Cassette) Stop() error {
	if err := c.rec.Stop(); err != nil {
		return fmt.Errorf("writing the cassette: %w", err)
	}
	return nil
}

// placeholder is the value an unset secret has on replay.
const placeholder = "toolctl-replay-secret"

// OpenCassette opens t's cassette in mode: nil when there is none to use
// (Live, or Replay without a cassette file). Secrets (the tool's bound env
// variables and ${VAR}s) are redacted in everything the cassette stores,
// and a request matches a recorded one when its method, URL and body are
// the same once redacted alike.
func OpenCassette(t *spec.Tool, mode CassetteMode, getenv func(string) string) (*Cassette, error) {
	if mode == Live || !Recordable(t) {
		return nil, nil
	}
	path := CassettePath(t)
	name := strings.TrimSuffix(path, ".yaml")
	var vcrMode recorder.Mode
	switch mode {
	case Record:
		vcrMode = recorder.ModeRecordOnly
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
	default:
		if _, err := os.Stat(path); err != nil {
			return nil, nil
		}
		vcrMode = recorder.ModeReplayOnly
	}
	vars := secretVars(t)
	env := getenv
	if vcrMode == recorder.ModeReplayOnly {
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
	redact := func(i *cassette.Interaction) error {
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
	rec, err := recorder.New(name,
		recorder.WithMode(vcrMode),
		recorder.WithMatcher(match),
		recorder.WithHook(redact, recorder.BeforeSaveHook),
		recorder.WithReplayableInteractions(true),
		recorder.WithSkipRequestLatency(true),
	)
	if err != nil {
		return nil, fmt.Errorf("cassette %s: %w", path, err)
	}
	client := &http.Client{Transport: &mismatch{rt: rec, path: path, secrets: secrets}}
	return &Cassette{Client: client, Getenv: env, Replaying: vcrMode == recorder.ModeReplayOnly, rec: rec}, nil
}

func redactHeaders(s *run.Secrets, h http.Header) {
	for k, vs := range h {
		for j := range vs {
			vs[j] = s.Redact(vs[j])
		}
		h[k] = vs
	}
}

// mismatch words a replayed request that the cassette does not hold.
type mismatch struct {
	rt      http.RoundTripper
	path    string
	secrets *run.Secrets
}

// ErrCassetteMismatch is a request a replayed cassette has no recording of.
var ErrCassetteMismatch = errors.New("request not in the cassette")

func (m *mismatch) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := m.rt.RoundTrip(r)
	if errors.Is(err, cassette.ErrInteractionNotFound) {
		return nil, fmt.Errorf("%w: %s %s matches no recorded request in %s (the tool's request changed?); record it again with toolctl test --record, or run with --live", ErrCassetteMismatch, r.Method, m.secrets.Redact(r.URL.String()), m.path)
	}
	return resp, err
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
