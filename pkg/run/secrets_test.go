package run

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

const testSecret = "sk-SECRET-abc+def/ghi="

// leaks tells whether out still shows a recognisable piece of form: any 8
// characters of it in a row.
func leaks(out, form string) bool {
	for i := 0; i+8 <= len(form); i++ {
		if strings.Contains(out, form[i:i+8]) {
			return true
		}
	}
	return false
}

// Every form the executors produce and the common forms a tool prints are
// redacted, computed here with the standard libraries' own encoders.
func TestSecretFormsRedacted(t *testing.T) {
	for _, secret := range []string{testSecret, `pa"ss\word<&>`, "clé-secrète ünïcödé 🔑", "with space+plus"} {
		s := &Secrets{}
		s.Add(secret)
		jsonStd, _ := json.Marshal(secret)
		var jsonNoHTML strings.Builder
		enc := json.NewEncoder(&jsonNoHTML)
		enc.SetEscapeHTML(false)
		enc.Encode(secret)
		forms := map[string]string{
			"raw":               secret,
			"QueryEscape":       url.QueryEscape(secret),
			"PathEscape":        url.PathEscape(secret),
			"query lower hex":   regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(secret), strings.ToLower),
			"userinfo":          url.UserPassword("u", secret).String(),
			"url.Values":        url.Values{"k": {secret}}.Encode(),
			"JSON":              string(jsonStd),
			"JSON no HTML":      jsonNoHTML.String(),
			"JSON escaped /":    strings.ReplaceAll(string(jsonStd), "/", `\/`),
			"base64 std":        base64.StdEncoding.EncodeToString([]byte(secret)),
			"base64 url":        base64.URLEncoding.EncodeToString([]byte(secret)),
			"base64 raw":        base64.RawStdEncoding.EncodeToString([]byte(secret)),
			"base64 raw url":    base64.RawURLEncoding.EncodeToString([]byte(secret)),
			"hex":               hex.EncodeToString([]byte(secret)),
			"HEX":               strings.ToUpper(hex.EncodeToString([]byte(secret))),
			"python repr":       "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(secret) + "'",
			"JSON ensure_ascii": jsonEscape(secret, false, true),
		}
		for name, form := range forms {
			text := "before " + form + " after"
			out := s.Redact(text)
			if !strings.Contains(out, Redacted) || leaks(out, strings.Trim(form, `"'`)) {
				t.Errorf("%q as %s: %q redacts to %q", secret, name, text, out)
			}
		}
		// a URL as the plan shows it
		u := (&url.URL{Scheme: "https", User: url.UserPassword("me", secret), Host: "h", Path: "/" + secret, RawQuery: "key=" + url.QueryEscape(secret)}).String()
		if out := s.Redact(u); out != "https://me:***@h/***?key=***" {
			t.Errorf("%q: URL %q redacts to %q", secret, u, out)
		}
		// basic auth and other base64 of a text that contains the secret:
		// only the encoding of the prefix and the last group survive
		for _, prefix := range []string{"user:", "u:", "me:"} {
			b := base64.StdEncoding.EncodeToString([]byte(prefix + secret))
			out := s.Redact("Authorization: Basic " + b)
			keep := len(base64.StdEncoding.EncodeToString([]byte(prefix))) + 4
			if !strings.Contains(out, Redacted) || len(out) > len("Authorization: Basic ")+len(Redacted)+keep {
				t.Errorf("%q: basic auth %q redacts to %q", secret, b, out)
			}
		}
	}
}

