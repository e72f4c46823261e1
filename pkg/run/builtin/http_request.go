package builtin

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The http_request builtin: one HTTP request described entirely by its
// parameters (tools/http_request.yaml). It shares SendHTTP with the http
// executor, so the result and the error kinds are the same.
//
// Unlike an http entry, nothing here is a template: the agent's values are
// sent as given, and ${ENV} is never expanded, or an agent could send any
// environment variable to any URL. The URL is the agent's by design, so the
// host checks of http entries do not apply: this tool reaches any host and
// port the machine can (loopback and private networks included), and its
// detail says so.

type httpRequest struct{}

// Networked: it sends a request.
func (httpRequest) Networked(*spec.Tool) bool { return true }

// Method is the method parameter, GET when it is left out.
func (httpRequest) Method(c *run.Call) string {
	m, _ := c.Input["method"].(string)
	if m == "" {
		return http.MethodGet
	}
	return m
}

// Plan is the request, for --dry-run.
func (httpRequest) Plan(c *run.Call) (any, error) {
	req, _, err := buildHTTPRequestCall(c)
	if err != nil {
		return nil, err
	}
	return req.Plan(), nil
}

func (httpRequest) Execute(ctx context.Context, c *run.Call) (any, error) {
	req, timeout, err := buildHTTPRequestCall(c)
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		// name the parameter in a timeout error only when it is the
		// deadline that can fire first
		if dl, ok := ctx.Deadline(); !ok || time.Now().Add(timeout).Before(dl) {
			req.TimeoutHint = fmt.Sprintf("the timeout parameter allowed %s; raise it", timeout)
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	resp, err := run.SendHTTP(ctx, c, req)
	if err != nil {
		return nil, err
	}
	return resp.Value(), nil
}

// buildHTTPRequestCall turns http_request's parameters into a request and
// the per-request timeout (0 for none).
func buildHTTPRequestCall(c *run.Call) (*run.HTTPRequest, time.Duration, error) {
	rawURL, err := c.String("url", "")
	if err != nil {
		return nil, 0, err
	}
	if rawURL == "" {
		return nil, 0, &run.Error{Kind: run.ValidationError, Param: "url", Message: `parameter "url" is required: pass the absolute http or https URL to request`}
	}
	u, err := run.CheckHTTPURL(rawURL)
	if err != nil {
		return nil, 0, &run.Error{Kind: run.ValidationError, Param: "url", Message: fmt.Sprintf("parameter %q: %v", "url", err)}
	}
	u.Fragment, u.RawFragment = "", "" // never sent

	method, err := c.String("method", http.MethodGet)
	if err != nil {
		return nil, 0, err
	}
	method = strings.ToUpper(strings.TrimSpace(method))
	if method == "" {
		method = http.MethodGet
	}

	// query pairs are appended to those already in the url
	query := u.RawQuery
	for _, kv := range run.HTTPPairs(c.Input["query"]) {
		run.AppendHTTPQuery(&query, kv.Name, kv.Value)
	}
	u.RawQuery = query

	header := http.Header{}
	for _, kv := range run.HTTPPairs(c.Input["headers"]) {
		if kv.Value == nil {
			continue
		}
		text := run.ValueText(kv.Value)
		if err := run.CheckHTTPHeader(kv.Name, text); err != nil {
			return nil, 0, &run.Error{Kind: run.ValidationError, Param: "headers/" + kv.Name, Message: fmt.Sprintf("parameter %q: %v", "headers", err)}
		}
		header.Add(kv.Name, text)
	}

	// a string body is sent as is; any other value as JSON
	var body []byte
	if v := c.Input["body"]; v != nil {
		var ctype string
		body, ctype, err = run.EncodeHTTPBody(v, header.Get("Content-Type"))
		if err != nil {
			return nil, 0, err
		}
		if header.Get("Content-Type") == "" && ctype != "" {
			header.Set("Content-Type", ctype)
		}
	}

	secs, err := c.Number("timeout", 0)
	if err != nil {
		return nil, 0, err
	}
	req := &run.HTTPRequest{Method: method, URL: u, Header: header, Body: body}
	var timeout time.Duration
	if secs > 0 {
		timeout = time.Duration(secs * float64(time.Second))
	}
	return req, timeout, nil
}
