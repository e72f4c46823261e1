package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// noticeRecorder is a Reporter that keeps what it is given.
type noticeRecorder struct {
	mu       sync.Mutex
	progress []Progress
	logs     []LogMessage
}

func (r *noticeRecorder) Progress(p Progress) {
	r.mu.Lock()
	r.progress = append(r.progress, p)
	r.mu.Unlock()
}

func (r *noticeRecorder) Log(m LogMessage) {
	r.mu.Lock()
	r.logs = append(r.logs, m)
	r.mu.Unlock()
}

// richRun runs the tool file doc (written to a temp dir with extra files)
// through a Runner with a noticeRecorder; it returns the result or error, the
// noticeRecorder and the tool's stderr.
func richRun(t *testing.T, doc string, files map[string]string, input map[string]any) (any, *Error, *noticeRecorder, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "tool.yaml")
	f := spec.ParseFile(path, []byte(doc))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %d tools, errors %v", len(f.Tools), f.Errors)
	}
	var stderr bytes.Buffer
	rec := &noticeRecorder{}
	r := &Runner{Stderr: &stderr}
	ctx, cancel := context.WithTimeout(WithReporter(context.Background(), rec), 30*time.Second)
	defer cancel()
	if input == nil {
		input = map[string]any{}
	}
	res, err := r.Run(ctx, f.Tools[0], input)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error is not an *Error: %T %v", err, err)
		}
		return nil, e, rec, stderr.String()
	}
	return res.Value, nil, rec, stderr.String()
}

// rawOf is the wire JSON of an *MCPResult value.
func rawOf(t *testing.T, v any) string {
	t.Helper()
	m, ok := v.(*MCPResult)
	if !ok {
		t.Fatalf("result is %T (%v), want *MCPResult", v, v)
	}
	return string(m.Raw)
}