// Short values are not secrets worth garbling every text for; longer ones
// are hidden however they are encoded, but their short encodings are not
// hunted in unrelated text.
func TestShortSecrets(t *testing.T) {
	s := &Secrets{}
	for _, v := range []string{"1", "eu", "dev"} {
		s.Add(v)
	}
	if s.Len() != 0 {
		t.Errorf("%d short values recorded", s.Len())
	}
	if got := s.Redact("dev eu 1"); got != "dev eu 1" {
		t.Errorf("short values redacted: %q", got)
	}
	s.Add("abcd")
	if got := s.Redact("abcd 61626364 YWJjZA=="); got != "*** 61626364 YWJjZA==" {
		t.Errorf("4-character secret: %q", got)
	}
	// shorter than 8: only where it stands alone
	s = &Secrets{}
	s.Add("prod")
	s.Add("8080")
	s.Add("a+b/c")
	for in, want := range map[string]string{
		"env=prod&product=x, prods, /prod/": "env=***&product=x, prods, /***/",
		"port 8080, 18080, 80808, :8080":    "port ***, 18080, 80808, :***",
		"q=a%2Bb%2Fc&prodprod":              "q=***&prodprod",
		"prod":                              "***",
	} {
		if got := s.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	// no secrets: values pass through untouched, the same object
	var none Secrets
	m := map[string]any{"a": "b"}
	if got := none.RedactValue(m); fmt.Sprintf("%p", got) != fmt.Sprintf("%p", m) {
		t.Errorf("RedactValue copied a value without secrets")
	}
}

// Values of any shape an executor returns are redacted, keeping numbers
// and their types.
func TestRedactValueShapes(t *testing.T) {
	s := &Secrets{}
	s.Add(testSecret)
	m := spec.NewMap(1)
	m.Set("k", url.QueryEscape(testSecret))
	in := map[string]any{
		"list":   []any{testSecret, json.Number("5"), 1.5, true, nil},
		"ss":     []string{"x" + testSecret},
		"ms":     map[string]string{testSecret: "v"},
		"spec":   m,
		"typed":  []map[string]any{{"t": base64.StdEncoding.EncodeToString([]byte(testSecret))}},
		"number": json.Number("5"),
	}
	out, _ := json.Marshal(s.RedactValue(in))
	if strings.Contains(string(out), "SECRET") || leaks(string(out), base64.StdEncoding.EncodeToString([]byte(testSecret))) {
		t.Errorf("leaked: %s", out)
	}
	if !strings.Contains(string(out), `"number":5`) || !strings.Contains(string(out), `[***,5,1.5,true,null]`) && !strings.Contains(string(out), `["***",5,1.5,true,null]`) {
		t.Errorf("shapes changed: %s", out)
	}
}

// keyServer answers like many APIs do: the request URL in its error
// messages (401, 404, 500) and, for 200, the key in several encodings.
func keyServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get("key")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasPrefix(r.URL.Path, "/s401"):
			w.WriteHeader(401)
		case strings.HasPrefix(r.URL.Path, "/s404"):
			w.WriteHeader(404)
		case strings.HasPrefix(r.URL.Path, "/s500"):
			w.WriteHeader(500)
		default:
			user, pass, _ := r.BasicAuth()
			json.NewEncoder(w).Encode(map[string]any{
				"uri": r.RequestURI, "key": key, "auth": r.Header.Get("Authorization"), "basic": user + ":" + pass,
				"b64": base64.StdEncoding.EncodeToString([]byte(key)), "hex": hex.EncodeToString([]byte(key)),
				"body": r.Header.Get("X-Body"),
			})
			return
		}
		fmt.Fprintf(w, `{"error": {"message": "invalid request %s (key %s)"}}`, r.RequestURI, key)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// With the key in the query (escaped there), neither the dry run, nor the
