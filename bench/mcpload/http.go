package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// loadHTTP is load over Streamable HTTP: the server is started with
// {port} replaced, initialized with one POST (and notifications/initialized;
// a session id it returns is sent on every request), then called.
func loadHTTP(o options, argv []string) (*Report, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	url := strings.ReplaceAll(o.http, "{port}", port)
	args := make([]string, len(argv))
	for i, a := range argv {
		args[i] = strings.ReplaceAll(a, "{port}", port)
	}
	cmd := exec.Command(args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	failed := func(err error) error {
		stop()
		return fmt.Errorf("%v\n%s", err, stderr.String())
	}

	// The handshake; the calls go over each caller's own connection
	// (callerConn).
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	h := &httpCaller{client: client, url: url}

	// The server is ready when initialize is answered.
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpload","version":"1.0.0"}}}`, o.protocol)
	var ir response
	deadline := time.Now().Add(30 * time.Second)
	for {
		body, hdr, status, err := h.post([]byte(init))
		if err == nil && status == http.StatusOK {
			if err := json.Unmarshal(body, &ir); err != nil {
				return nil, failed(fmt.Errorf("initialize: %v: %s", err, truncate(body)))
			}
			h.session = hdr.Get("Mcp-Session-Id")
			break
		}
		if err == nil {
			return nil, failed(fmt.Errorf("initialize: HTTP %d: %s", status, truncate(body)))
		}
		select {
		case err := <-exited:
			return nil, fmt.Errorf("the server exited before answering (%v)\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			return nil, failed(fmt.Errorf("initialize: no answer at %s in 30s: %v", url, err))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(ir.Error) > 0 {
		return nil, failed(fmt.Errorf("initialize: %s", ir.Error))
	}
	h.protocol = ir.Result.ProtocolVersion
	var info struct{ Name, Version string }
	json.Unmarshal(ir.Result.ServerInfo, &info)
	if _, _, status, err := h.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil || status != http.StatusAccepted {
		return nil, failed(fmt.Errorf("notifications/initialized: HTTP %d %v", status, err))
	}

	total := o.warmup + o.n
	prefix := []byte(`{"jsonrpc":"2.0","id":`)
	suffix := []byte(fmt.Sprintf(`,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, o.tool, o.args))
	var next atomic.Int64
	next.Store(1)
	lat := make([]time.Duration, total+2)
	var failures atomic.Int64
	var first, firstErr []byte
	var emu sync.Mutex
	var startMeasure time.Time
	var measureOnce sync.Once
	startMeasureAt := int64(o.warmup + 1)

	run := func() error {
		conn := h.conn()
		defer conn.close()
		buf := make([]byte, 0, len(prefix)+len(suffix)+20)
		for {
			id := next.Add(1)
			if id > int64(total+1) {
				return nil
			}
			if id == startMeasureAt {
				measureOnce.Do(func() { startMeasure, clientCPU0 = time.Now(), selfCPU() })
			}
			buf = append(strconv.AppendInt(append(buf[:0], prefix...), id, 10), suffix...)
			t0 := time.Now()
			body, _, status, err := conn.post(buf)
			if err != nil {
				return err
			}
			lat[id] = time.Since(t0)
			var r response
			ok := status == http.StatusOK && json.Unmarshal(body, &r) == nil && r.ID == id && len(r.Error) == 0 && !r.Result.IsError
			if id == 2 || !ok {
				emu.Lock()
				if id == 2 {
					first = body
				}
				if !ok && firstErr == nil {
					firstErr = append([]byte(fmt.Sprintf("HTTP %d: ", status)), body...)
				}
				emu.Unlock()
			}
			if !ok {
				failures.Add(1)
			}
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, o.c)
	for i := range o.c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run()
		}()
	}
	wg.Wait()
	end := time.Now()
	clientCPU = selfCPU() - clientCPU0
	if err := errors.Join(errs...); err != nil {
		return nil, failed(err)
	}
	if startMeasure.IsZero() {
		return nil, failed(errors.New("no call was measured"))
	}
	stop()
	return finish(o, cmd, lat, end.Sub(startMeasure), info.Name+" "+info.Version, h.protocol, int(failures.Load()), first, firstErr, &stderr), nil
}

// httpCaller posts JSON-RPC messages to a Streamable HTTP endpoint.
type httpCaller struct {
	client   *http.Client
	url      string
	session  string
	protocol string
}

// post sends one message and returns the JSON of the answer: the body of
// an application/json response, the first data of an event stream.
func (h *httpCaller) post(msg []byte) ([]byte, http.Header, int, error) {
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(msg))
	if err != nil {
		return nil, nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", h.protocol)
	}
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, nil, 0, err
	}
	body, err := readAnswer(resp)
	return body, resp.Header, resp.StatusCode, err
}

// readAnswer reads the JSON of the answer in resp (see post) and closes
// its body.
func readAnswer(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
				out := bytes.Clone(bytes.TrimSpace(data))
				io.Copy(io.Discard, resp.Body)
				return out, nil
			}
		}
		return nil, fmt.Errorf("an event stream without data")
	}
	return io.ReadAll(resp.Body)
}

// callerConn is one caller's keep-alive connection for the calls. It
// writes each request by hand and reads the response with
// http.ReadResponse on the caller's own goroutine: an http.Client hands
// every request and response between three goroutines (the caller and its
// Transport's write and read loops), which at thousands of calls a second
// costs the machine, shared with the server, more than the server's own
// HTTP stack does. The request is the one http.Client sends (the same
// headers but User-Agent), and a response that closes the connection
// makes the next call dial again.
type callerConn struct {
	h    *httpCaller
	host string
	path string
	c    net.Conn
	br   *bufio.Reader
	req  []byte
}

func (h *httpCaller) conn() *callerConn {
	u, err := neturl.Parse(h.url)
	if err != nil {
		panic(err) // the initialize POST to the same URL worked
	}
	return &callerConn{h: h, host: u.Host, path: u.RequestURI()}
}

func (c *callerConn) close() {
	if c.c != nil {
		c.c.Close()
		c.c = nil
	}
}

// post is httpCaller.post on this connection.
func (c *callerConn) post(msg []byte) ([]byte, http.Header, int, error) {
	if c.c == nil {
		conn, err := net.Dial("tcp", c.host)
		if err != nil {
			return nil, nil, 0, err
		}
		c.c, c.br = conn, bufio.NewReaderSize(conn, 16<<10)
	}
	r := append(c.req[:0], "POST "...)
	r = append(r, c.path...)
	r = append(r, " HTTP/1.1\r\nHost: "...)
	r = append(r, c.host...)
	r = append(r, "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"...)
	if c.h.protocol != "" {
		r = append(append(append(r, "Mcp-Protocol-Version: "...), c.h.protocol...), "\r\n"...)
	}
	if c.h.session != "" {
		r = append(append(append(r, "Mcp-Session-Id: "...), c.h.session...), "\r\n"...)
	}
	r = append(strconv.AppendInt(append(r, "Content-Length: "...), int64(len(msg)), 10), "\r\n\r\n"...)
	r = append(r, msg...)
	c.req = r
	if _, err := c.c.Write(r); err != nil {
		c.close()
		return nil, nil, 0, err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		c.close()
		return nil, nil, 0, err
	}
	body, err := readAnswer(resp)
	if err != nil || resp.Close {
		c.close()
	}
	return body, resp.Header, resp.StatusCode, err
}

// freePort asks the kernel for a free loopback port.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}