func jsTool(code string) string {
	var b strings.Builder
	b.WriteString("name: rich\ndescription: A test tool.\nentry:\n  type: javascript\n  code: |\n")
	for _, l := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

func TestJavaScriptContentItems(t *testing.T) {
	v, e, _, _ := richRun(t, jsTool(`function execute() {
  return [
    toolctl.text("hello", {annotations: {audience: ["user"]}}),
    toolctl.image(new Uint8Array([1, 2, 3]), "image/png"),
    toolctl.audio("UklGRg==", "audio/wav", {_meta: {k: 1}}),
    toolctl.resource("test://r", {mimeType: "text/plain", text: "body"}),
    toolctl.resource("test://b", {mimeType: "application/octet-stream", blob: [255]}),
    toolctl.resourceLink("file:///x.txt", {name: "x.txt", mimeType: "text/plain"}),
  ];
}`), nil, nil)
	if e != nil {
		t.Fatal(e)
	}
	want := `{"content":[{"type":"text","text":"hello","annotations":{"audience":["user"]}},{"type":"image","data":"AQID","mimeType":"image/png"},{"type":"audio","data":"UklGRg==","mimeType":"audio/wav","_meta":{"k":1}},{"type":"resource","resource":{"uri":"test://r","mimeType":"text/plain","text":"body"}},{"type":"resource","resource":{"uri":"test://b","mimeType":"application/octet-stream","blob":"/w=="}},{"type":"resource_link","uri":"file:///x.txt","name":"x.txt","mimeType":"text/plain"}]}`
	if got := rawOf(t, v); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
}

func TestJavaScriptResultEnvelope(t *testing.T) {
	v, e, _, _ := richRun(t, jsTool(`function execute() {
  return toolctl.result({content: ["a chart", toolctl.image("AAAA", "image/png")], structuredContent: {points: 3}});
}`), nil, nil)
	if e != nil {
		t.Fatal(e)
	}
	want := `{"content":[{"type":"text","text":"a chart"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{"points":3}}`
	if got := rawOf(t, v); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
	// A plain object shaped like a result is a plain value: only the
	// helpers make content.
	v, e, _, _ = richRun(t, jsTool(`function execute() { return {content: [{type: "text", text: "x"}]} }`), nil, nil)
	if e != nil {
		t.Fatal(e)
	}
	if _, ok := v.(*MCPResult); ok {
		t.Errorf("a plain object became content: %s", rawOf(t, v))
	}
}

func TestJavaScriptErrorAsData(t *testing.T) {
	_, e, _, _ := richRun(t, jsTool(`function execute() { return toolctl.error("no such city: Atlantis") }`), nil, nil)
	if e == nil {
		t.Fatal("no error")
	}
	m, ok := e.Detail.(*MCPResult)
	if e.Kind != ToolExecutionError || e.Message != "no such city: Atlantis" || !ok || !m.Result.IsError {
		t.Fatalf("error = %+v, want a ToolExecutionError with the isError result as detail", e)
	}
	if got, want := string(m.Raw), `{"content":[{"type":"text","text":"no such city: Atlantis"}],"isError":true}`; got != want {
		t.Errorf("raw %s, want %s", got, want)
	}
	// A thrown error stays a crash: no isError result in its detail.
	_, e, _, _ = richRun(t, jsTool(`function execute() { throw new Error("boom") }`), nil, nil)
	if e == nil || e.Kind != ToolExecutionError {
		t.Fatalf("error = %v", e)
	}
	if _, ok := e.Detail.(*MCPResult); ok {
		t.Error("a thrown error became an isError result")
	}
}

func TestJavaScriptBadContent(t *testing.T) {
	for code, want := range map[string]string{
		`function execute() { return toolctl.image("AAAA") }`:                                    "mimeType must be a non-empty string",
		`function execute() { return toolctl.result({content: [{type: "image", data: "%%"}]}) }`: `content item 0 (image) has no "mimeType"`,
		`function execute() { return toolctl.result({content: [{type: "video"}]}) }`:             `has type "video"`,
	} {
		_, e, _, _ := richRun(t, jsTool(code), nil, nil)
		if e == nil || !strings.Contains(e.Message, want) {
			t.Errorf("%s: error %v, want one containing %q", code, e, want)
		}
	}
}

func TestJavaScriptProgressAndLog(t *testing.T) {
	v, e, rec, _ := richRun(t, jsTool(`async function execute(input, ctx) {
  ctx.log("info", "started");
  ctx.progress(0, 100);
  await new Promise(r => setTimeout(r, 5));
  ctx.progress(50, 100, "half way");
  ctx.warning("slow", {ms: 5});
  ctx.progress(100, 100);
  return "done";
}`), nil, nil)
	if e != nil {
		t.Fatal(e)
	}
	if v != "done" {
		t.Errorf("result %v", v)
	}
	want := []Progress{{0, 100, ""}, {50, 100, "half way"}, {100, 100, ""}}
	if len(rec.progress) != 3 || rec.progress[0] != want[0] || rec.progress[1] != want[1] || rec.progress[2] != want[2] {
		t.Errorf("progress %+v, want %+v", rec.progress, want)
	}
	if len(rec.logs) != 2 || rec.logs[0].Level != "info" || rec.logs[0].Data != "started" || rec.logs[1].Level != "warning" {
		t.Fatalf("logs %+v", rec.logs)
	}
	data, _ := json.Marshal(rec.logs[1].Data)
	if string(data) != `{"data":{"ms":5},"message":"slow"}` {
		t.Errorf("log data %s", data)
	}
}

func TestCommandEnvelopeMediaAndNotices(t *testing.T) {
	script := `#!/bin/sh
echo 'plain line' >&2
echo '##toolctl {"progress": 1, "total": 2, "message": "one"}' >&2
printf '##tool' >&2
printf 'ctl {"log": "error", "message": "bad", "logger": "db"}\n' >&2
echo '##toolctl not json' >&2
echo '{"toolctl": "result", "content": [{"type": "text", "text": "hi"}], "structuredContent": {"n": 1}}'
`
	doc := "name: rich\ndescription: A test tool.\nentry:\n  type: command\n  command: [./tool.sh]\n"
	v, e, rec, stderr := richRun(t, doc, map[string]string{"tool.sh": script}, nil)
	if e != nil {
		t.Fatal(e)
	}
	if got, want := rawOf(t, v), `{"content":[{"type":"text","text":"hi"}],"structuredContent":{"n":1}}`; got != want {
		t.Errorf("result %s, want %s", got, want)
	}
	if stderr != "plain line\n##toolctl not json\n" {
		t.Errorf("stderr %q", stderr)
	}
	if len(rec.progress) != 1 || rec.progress[0] != (Progress{1, 2, "one"}) {
		t.Errorf("progress %+v", rec.progress)
	}
	if len(rec.logs) != 1 || rec.logs[0].Level != "error" || rec.logs[0].Logger != "db" || rec.logs[0].Data != "bad" {
		t.Errorf("logs %+v", rec.logs)
	}

	// isError in the envelope: an error carrying the result.
	errScript := "#!/bin/sh\necho '{\"toolctl\": \"result\", \"isError\": true, \"content\": [{\"type\": \"text\", \"text\": \"quota exceeded\"}]}'\n"
	_, e, _, _ = richRun(t, doc, map[string]string{"tool.sh": errScript}, nil)
	if e == nil || e.Message != "quota exceeded" {
		t.Fatalf("error %v", e)
	}
	if _, ok := e.Detail.(*MCPResult); !ok {
		t.Errorf("detail %T", e.Detail)
	}

	// A PNG on stdout is an image item.
	png := "#!/bin/sh\nprintf '\\211PNG\\r\\n\\032\\n\\000\\000\\000\\rIHDR'\n"
	v, e, _, _ = richRun(t, doc, map[string]string{"tool.sh": png}, nil)
	if e != nil {
		t.Fatal(e)
	}
	if got, want := rawOf(t, v), `{"content":[{"type":"image","data":"iVBORw0KGgoAAAANSUhEUg==","mimeType":"image/png"}]}`; got != want {
		t.Errorf("result %s, want %s", got, want)
	}
	// JSON without the mark stays a JSON value.
	plain := "#!/bin/sh\necho '{\"content\": [{\"type\": \"text\", \"text\": \"hi\"}]}'\n"
	v, e, _, _ = richRun(t, doc, map[string]string{"tool.sh": plain}, nil)
	if e != nil {
		t.Fatal(e)
	}
	if _, ok := v.(*MCPResult); ok {
		t.Errorf("unmarked JSON became content")
	}
}

func TestNoticeFilterSplitWrites(t *testing.T) {
	var out bytes.Buffer
	rec := &noticeRecorder{}
	c := &Call{Secrets: &Secrets{}}
	c.notices = &notices{to: rec, secrets: c.Secrets}
	f := newNoticeFilter(c, &out)
	in := "a\n#\n##toolctl {\"progress\": 3}\n##toolctlx\n##toolctl {\"log\":\"debug\",\"message\":\"m\"}\r\ntail"
	for i := 0; i < len(in); i++ {
		f.Write([]byte{in[i]})
	}
	f.Flush()
	if got, want := out.String(), "a\n#\n##toolctlx\ntail"; got != want {
		t.Errorf("passed %q, want %q", got, want)
	}
	if len(rec.progress) != 1 || rec.progress[0].Progress != 3 || len(rec.logs) != 1 || rec.logs[0].Level != "debug" {
		t.Errorf("progress %+v logs %+v", rec.progress, rec.logs)
	}
}

func TestNoticesBoundedAndRedacted(t *testing.T) {
	rec := &noticeRecorder{}
	c := &Call{Secrets: &Secrets{}}
	c.Secrets.Add("s3cr3t-value")
	c.notices = &notices{to: rec, secrets: c.Secrets}
	for i := 0; i < maxNotices+5; i++ {
		c.progress(Progress{Progress: float64(i)})
	}
	c.log(LogMessage{Level: "info", Data: "token s3cr3t-value"})
	if len(rec.progress) != maxNotices || len(rec.logs) != 0 {
		t.Errorf("%d progress, %d logs reported; want %d and 0", len(rec.progress), len(rec.logs), maxNotices)
	}
	rec2 := &noticeRecorder{}
	c.notices = &notices{to: rec2, secrets: c.Secrets}
	c.log(LogMessage{Level: "bogus", Data: "token s3cr3t-value"})
	c.progress(Progress{Progress: 5, Message: "s3cr3t-value"})
	c.progress(Progress{Progress: 2})
	if len(rec2.logs) != 1 || rec2.logs[0].Level != "info" || strings.Contains(rec2.logs[0].Data.(string), "s3cr3t") {
		t.Errorf("logs %+v", rec2.logs)
	}
	if strings.Contains(rec2.progress[0].Message, "s3cr3t") || rec2.progress[1].Progress != 5 {
		t.Errorf("progress %+v (a secret, or a decreasing value)", rec2.progress)
	}
}

func TestPythonRichResults(t *testing.T) {
	pyNeed(t)
	mod := `import toolctl

def run(city, ctx):
    ctx.info("looking up", {"city": city})
    ctx.progress(1, 2, "half")
    if city == "Atlantis":
        raise toolctl.ToolError("no such city: " + city)
    return [toolctl.text("sunny in " + city), toolctl.image(b"\x01\x02\x03", "image/png"),
            toolctl.resource("test://w", text="{}", mime_type="application/json"),
            toolctl.resource_link("https://x/y", "y")]
`
	doc := "name: rich\ndescription: A test tool.\nparameters:\n  type: object\n  properties:\n    city: {type: string}\nentry:\n  type: python\n  module: weather\n  function: run\n"
	v, e, rec, _ := richRun(t, doc, map[string]string{"weather.py": mod}, map[string]any{"city": "Oslo"})
	if e != nil {
		t.Fatal(e)
	}
	want := `{"content":[{"type":"text","text":"sunny in Oslo"},{"type":"image","data":"AQID","mimeType":"image/png"},{"type":"resource","resource":{"uri":"test://w","mimeType":"application/json","text":"{}"}},{"type":"resource_link","uri":"https://x/y","name":"y"}]}`
	if got := rawOf(t, v); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
	if len(rec.progress) != 1 || rec.progress[0] != (Progress{1, 2, "half"}) || len(rec.logs) != 1 || rec.logs[0].Level != "info" {
		t.Errorf("progress %+v logs %+v", rec.progress, rec.logs)
	}
	_, e, _, _ = richRun(t, doc, map[string]string{"weather.py": mod}, map[string]any{"city": "Atlantis"})
	if e == nil || e.Message != "no such city: Atlantis" {
		t.Fatalf("error %v", e)
	}
	if m, ok := e.Detail.(*MCPResult); !ok || !m.Result.IsError {
		t.Errorf("detail %T", e.Detail)
	}
}

func TestHTTPMediaResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/chart.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte{1, 2, 3})
		case "/say.wav":
			w.Header().Set("Content-Type", "Audio/WAV; rate=8000")
			w.Write([]byte{4, 5})
		default:
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("hi"))
		}
	}))
	defer srv.Close()
	for path, want := range map[string]string{
		"/chart.png": `{"content":[{"type":"image","data":"AQID","mimeType":"image/png"}]}`,
		"/say.wav":   `{"content":[{"type":"audio","data":"BAU=","mimeType":"audio/wav"}]}`,
	} {
		doc := "name: rich\ndescription: A test tool.\nentry:\n  type: http\n  url: " + srv.URL + path + "\n"
		v, e, _, _ := richRun(t, doc, nil, nil)
		if e != nil {
			t.Fatal(e)
		}
		if got := rawOf(t, v); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	doc := "name: rich\ndescription: A test tool.\nentry:\n  type: http\n  url: " + srv.URL + "/text\n"
	v, e, _, _ := richRun(t, doc, nil, nil)
	if e != nil {
		t.Fatal(e)
	}
	if m, ok := v.(map[string]any); !ok || m["body"] != "hi" {
		t.Errorf("a text response: %v", v)
	}
}

