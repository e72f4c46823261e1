package run

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
	"golang.org/x/text/encoding/htmlindex"
)

// The http executor: an `entry: {type: http}` tool is one HTTP request
// built from the entry's url, method, headers, query and body templates.
// The request, response and status mapping code below is shared with the
// http_request and llm_call builtins.

const (
	// httpMaxBody caps what is read of a successful response, so that
	// a tool pointed at a huge download fails clearly instead of filling
	// memory.
	httpMaxBody = 10 << 20
	// httpMaxErrorBody caps what is read of an error response: only its start
	// is reported.
	httpMaxErrorBody = 64 << 10
	// httpMaxDetail is how much of an error response's text goes into
	// Error.Detail.
	httpMaxDetail = 4 << 10
	// httpUserAgent is sent unless the tool sets its own.
	httpUserAgent = "toolctl"
)

type httpExecutor struct{}

// Networked: an http entry calls a server.
func (httpExecutor) Networked(*spec.Tool) bool { return true }

// Method is entry.method, GET when it is left out.
func (httpExecutor) Method(c *Call) string {
	if c.Tool.Entry == nil || c.Tool.Entry.Method == "" {
		return http.MethodGet
	}
	return c.Tool.Entry.Method
}

func (httpExecutor) Execute(ctx context.Context, c *Call) (any, error) {
	req, err := buildHTTPEntry(c)
	if err != nil {
		return nil, err
	}
	resp, err := SendHTTP(ctx, c, req)
	if err != nil {
		return nil, err
	}
	// An image or audio response is that content item (README "Rich
	// results"), not its bytes as text.
	if res, ok := mediaContent(resp.Header.Get("Content-Type"), resp.raw); ok && len(resp.raw) > 0 {
		return res, nil
	}
	if res, ok, err := declaredMedia(c.Tool, resp.raw, resp.Header.Get("Content-Type")); ok {
		return res, err
	}
	return resp.Value(), nil
}

// Plan returns the request the entry would send, for --dry-run.
func (httpExecutor) Plan(c *Call) (any, error) {
	req, err := buildHTTPEntry(c)
	if err != nil {
		return nil, err
	}
	return req.Plan(), nil
}

// HTTPRequest is a request ready to send.
type HTTPRequest struct {
	Method string
	URL    *url.URL
	Header http.Header
	// Body is nil when the request has none.
	Body []byte
	// TimeoutHint says how to allow more time; the http entry's default
	// names runtime.timeout and --timeout.
	TimeoutHint string
}

// Where names the request in messages: method and URL without the query
// string, fragment or user info, which are where credentials tend to be.
func (r *HTTPRequest) Where() string {
	return r.Method + " " + httpDisplayURL(r.URL)
}

func httpDisplayURL(u *url.URL) string {
	v := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return v.String()
}

// headers are the headers sent: the request's, with a User-Agent unless
// it sets one.
func (r *HTTPRequest) headers() http.Header {
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if h.Get("User-Agent") == "" {
		h.Set("User-Agent", httpUserAgent)
	}
	return h
}

// Plan describes the request as the --dry-run output shows it.
func (r *HTTPRequest) Plan() map[string]any {
	headers := map[string]any{}
	for name, vals := range r.headers() {
		headers[name] = strings.Join(vals, ", ")
	}
	var body any
	if r.Body != nil {
		body = string(r.Body)
		if httpIsJSON(r.Header.Get("Content-Type")) {
			if v, err := spec.DecodeJSON(r.Body); err == nil {
				body = v
			}
		}
	}
	return map[string]any{
		"method":  r.Method,
		"url":     r.URL.String(),
		"headers": headers,
		"body":    body,
	}
}

// HTTPResponse is a response read in full.
type HTTPResponse struct {
	Status int
	Header http.Header
	// Body is the decoded JSON value when the response is JSON, else the
	// text.
	Body any
	// raw is the body as received.
	raw []byte
}

