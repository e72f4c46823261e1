package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/toolctl/toolctl/pkg/run"
	"gopkg.in/yaml.v3"
)

// MaxCassetteSize bounds a cassette file: a larger one is not replayed,
// and a recording that would grow past it fails. Every message in it is
// bounded already (an HTTP body by the runner's limit, an MCP message by
// the SDK's line limit); this bounds their number.
const MaxCassetteSize = 64 << 20

// cassetteLimit is MaxCassetteSize; tests lower it.
var cassetteLimit = MaxCassetteSize

// mcpCassetteVersion is the version of the MCP cassette format.
const mcpCassetteVersion = 1

// mcpCassetteFile is an mcp tool's cassette: the JSON-RPC exchanges of its
// calls of the upstream server, each JSON text kept as it came (compacted,
// secrets redacted).
type mcpCassetteFile struct {
	Version int           `yaml:"version"`
	Tool    string        `yaml:"tool"`
	MCP     []mcpExchange `yaml:"mcp"`
}

// mcpExchange is a request the client sent and the server's answer:
// result or error. initialize keeps no params (they name the client's
// version, which is not the server's business on replay).
type mcpExchange struct {
	Method string `yaml:"method"`
	Params string `yaml:"params,omitempty"`
	Result string `yaml:"result,omitempty"`
	Error  string `yaml:"error,omitempty"`
}

func (x mcpExchange) size() int {
	return len(x.Method) + len(x.Params) + len(x.Result) + len(x.Error)
}

// mcpCassette records a tool's mcp calls (the tap of every real
// connection) or replays them (a stand-in for the server that answers each
// request with the recorded answer to the same request): run.MCPWire.
type mcpCassette struct {
	path      string
	tool      string
	secrets   *run.Secrets
	replaying bool

	mu        sync.Mutex
	exchanges []mcpExchange
	used      []bool
	size      int
	err       error     // recording: the first failure
	mismatch  *Mismatch // replay: the first request not in the cassette since takeMismatch
}

// Mismatch is a request a replayed cassette holds no recording of.
type Mismatch struct {
	Message string
	// Diffs are the differences from the nearest recorded request.
	Diffs []Diff
}

func (m *Mismatch) Error() string { return m.Message }

func (c *mcpCassette) Replaying() bool { return c.replaying }

func (c *mcpCassette) Session(run.MCPServer) (io.ReadWriteCloser, func(bool, []byte)) {
	if c.replaying {
		s := &standIn{c: c}
		s.cond = sync.NewCond(&s.mu)
		return s, nil
	}
	rec := &mcpSessionRecorder{c: c, pending: map[string]mcpExchange{}}
	return nil, rec.observe
}

// loadMCPCassette reads the cassette at path.
func loadMCPCassette(path, tool string, secrets *run.Secrets) (*mcpCassette, error) {
	data, err := readCassette(path)
	if err != nil {
		return nil, err
	}
	var f mcpCassetteFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("cassette %s: %v; record it again with toolctl test --record", path, err)
	}
	if f.Version != mcpCassetteVersion || f.MCP == nil {
		return nil, fmt.Errorf("cassette %s is not an MCP cassette of version %d (recorded for another entry type, or by another toolctl?); record it again with toolctl test --record", path, mcpCassetteVersion)
	}
	for i := range f.MCP {
		x := &f.MCP[i]
		for _, field := range []struct {
			name string
			text *string
		}{{"params", &x.Params}, {"result", &x.Result}, {"error", &x.Error}} {
			if *field.text == "" {
				continue
			}
			if !json.Valid([]byte(*field.text)) {
				return nil, fmt.Errorf("cassette %s: mcp[%d] (%s): %s is not JSON; record it again with toolctl test --record", path, i, x.Method, field.name)
			}
			*field.text = compactJSON(json.RawMessage(*field.text)) // one line: the stand-in answers a line a message
		}
		if x.Method == "" {
			return nil, fmt.Errorf("cassette %s: mcp[%d] has no method; record it again with toolctl test --record", path, i)
		}
	}
	return &mcpCassette{path: path, tool: tool, secrets: secrets, replaying: true, exchanges: f.MCP, used: make([]bool, len(f.MCP))}, nil
}