func TestDeclaredOutputContent(t *testing.T) {
	svg := "#!/bin/sh\necho '<svg xmlns=\"http://www.w3.org/2000/svg\"/>'\n"
	doc := "name: rich\ndescription: A test tool.\noutput:\n  content: image/svg+xml\nentry:\n  type: command\n  command: [./tool.sh]\n"
	v, e, _, _ := richRun(t, doc, map[string]string{"tool.sh": svg}, nil)
	if e != nil {
		t.Fatal(e)
	}
	if got, want := rawOf(t, v), `{"content":[{"type":"image","data":"PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4K","mimeType":"image/svg+xml"}]}`; got != want {
		t.Errorf("declared svg: %s, want %s", got, want)
	}
	// image/*: the type comes from the bytes; text is refused.
	wild := strings.Replace(doc, "image/svg+xml", "image/*", 1)
	_, e, _, _ = richRun(t, wild, map[string]string{"tool.sh": svg}, nil)
	if e == nil || !strings.Contains(e.Message, "is not an image") {
		t.Errorf("image/* with text: %v", e)
	}
	png := "#!/bin/sh\nprintf '\\211PNG\\r\\n\\032\\n\\000\\000\\000\\rIHDR'\n"
	v, e, _, _ = richRun(t, wild, map[string]string{"tool.sh": png}, nil)
	if e != nil || !strings.Contains(rawOf(t, v), `"mimeType":"image/png"`) {
		t.Errorf("image/* with a PNG: %v %v", v, e)
	}
	// http: a response labelled octet-stream is the declared audio.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte{1})
	}))
	defer srv.Close()
	v, e, _, _ = richRun(t, "name: rich\ndescription: A test tool.\noutput: {content: audio/mpeg}\nentry:\n  type: http\n  url: "+srv.URL+"\n", nil, nil)
	if e != nil {
		t.Fatal(e)
	}
	if got, want := rawOf(t, v), `{"content":[{"type":"audio","data":"AQ==","mimeType":"audio/mpeg"}]}`; got != want {
		t.Errorf("declared audio over http: %s, want %s", got, want)
	}
}

// TestJavaScriptOwnToolctl: code that defines its own toolctl keeps it.
func TestJavaScriptOwnToolctl(t *testing.T) {
	for _, code := range []string{
		`var toolctl = {x: 1}; function execute() { return toolctl.x }`,
		`const toolctl = {x: 1}; function execute() { return toolctl.x }`,
		`function execute() { toolctl = {x: 1}; return toolctl.x }`,
	} {
		v, e, _, _ := richRun(t, jsTool(code), nil, nil)
		if e != nil || jsonText(v) != "1" {
			t.Errorf("%s: %v %v", code, v, e)
		}
	}
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