// result, nor the 401/404/500 errors show it in any form.
func TestHTTPSecretNotShownEscaped(t *testing.T) {
	srv := keyServer(t)
	env := map[string]string{"API_KEY": testSecret, "T_SERVER": srv.URL, "T_USER": "me"}
	tool := func(path string) *spec.Tool {
		return parseTool(t, `
name: t
description: A test tool. Use when testing.
category: http
entry:
  type: http
  url: "http://${T_USER}:${API_KEY}@`+strings.TrimPrefix(srv.URL, "http://")+path+`?key=${API_KEY}"
  method: POST
  body: '{"key": "${API_KEY}"}'
  headers: {X-Body: "${API_KEY}"}
`)
	}
	zero := 0
	var events []string
	r := &Runner{Getenv: func(k string) string { return env[k] }, Retries: &zero, Events: func(e Event) {
		if e.Err != nil {
			events = append(events, e.Err.Message)
		}
	}}
	plan, err := r.Plan(tool("/ok"), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(context.Background(), tool("/ok"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, v := range []any{plan, res.Value} {
		raw, _ := json.Marshal(v)
		all = append(all, string(raw))
	}
	for _, path := range []string{"/s401", "/s404", "/s500"} {
		_, err := r.Run(context.Background(), tool(path), nil)
		e := AsError(err)
		if e == nil {
			t.Fatalf("%s: no error", path)
		}
		detail, _ := json.Marshal(e.Detail)
		all = append(all, e.Error(), string(detail))
	}
	all = append(all, events...)
	for _, text := range all {
		if strings.Contains(text, "SECRET") || strings.Contains(strings.ToUpper(text), "SECRET") ||
			leaks(text, base64.StdEncoding.EncodeToString([]byte(testSecret))) ||
			leaks(text, base64.StdEncoding.EncodeToString([]byte("me:"+testSecret))) ||
			leaks(text, hex.EncodeToString([]byte(testSecret))) {
			t.Errorf("the key leaks: %s", text)
		}
	}
	if !strings.Contains(all[0], `"url":"http://***:***@`) && !strings.Contains(all[0], `***`) {
		t.Errorf("plan: %s", all[0])
	}
}

// A tool's own output (result and stderr) in Python's encodings of a bound
// secret is redacted.
func TestPythonSecretFormsRedacted(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not available")
	}
	dir := t.TempDir()
	code := `import base64, json, sys, urllib.parse
def run(key):
    forms = {"quote": urllib.parse.quote(key), "quote_safe": urllib.parse.quote(key, safe=""),
             "quote_plus": urllib.parse.quote_plus(key), "urlencode": urllib.parse.urlencode({"k": key}),
             "repr": repr(key), "repr_dict": repr({"k": key}), "bytes": repr(key.encode()),
             "json": json.dumps(key), "b64": base64.b64encode(key.encode()).decode(),
             "b64url": base64.urlsafe_b64encode(key.encode()).decode(), "hex": key.encode().hex(),
             "basic": base64.b64encode(("user:" + key).encode()).decode()}
    print(json.dumps(forms), file=sys.stderr)
    return forms
`
	if err := os.WriteFile(filepath.Join(dir, "forms.py"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `
name: forms
description: A test tool. Use when testing.
category: custom
entry: {type: python, module: forms, function: run}
input_schema: {type: object, properties: {key: {type: string}}}
bind: {key: {env: API_KEY}}
`
	path := filepath.Join(dir, "forms.yaml")
	f := spec.ParseFile(path, []byte(src))
	if len(f.Tools) != 1 {
		t.Fatal(f.Errors)
	}
	for _, secret := range []string{testSecret, `it's "quoted" \ clé`} {
		var stderr strings.Builder
		r := &Runner{Getenv: func(k string) string { return map[string]string{"API_KEY": secret}[k] }, Stderr: &stderr}
		res, err := r.Run(context.Background(), f.Tools[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(res.Value)
		for _, text := range []string{string(out), stderr.String()} {
			if strings.Contains(strings.ToUpper(text), "SECRET") || strings.Contains(text, "quoted") ||
				leaks(text, base64.StdEncoding.EncodeToString([]byte(secret))) || leaks(text, hex.EncodeToString([]byte(secret))) {
				t.Errorf("%q leaks: %s", secret, text)
			}
		}
		if !strings.Contains(string(out), `"basic":"`) {
			t.Errorf("result %s", out)
		}
	}
}

// BenchmarkRedact measures redaction of a 1 MiB result text (JSON-like,
// no secret in it, the common case) with one and three secrets.
func BenchmarkRedact(b *testing.B) {
	text := strings.Repeat(`{"id": 12345, "name": "widget", "url": "https://example.org/items?id=12345&q=a%20b"}`+"\n", 1<<20/85)
	for _, n := range []int{0, 1, 3} {
		b.Run(fmt.Sprintf("secrets=%d", n), func(b *testing.B) {
			s := &Secrets{}
			for i := range n {
				s.Add(fmt.Sprintf("%s-%d", testSecret, i))
			}
			s.Redact("warm up")
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				s.Redact(text)
			}
		})
	}
}

// BenchmarkRedactValue measures redaction of a decoded JSON result of
// 10,000 objects (30,000 short strings) with one secret.
func BenchmarkRedactValue(b *testing.B) {
	list := make([]any, 10000)
	for i := range list {
		m := spec.NewMap(3)
		m.Set("id", json.Number("12345"))
		m.Set("name", "widget")
		m.Set("url", "https://example.org/items?id=12345")
		list[i] = m
	}
	s := &Secrets{}
	s.Add(testSecret)
	for b.Loop() {
		s.RedactValue(list)
	}
}