// readCassette reads a cassette file, refusing one over MaxCassetteSize.
func readCassette(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(cassetteLimit)+1))
	if err != nil {
		return nil, fmt.Errorf("cassette %s: %w", path, err)
	}
	if len(data) > cassetteLimit {
		return nil, fmt.Errorf("cassette %s is larger than %d MB; record fewer or smaller calls, or run with --live", path, MaxCassetteSize>>20)
	}
	return data, nil
}

// save writes a recorded cassette.
func (c *mcpCassette) save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	f := mcpCassetteFile{Version: mcpCassetteVersion, Tool: c.tool, MCP: c.exchanges}
	if f.MCP == nil {
		f.MCP = []mcpExchange{}
	}
	var b bytes.Buffer
	b.WriteString("# toolctl test --record: the MCP messages of " + c.tool + "'s calls, secrets redacted as ***.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&f); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(c.path, b.Bytes(), 0o644)
}

// wireMessage is a JSON-RPC message as the cassette reads it.
type wireMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// wireMessages decodes a message or a batch.
func wireMessages(data []byte) []wireMessage {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if data[0] == '[' {
		var batch []wireMessage
		if json.Unmarshal(data, &batch) != nil {
			return nil
		}
		return batch
	}
	var m wireMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return []wireMessage{m}
}

func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// mcpSessionRecorder pairs the requests of one connection with their
// answers.
type mcpSessionRecorder struct {
	c       *mcpCassette
	mu      sync.Mutex
	pending map[string]mcpExchange // by request id
}

func (r *mcpSessionRecorder) observe(sent bool, data []byte) {
	for _, m := range wireMessages(data) {
		if len(m.ID) == 0 || string(m.ID) == "null" {
			continue // notifications are not answered
		}
		id := compactJSON(m.ID)
		switch {
		case sent && m.Method != "":
			x := mcpExchange{Method: m.Method}
			if m.Method != "initialize" {
				x.Params = r.c.secrets.Redact(compactJSON(m.Params))
			}
			r.mu.Lock()
			r.pending[id] = x
			r.mu.Unlock()
		case !sent && m.Method == "":
			r.mu.Lock()
			x, ok := r.pending[id]
			delete(r.pending, id)
			r.mu.Unlock()
			if !ok {
				continue
			}
			x.Result = r.c.secrets.Redact(compactJSON(m.Result))
			x.Error = r.c.secrets.Redact(compactJSON(m.Error))
			r.c.add(x)
		}
	}
}

// add records x once.
func (c *mcpCassette) add(x mcpExchange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	for _, y := range c.exchanges {
		if y == x {
			return
		}
	}
	if c.size+x.size() > cassetteLimit {
		c.err = fmt.Errorf("cassette %s: the recorded MCP messages exceed %d MB; record fewer or smaller calls (--run)", c.path, MaxCassetteSize>>20)
		return
	}
	c.size += x.size()
	c.exchanges = append(c.exchanges, x)
}