// Value is the result of an http tool: {status, headers, body}, with
// header names lower-cased and repeated headers joined.
func (r *HTTPResponse) Value() map[string]any {
	headers := make(map[string]any, len(r.Header))
	for name, vals := range r.Header {
		headers[strings.ToLower(name)] = strings.Join(vals, ", ")
	}
	return map[string]any{"status": r.Status, "headers": headers, "body": r.Body}
}

// SendHTTP makes one attempt: it sends r, reads the response and maps an
// error status (401/403, 404, 429, other 4xx, 5xx) and a transport failure
// to an *Error of the right kind.
func SendHTTP(ctx context.Context, c *Call, r *HTTPRequest) (*HTTPResponse, error) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL.String(), body)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, fmt.Sprintf("%s: cannot build the request: %v", r.Where(), httpUnwrapURLError(err)))
	}
	for name, vals := range r.headers() {
		if strings.EqualFold(name, "Host") {
			req.Host = vals[0] // net/http ignores a Host header
			continue
		}
		req.Header[name] = vals
	}
	resp, err := c.HTTPClient().Do(req)
	if err != nil {
		return nil, httpTransportError(ctx, r, err)
	}
	defer resp.Body.Close()

	limit := int64(httpMaxBody)
	if resp.StatusCode >= 400 {
		limit = httpMaxErrorBody
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, httpTransportError(ctx, r, err)
	}
	cut := int64(len(raw)) > limit
	if cut {
		if resp.StatusCode < 400 {
			return nil, &Error{Kind: ToolExecutionError, Status: resp.StatusCode, Message: fmt.Sprintf("%s: the response body is larger than the %d MiB limit; ask for less data (a narrower query, a smaller page)", r.Where(), httpMaxBody>>20)}
		}
		raw = raw[:limit] // only the start of an error body is reported
	}
	out := &HTTPResponse{Status: resp.StatusCode, Header: resp.Header, Body: httpDecodeBody(resp.Header.Get("Content-Type"), raw), raw: raw}
	if resp.StatusCode >= 400 {
		return nil, httpStatusError(r, out, raw, cut)
	}
	return out, nil
}

// httpIsJSON tells whether a Content-Type is JSON: application/json or a
// +json suffix (application/problem+json, application/vnd.api+json).
func httpIsJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(contentType))
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// httpDecodeBody returns a JSON body decoded (objects keep their key order)
// and anything else as text, converted to UTF-8 from the declared charset.
// A body labelled JSON that does not parse is returned as text rather than
// failing the call: the caller still gets what the server said.
func httpDecodeBody(contentType string, raw []byte) any {
	if httpIsJSON(contentType) {
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		if v, err := spec.DecodeJSON(raw); err == nil {
			return v
		}
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if cs := strings.ToLower(params["charset"]); cs != "" && cs != "utf-8" && cs != "utf8" && cs != "us-ascii" {
			if enc, err := htmlindex.Get(cs); err == nil {
				if text, err := enc.NewDecoder().Bytes(raw); err == nil {
					return string(text)
				}
			}
		}
	}
	return string(raw)
}

// httpStatusError maps an error status to its kind, with a message that names
// the request and the server's own explanation when it gave one.
func httpStatusError(r *HTTPRequest, resp *HTTPResponse, raw []byte, cut bool) *Error {
	status := strconv.Itoa(resp.Status)
	if text := http.StatusText(resp.Status); text != "" {
		status += " " + text
	}
	msg := r.Where() + ": " + status
	if m := httpServerMessage(resp.Body); m != "" {
		msg += ": " + m
	}
	e := &Error{Status: resp.Status, Detail: httpErrorDetail(resp.Body, raw, cut)}
	switch {
	case resp.Status == http.StatusUnauthorized:
		e.Kind = AuthenticationError
		msg += " (check the API key or token the tool sends)"
	case resp.Status == http.StatusForbidden:
		e.Kind = AuthenticationError
		msg += " (check that the credentials the tool sends are allowed to access this resource)"
	case resp.Status == http.StatusNotFound:
		e.Kind = NotFoundError
		msg += " (check the URL and the parameter values in its path)"
	case resp.Status == http.StatusTooManyRequests:
		e.Kind = RateLimitError
	case resp.Status >= 500:
		e.Kind = ServerError
	default:
		e.Kind = ToolExecutionError
	}
	// 503 may carry Retry-After too; the runner honours it for any kind
	if d, ok := httpRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = d
		if resp.Status == http.StatusTooManyRequests {
			msg += fmt.Sprintf(" (the server asks to retry after %s)", d)
		}
	}
	e.Message = msg
	return e
}

// httpServerMessage extracts a short explanation from an error body: the usual
// JSON error fields ({"error": {"message"}}, {"errors": [...]}, {"message"},
// {"detail"}, ...)
// or the first line of a short plain-text body. HTML pages give nothing.
func httpServerMessage(body any) string {
	var s string
	switch b := body.(type) {
	case *spec.Map:
		for _, key := range []string{"error", "errors", "message", "detail", "error_description", "title", "msg"} {
			v, ok := b.Get(key)
			if !ok {
				continue
			}
			if list, ok := v.([]any); ok && len(list) > 0 {
				v = list[0] // {"errors": [{"message": ...}]}
			}
			if m, ok := v.(*spec.Map); ok {
				v, _ = m.Get("message")
			}
			if str, ok := v.(string); ok && strings.TrimSpace(str) != "" {
				s = str
				break
			}
		}
	case string:
		t := strings.TrimSpace(b)
		if t == "" || strings.HasPrefix(t, "<") {
			return ""
		}
		s, _, _ = strings.Cut(t, "\n")
	}
	s = strings.Join(strings.Fields(s), " ")
	return httpTruncate(s, 300)
}

// httpErrorDetail is what Error.Detail carries of an error response: the
// decoded JSON, or the start of the text. cut says the body was longer
// than what was read.
func httpErrorDetail(body any, raw []byte, cut bool) any {
	if _, ok := body.(string); !ok && len(raw) <= httpMaxDetail {
		return body
	}
	text := string(raw)
	if s, ok := body.(string); ok {
		text = s
	}
	switch {
	case cut:
		return httpTruncate(text, httpMaxDetail) + fmt.Sprintf(" (more than %d bytes in all)", len(raw))
	case len(text) > httpMaxDetail:
		return httpTruncate(text, httpMaxDetail) + fmt.Sprintf(" (%d bytes in all)", len(raw))
	}
	return text
}

// httpTruncate cuts s to at most n bytes on a rune boundary, marking the
// cut with an ellipsis.
func httpTruncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// httpRetryAfter reads a Retry-After header: delay-seconds or an
// HTTP-date. A date in the past means "now" (0, true).
func httpRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs > 1e9 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(0, t.Sub(now)), true
}

// httpTransportError maps a failure to get a response. The deadline is checked
// first: a dial or read cut short by it is a timeout, not a network error.
func httpTransportError(ctx context.Context, r *HTTPRequest, err error) *Error {
	inner := httpUnwrapURLError(err) // url.Error repeats the full URL, query included
	where := r.Where()
	hint := r.TimeoutHint
	if hint == "" {
		hint = "raise runtime.timeout or pass --timeout"
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return Wrap(TimeoutError, inner, fmt.Sprintf("%s: no response before the deadline; %s", where, hint))
	case ctx.Err() != nil:
		return Wrap(ToolExecutionError, inner, where+": cancelled")
	}
	var dnsErr *net.DNSError
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var recordErr tls.RecordHeaderError
	var alert tls.AlertError
	switch {
	case errors.As(err, &dnsErr):
		return Wrap(NetworkError, inner, fmt.Sprintf("%s: cannot resolve host %q (%s); check the host name in the URL and the network", where, dnsErr.Name, dnsErr.Err))
	case errors.Is(err, syscall.ECONNREFUSED):
		return Wrap(NetworkError, inner, fmt.Sprintf("%s: connection refused by %s; check that the server is running and the URL's host and port", where, r.URL.Host))
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalidCert):
		return Wrap(NetworkError, inner, fmt.Sprintf("%s: the server's TLS certificate is not trusted: %v", where, inner))
	case errors.As(err, &recordErr), errors.As(err, &alert):
		return Wrap(NetworkError, inner, fmt.Sprintf("%s: TLS handshake failed: %v (is the URL's scheme right, https vs http?)", where, inner))
	case errors.As(err, &netErr) && netErr.Timeout():
		// the HTTP client's own timeout, not the call's deadline
		return Wrap(TimeoutError, inner, fmt.Sprintf("%s: timed out: %v", where, inner))
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return Wrap(NetworkError, inner, fmt.Sprintf("%s: the server closed the connection before a complete response", where))
	}
	return Wrap(NetworkError, inner, fmt.Sprintf("%s: %v", where, inner))
}

func httpUnwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// CheckHTTPURL accepts only absolute http and https URLs: anything else
// would fail later with a less helpful message from net/http.
func CheckHTTPURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a valid URL: %v", raw, httpUnwrapURLError(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("%q is not an absolute http or https URL (like https://example.com/path)", raw)
	}
	return u, nil
}

// CheckHTTPHeader rejects what net/http would refuse, naming the header.
func CheckHTTPHeader(name, value string) error {
	if name == "" || strings.ContainsAny(name, " \t\r\n:") {
		return fmt.Errorf("header name %q is not valid", name)
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("the value of header %s contains a line break or NUL, which HTTP does not allow", name)
	}
	return nil
}

// buildHTTPEntry expands an http entry's templates into the request.
func buildHTTPEntry(c *Call) (*HTTPRequest, error) {
	e := c.Tool.Entry
	t := NewTemplate(c)
	method := strings.ToUpper(strings.TrimSpace(e.Method))
	if method == "" {
		method = http.MethodGet
	}

	if err := httpDefinitionCheck(t); err != nil {
		return nil, err
	}
	t.Where = "entry.url"
	rawURL, query, err := httpExpandURL(t, e.URL)
	if err != nil {
		return nil, err
	}

	// entry.query: a value that is exactly one {param} takes the value's
	// type, so an absent or null optional parameter drops the pair and a
	// list repeats the name (tags=a&tags=b).
	for i := range e.Query.Len() {
		name, tmpl := e.Query.At(i)
		t.Where = "entry.query." + name
		k, err := t.Expand(name, nil)
		if err != nil {
			return nil, err
		}
		v, err := t.ExpandValue(tmpl)
		if err != nil {
			return nil, err
		}
		AppendHTTPQuery(&query, k, v)
	}

	header := http.Header{}
	for i := range e.Headers.Len() {
		name, tmpl := e.Headers.At(i)
		t.Where = "entry.headers." + name
		v, err := t.ExpandValue(tmpl)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue // an absent optional parameter: no header rather than an empty one
		}
		text := ValueText(v)
		if err := CheckHTTPHeader(name, text); err != nil {
			return nil, Errorf(ToolExecutionError, "entry.headers: %v; fix the tool file or the parameter value", err)
		}
		header.Add(name, text)
	}

	t.Where = "entry.body"
	body, contentType, err := httpExpandBody(t, e.Body, header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}

	// Leftover parameters (no placeholder took them) are sent as a runtime
	// would: in the query string for methods without a body, else as a
	// JSON object body. When the entry spells out a body, leftovers are
	// not merged into it: the author chose the exact payload, and adding
	// fields an API does not expect can make it reject the request.
	if rest := httpLeftovers(c, t.Used); len(rest) > 0 {
		switch {
		case !httpMethodHasBody(method):
			for _, name := range rest {
				AppendHTTPQuery(&query, name, c.Input[name])
			}
		case e.Body == nil:
			obj := spec.NewMap(len(rest))
			for _, name := range rest {
				obj.Set(name, c.Input[name])
			}
			raw, err := MarshalJSON(obj)
			if err != nil {
				return nil, Wrap(ToolExecutionError, err, "cannot encode the parameters as a JSON body: "+err.Error())
			}
			body, contentType = raw, "application/json"
		}
	}
	if body != nil && header.Get("Content-Type") == "" && contentType != "" {
		header.Set("Content-Type", contentType)
	}

	if query != "" {
		rawURL += "?" + query
	}
	u, err := CheckHTTPURL(rawURL)
	if err != nil {
		return nil, Errorf(ToolExecutionError, "entry.url expands to %v; check the url in the tool file and the parameters it uses", err)
	}
	if pass, ok := u.User.Password(); ok && c.Secrets.Len() > 0 && c.Secrets.Redact(pass) != pass {
		// net/http sends user:password as a basic Authorization header,
		// which a server may echo
		c.Secrets.Add(base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + pass)))
	}
	return &HTTPRequest{Method: method, URL: u, Header: header, Body: body}, nil
}