// answer finds the recorded answer to a request: the first unused
// exchange of the same method and params (initialize: of the same
// method), else the last used one (a replay answers the same again).
func (c *mcpCassette) answer(method string, params json.RawMessage) (mcpExchange, *Mismatch) {
	var live any
	if method != "initialize" {
		live = parseParams(c.secrets.Redact(compactJSON(params)))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	found := -1
	for i, x := range c.exchanges {
		if x.Method != method {
			continue
		}
		if method != "initialize" && len(Compare(parseParams(x.Params), live, true, 0)) > 0 {
			continue
		}
		if !c.used[i] {
			found = i
			break
		}
		found = i
	}
	if found >= 0 {
		c.used[found] = true
		return c.exchanges[found], nil
	}
	m := c.mismatchOf(method, live)
	if c.mismatch == nil {
		c.mismatch = m
	}
	return mcpExchange{}, m
}

// mismatchOf says that a request is not in the cassette, with its
// differences from the nearest recorded one: of the same method (for
// tools/call, of the same tool).
func (c *mcpCassette) mismatchOf(method string, live any) *Mismatch {
	m := &Mismatch{}
	var near *mcpExchange
	name := paramName(live)
	for i := range c.exchanges {
		x := &c.exchanges[i]
		if x.Method != method {
			continue
		}
		if near == nil || paramName(parseParams(x.Params)) == name && paramName(parseParams(near.Params)) != name {
			near = x
		}
	}
	what := method
	if name != "" {
		what = fmt.Sprintf("%s %q", method, name)
	}
	m.Message = fmt.Sprintf("%s: %s with params %s matches no recorded request in %s (the tool's request changed?); record it again with toolctl test --record, or run with --live", ErrCassetteMismatch, what, jsonText(live), c.path)
	if near != nil {
		m.Message += "; the differences from the nearest recorded request:"
		m.Diffs = Compare(parseParams(near.Params), live, true, 0)
		for i := range m.Diffs {
			m.Diffs[i].Path = "params" + m.Diffs[i].Path[1:]
		}
	}
	return m
}

// takeMismatch returns, and forgets, the first request not found since
// the last call.
func (c *mcpCassette) takeMismatch() *Mismatch {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.mismatch
	c.mismatch = nil
	return m
}

func parseParams(s string) any {
	if s == "" {
		return nil
	}
	v, err := decodeJSON([]byte(s))
	if err != nil {
		return s
	}
	return v
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// paramName is params.name (a tools/call's tool), "" without one.
func paramName(params any) string {
	if m, ok := params.(map[string]any); ok {
		if s, ok := m["name"].(string); ok {
			return s
		}
	}
	return ""
}

// mismatchCode is the JSON-RPC error code of a request not in the
// cassette.
const mismatchCode = -32099

// standIn answers one connection's requests from the cassette: the
// client writes JSON-RPC lines to it and reads the answers.
type standIn struct {
	c *mcpCassette

	mu     sync.Mutex
	cond   *sync.Cond
	line   []byte // the client's incomplete line
	out    []byte // answers not read yet
	closed bool
}

func (s *standIn) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, io.ErrClosedPipe
	}
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if len(s.line)+len(rest) > maxStandInLine {
				return 0, errors.New("a JSON-RPC message longer than the SDK's line limit")
			}
			s.line = append(s.line, rest...)
			break
		}
		s.line = append(s.line, rest[:i]...)
		rest = rest[i+1:]
		for _, m := range wireMessages(s.line) {
			s.handle(m)
		}
		s.line = s.line[:0]
	}
	s.cond.Broadcast()
	return len(p), nil
}

// maxStandInLine bounds a message the client writes (as the SDK bounds a
// line it reads).
const maxStandInLine = 10 << 20

// handle answers a request; notifications and answers to the server's
// requests (it sends none) go nowhere.
func (s *standIn) handle(m wireMessage) {
	if m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return
	}
	x, miss := s.c.answer(m.Method, m.Params)
	var resp []byte
	switch {
	case miss != nil:
		e, _ := json.Marshal(map[string]any{"code": mismatchCode, "message": miss.Message})
		resp = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":%s}`, m.ID, e)
	case x.Error != "":
		resp = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":%s}`, m.ID, x.Error)
	default:
		result := x.Result
		if result == "" {
			result = "{}"
		}
		resp = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}
	s.out = append(append(s.out, resp...), '\n')
}

func (s *standIn) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.out) == 0 && !s.closed {
		s.cond.Wait()
	}
	if len(s.out) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}

func (s *standIn) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cond.Broadcast()
	return nil
}