// httpMethodHasBody tells whether leftovers go to a body rather than the query.
func httpMethodHasBody(method string) bool {
	switch method {
	case http.MethodGet, http.MethodDelete, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// Check refuses what httpDefinitionCheck refuses, before any input.
func (httpExecutor) Check(c *Call) error {
	return httpDefinitionCheck(NewTemplate(c))
}

// httpDefinitionCheck refuses, as DefinitionErrors, what no input can
// mend: no url, a placeholder that names no parameter, and a scheme, user
// info, port or origin taken from a parameter a caller chooses.
func httpDefinitionCheck(t *Template) error {
	e := t.Call.Tool.Entry
	if e == nil || strings.TrimSpace(e.URL) == "" {
		return DefinitionErrorf("/entry", "an http entry needs entry.url: the absolute http or https URL to call, {param} placeholders allowed (url: https://api.example.com/v1/items/{id})")
	}
	if err := httpUnknownPlaceholders(t); err != nil {
		return err
	}
	parts := tmpl.SplitURL(e.URL)
	if !parts.Authority {
		return httpFixedPart(t, parts.Origin, "scheme and host")
	}
	if err := httpFixedPart(t, parts.Scheme, "scheme"); err != nil {
		return err
	}
	if parts.HasUserinfo {
		if err := httpFixedPart(t, parts.Userinfo, "user name or password"); err != nil {
			return err
		}
	}
	if parts.HasPort {
		return httpFixedPart(t, parts.Port, "port")
	}
	return nil
}

// httpFixedPart refuses a part of the url (the scheme, user info, port,
// or the whole origin as in {base_url}/v1) that takes a parameter a
// caller chooses: only ${ENV} and parameters the tool file fixes (bound,
// or an enum) may go there.
func httpFixedPart(t *Template, p tmpl.Part, what string) error {
	for _, ref := range tmpl.Params(p.Text) {
		if t.isParam(ref.Name) && !t.trusted(ref.Name) {
			return DefinitionErrorf("/entry/url", "entry.url takes its %s from parameter %q, so a caller could send the request, with the tool's headers and credentials, anywhere; write it in the tool file, use ${ENV}, or bind the parameter (bind: {%s: {env: ...}})", what, ref.Name, ref.Name)
		}
	}
	return nil
}

// httpUnknownPlaceholders refuses a {name} in the url, a query pair or a
// header that names no parameter (declared or given): it would be sent as
// written, a request to /weather/{town} when the parameter is city.
func httpUnknownPlaceholders(t *Template) error {
	e := t.Call.Tool.Entry
	check := func(ptr, where, text string) error {
		for _, ref := range tmpl.Params(text) {
			if t.isParam(ref.Name) {
				continue
			}
			hint := fmt.Sprintf("declare a parameter %q or remove the placeholder", ref.Name)
			if s := spec.Suggest(ref.Name, inputProps(t.Call.Tool).Keys()); s != "" {
				hint = fmt.Sprintf("did you mean {%s}?", s)
			}
			return DefinitionErrorf(ptr, "%s: {%s} names no parameter of the tool, so it would be sent as written; %s", where, ref.Name, hint)
		}
		return nil
	}
	if err := check("/entry/url", "entry.url", e.URL); err != nil {
		return err
	}
	for _, section := range []struct {
		field string
		m     *spec.Map
	}{{"query", e.Query}, {"headers", e.Headers}} {
		for i := range section.m.Len() {
			name, v := section.m.At(i)
			ptr := spec.Pointer("entry", section.field, name)
			if err := check(ptr, "entry."+section.field+"."+name, name); err != nil {
				return err
			}
			if s, ok := v.(string); ok {
				if err := check(ptr, "entry."+section.field+"."+name, s); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// httpExpandURL expands the url template part by part, split on the
// template's own text so that no value can move a boundary: a placeholder
// in the host must be one DNS label, one in the path is path-escaped (and
// a "." or ".." segment escaped too), one in the query is query-escaped. The
// scheme, userinfo and port (or the whole origin, as in {base_url}/v1) take
// only ${ENV} and parameters the tool file fixes (bound, or an enum). It
// returns the URL without its query, and the query separately so that more
// pairs can be appended. A fragment is dropped: it is never sent.
func httpExpandURL(t *Template, tmplURL string) (string, string, error) {
	parts := tmpl.SplitURL(tmplURL)
	var origin strings.Builder
	fixed := func(p tmpl.Part, what string, esc func(string) string) error {
		if err := httpFixedPart(t, p, what); err != nil {
			return err
		}
		var s string
		var err error
		if esc != nil {
			s, err = httpExpandEscaped(t, p.Text, esc)
		} else {
			s, err = t.Expand(p.Text, nil)
		}
		origin.WriteString(s)
		return err
	}
	if !parts.Authority {
		if err := fixed(parts.Origin, "scheme and host", nil); err != nil {
			return "", "", err
		}
	} else {
		if err := fixed(parts.Scheme, "scheme", nil); err != nil {
			return "", "", err
		}
		origin.WriteString("://")
		if parts.HasUserinfo {
			// values escaped, ${ENV} included: a password with "@" or "/"
			// must not end the user info early
			if err := fixed(parts.Userinfo, "user name or password", httpUserinfoEscape); err != nil {
				return "", "", err
			}
			origin.WriteString("@")
		}
		t.Check = httpHostCheck(t, tmplURL)
		host, err := t.Expand(parts.Host.Text, nil)
		t.Check = nil
		if err != nil {
			return "", "", err
		}
		origin.WriteString(host)
		if parts.HasPort {
			origin.WriteString(":")
			if err := fixed(parts.Port, "port", nil); err != nil {
				return "", "", err
			}
		}
	}
	path, err := httpExpandPath(t, parts.Path.Text)
	if err != nil {
		return "", "", err
	}
	o, p, rawQuery := origin.String(), path, parts.Query.Text
	var query string
	for pair := range strings.SplitSeq(rawQuery, "&") {
		if pair == "" {
			continue
		}
		k, v, hasValue := strings.Cut(pair, "=")
		// name={param} with the parameter absent or null: drop the pair
		// rather than send name= (many APIs read "" as a value)
		if name, n := placeholder(v); hasValue && n == len(v) && n > 0 && t.declared(name) && t.Call.Input[name] == nil {
			t.Used[name] = true
			continue
		}
		q, err := t.Expand(k, url.QueryEscape)
		if err != nil {
			return "", "", err
		}
		if hasValue {
			// a value is escaped whole, ${ENV} included: an API key with
			// + or / must reach the server unchanged
			v, err = httpExpandEscaped(t, v, url.QueryEscape)
			if err != nil {
				return "", "", err
			}
			q += "=" + v
		}
		if query != "" {
			query += "&"
		}
		query += q
	}
	return o + p, query, nil
}

// httpUserinfoEscape escapes a user name or password for the URL's user
// info: everything but RFC 3986's unreserved characters and sub-delims.
func httpUserinfoEscape(s string) string {
	return percentEncode(s, "-_.~!$&'()*+,;=", false, false)
}

// httpHostCheck vets a parameter placed in the URL's host: one DNS label,
// so that it cannot add a host, a port, a user or a path.
func httpHostCheck(t *Template, tmplURL string) func(name, text string, present bool, before string) error {
	return func(name, text string, present bool, before string) error {
		if t.trusted(name) || tmpl.IsLabel(text) {
			return nil
		}
		what := fmt.Sprintf("is %s, which is not", quoteValue(text))
		if !present || text == "" {
			what = "is empty, and the host needs"
		}
		return &Error{Kind: ValidationError, Param: name, Message: fmt.Sprintf("parameter %q %s one DNS label: entry.url puts it in the host (%s), where a value may hold only letters, digits and \"-\" (at most 63; an internationalised name in its xn-- form), so that it cannot change the host, port or user the request goes to", name, what, tmplURL)}
	}
}

// httpExpandPath expands the path template segment by segment: values are
// path-escaped ("/" becomes %2F), and a segment that a value makes "." or
// ".." is sent as %2E or %2E%2E, so that it stays one literal segment
// instead of naming the current or parent directory.
func httpExpandPath(t *Template, path string) (string, error) {
	if !strings.ContainsRune(path, '{') {
		return path, nil
	}
	var b strings.Builder
	for i, seg := range strings.Split(path, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		s, err := t.Expand(seg, url.PathEscape)
		if err != nil {
			return "", err
		}
		if (s == "." || s == "..") && s != seg {
			s = strings.Repeat("%2E", len(s))
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// httpExpandEscaped is t.Expand with esc applied to ${ENV} values as well
// as to parameter values.
func httpExpandEscaped(t *Template, s string, esc func(string) string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		name, n := placeholder(s[i+1:])
		if n == 0 || !isEnvName(name) {
			// not a variable: "${" is literal, and no placeholder starts
			// at its brace, so the text can be cut after it
			text, err := t.Expand(s[:i+2], esc)
			if err != nil {
				return "", err
			}
			b.WriteString(text)
			s = s[i+2:]
			continue
		}
		text, err := t.Expand(s[:i], esc)
		if err != nil {
			return "", err
		}
		b.WriteString(text)
		v, err := t.env(name)
		if err != nil {
			return "", err
		}
		b.WriteString(esc(v))
		s = s[i+1+n:]
	}
	text, err := t.Expand(s, esc)
	if err != nil {
		return "", err
	}
	b.WriteString(text)
	return b.String(), nil
}

// AppendHTTPQuery adds name=value pairs: nothing for null, one pair per item
// for a list, the value's text otherwise.
func AppendHTTPQuery(query *string, name string, v any) {
	var vals []any
	switch v := v.(type) {
	case nil:
		return
	case []any:
		vals = v
	default:
		vals = []any{v}
	}
	for _, x := range vals {
		if x == nil {
			continue
		}
		if *query != "" {
			*query += "&"
		}
		*query += url.QueryEscape(name) + "=" + url.QueryEscape(ValueText(x))
	}
}

// httpExpandBody builds the request body and the Content-Type it implies.
// A structured body (a mapping or list in the tool file) is expanded value
// by value and sent as JSON, or as a form when the tool's Content-Type
// says application/x-www-form-urlencoded. A string body is text with
// placeholders; when it is JSON text, values placed inside JSON strings are
// JSON-escaped so that a quote in a parameter cannot break the document.
func httpExpandBody(t *Template, body any, contentType string) ([]byte, string, error) {
	switch b := body.(type) {
	case nil:
		return nil, "", nil
	case string:
		if name, n := placeholder(b); n == len(b) && n > 0 {
			if _, ok := t.Call.Input[name]; ok || t.declared(name) {
				// the whole body is one parameter: send its value
				v, err := t.ExpandValue(b)
				if err != nil || v == nil {
					return nil, "", err
				}
				return EncodeHTTPBody(v, contentType)
			}
		}
		var text string
		var err error
		trimmed := strings.TrimSpace(b)
		if httpIsJSON(contentType) || contentType == "" && (strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[")) {
			text, err = httpExpandJSONText(t, b)
		} else {
			text, err = t.Expand(b, nil)
		}
		if err != nil {
			return nil, "", err
		}
		return []byte(text), httpTextType(text), nil
	default:
		v, err := t.ExpandValue(body)
		if err != nil {
			return nil, "", err
		}
		return EncodeHTTPBody(v, contentType)
	}
}

// EncodeHTTPBody encodes a value: a string as text, a mapping as a form when
// the Content-Type asks for one, anything else as JSON.
func EncodeHTTPBody(v any, contentType string) ([]byte, string, error) {
	if s, ok := v.(string); ok {
		return []byte(s), httpTextType(s), nil
	}
	if mt, _, _ := mime.ParseMediaType(contentType); mt == "application/x-www-form-urlencoded" {
		var form string
		for _, kv := range HTTPPairs(v) {
			AppendHTTPQuery(&form, kv.Name, kv.Value)
		}
		return []byte(form), "", nil
	}
	raw, err := MarshalJSON(v)
	if err != nil {
		return nil, "", Wrap(ToolExecutionError, err, "cannot encode entry.body as JSON: "+err.Error())
	}
	return raw, "application/json", nil
}

// httpTextType labels a text body: JSON when it parses as a JSON object
// or array, plain text otherwise.
func httpTextType(s string) string {
	t := strings.TrimSpace(s)
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return "application/json"
	}
	return "text/plain; charset=utf-8"
}

// httpExpandJSONText expands JSON text: placeholders inside a JSON string get
// their text JSON-escaped, those outside strings are inserted as is (a
// number, a boolean, an object's JSON).
func httpExpandJSONText(t *Template, s string) (string, error) {
	var b strings.Builder
	inString := false
	start := 0
	flush := func(end int) error {
		var text string
		var err error
		if inString {
			// ${ENV} too: a key with a quote or backslash must not break
			// the document
			text, err = httpExpandEscaped(t, s[start:end], httpJSONEscape)
		} else {
			text, err = t.Expand(s[start:end], nil)
		}
		b.WriteString(text)
		return err
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if inString {
				i++
			}
		case '"':
			if err := flush(i); err != nil {
				return "", err
			}
			b.WriteByte('"')
			start = i + 1
			inString = !inString
		}
	}
	if err := flush(len(s)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// httpJSONEscape escapes s for use inside a JSON string literal.
func httpJSONEscape(s string) string {
	raw, err := MarshalJSON(s)
	if err != nil {
		return s
	}
	return string(raw[1 : len(raw)-1])
}

// HTTPPair is one member of an object of query parameters or headers.
type HTTPPair struct {
	Name  string
	Value any
}

// HTTPPairs lists an object's members: a *spec.Map in its order, a
// Go map sorted by key so that requests are the same on every run.
func HTTPPairs(v any) []HTTPPair {
	switch m := v.(type) {
	case *spec.Map:
		out := make([]HTTPPair, 0, m.Len())
		for i := range m.Len() {
			k, x := m.At(i)
			out = append(out, HTTPPair{k, x})
		}
		return out
	case map[string]any:
		out := make([]HTTPPair, 0, len(m))
		for k, x := range m {
			out = append(out, HTTPPair{k, x})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	return nil
}

// httpLeftovers lists the non-null parameters no placeholder consumed, in the
// schema's property order, then any others sorted, so that the request is
// the same on every run.
func httpLeftovers(c *Call, used map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range inputProps(c.Tool).Keys() {
		seen[name] = true
		if v, ok := c.Input[name]; ok && v != nil && !used[name] {
			out = append(out, name)
		}
	}
	var extra []string
	for name, v := range c.Input {
		if !seen[name] && v != nil && !used[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}
