package docs

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

var update = flag.Bool("update", false, "rewrite the golden pages in testdata/docs")

const (
	bundledDir = "../../tools"
	goldenDir  = "../../testdata/docs"
	casesDir   = "../../testdata/docs/cases/tools"
)

func loadTools(t *testing.T, paths ...string) []*spec.Tool {
	t.Helper()
	set, err := spec.Load(paths)
	if err != nil {
		t.Fatal(err)
	}
	if errs := set.Errors(); len(errs) > 0 {
		t.Fatalf("load errors: %v", errs)
	}
	return set.Tools()
}

// parseTools parses tool files given as name → YAML text.
func parseTools(t *testing.T, files ...string) []*spec.Tool {
	t.Helper()
	var out []*spec.Tool
	for i := 0; i < len(files); i += 2 {
		f := spec.ParseFile(files[i], []byte(files[i+1]))
		if len(f.Errors) > 0 {
			t.Fatalf("%s: %v", files[i], f.Errors)
		}
		out = append(out, f.Tools...)
	}
	return out
}

func generate(t *testing.T, tools []*spec.Tool, f Format) map[string]string {
	t.Helper()
	files, err := Generate(tools, Options{Format: f})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, x := range files {
		out[x.Name] = string(x.Data)
	}
	return out
}

// TestGolden renders the bundled tools and the hand cases in both formats
// and compares them with testdata/docs/{markdown,html} and
// testdata/docs/cases/{markdown,html} through Diff, the check toolctl docs
// --check runs; -update rewrites them (and removes pages of tools that are
// gone).
func TestGolden(t *testing.T) {
	sets := []struct {
		name, tools, dir string
	}{
		{"bundled", bundledDir, goldenDir},
		{"cases", casesDir, filepath.Join(goldenDir, "cases")},
	}
	for _, set := range sets {
		tools := loadTools(t, set.tools)
		for _, f := range Formats {
			t.Run(set.name+"/"+string(f), func(t *testing.T) {
				dir := filepath.Join(set.dir, string(f))
				files, err := Generate(tools, Options{Format: f, Dir: dir})
				if err != nil {
					t.Fatal(err)
				}
				changes, err := Diff(dir, files, f)
				if err != nil {
					t.Fatal(err)
				}
				if *update {
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					for _, c := range changes {
						path := filepath.Join(dir, c.Name)
						if c.Kind == Orphan {
							err = os.Remove(path)
						} else {
							err = os.WriteFile(path, c.Data, 0o644)
						}
						if err != nil {
							t.Fatal(err)
						}
					}
					return
				}
				for _, c := range changes {
					msg := fmt.Sprintf("%s: %s (run go test ./pkg/docs -update and review the diff)", filepath.Join(dir, c.Name), c.Kind)
					if c.Kind == Stale {
						old, _ := os.ReadFile(filepath.Join(dir, c.Name))
						msg += "\n" + firstDifference(old, c.Data)
					}
					t.Error(msg)
				}
			})
		}
	}
}

// firstDifference shows the first line where two texts differ.
func firstDifference(old, new []byte) string {
	a, b := strings.Split(string(old), "\n"), strings.Split(string(new), "\n")
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}

// TestDeterministic: the order tools are given in changes nothing.
func TestDeterministic(t *testing.T) {
	tools := append(loadTools(t, bundledDir), loadTools(t, casesDir)...)
	for _, f := range Formats {
		a := generate(t, tools, f)
		rev := slices.Clone(tools)
		slices.Reverse(rev)
		b := generate(t, rev, f)
		for name, data := range a {
			if b[name] != data {
				t.Errorf("%s %s differs when the tools come in another order", f, name)
			}
		}
	}
}

func TestIndexGroupsByCategory(t *testing.T) {
	tools := loadTools(t, casesDir)
	md := generate(t, tools, Markdown)["index.md"]
	for _, want := range []string{
		"3 tools in 2 categories.\n",
		"- [custom](#custom) (1)\n",
		"- [custom & &lt;misc>](#custom--misc) (1)\n",
		"- [(no category)](#no-category) (1)\n",
		"## (no category)\n\n| Tool | Description | Entry |\n| --- | --- | --- |\n| [`check_status`](check_status.md) | Reports whether a service is healthy in each region. Use after a deploy or when an alert fires. | definition only |\n",
		"| [`deploy_service`](deploy_service.md) | Deploys a service to one or more regions and waits until it is healthy. Use when a release must reach production. | http |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("index.md lacks %q:\n%s", want, md)
		}
	}
	// Categories in name order, the tools without one last.
	if i, j, k := strings.Index(md, "## custom\n"), strings.Index(md, "## custom & &lt;misc>\n"), strings.Index(md, "## (no category)\n"); !(i < j && j < k) {
		t.Errorf("groups out of order:\n%s", md)
	}
	html := generate(t, tools, HTML)["index.html"]
	for _, want := range []string{
		`<section id="no-category">`,
		`<section id="custom--misc">`,
		`<h2><a class="anchor" href="#custom--misc">custom &amp; &lt;misc&gt;</a></h2>`,
		`<td class="entry"><span class="muted">definition only</span></td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}

func TestLinks(t *testing.T) {
	tools := loadTools(t, casesDir)
	md := generate(t, tools, Markdown)["deploy_service.md"]
	for _, want := range []string{
		// related tools: a link when the tool is in the set
		"## Related tools\n\n- [`check_status`](check_status.md) — run after a deploy to confirm health\n- `rollback_service` (not documented here) — undo a deploy by hand\n",
		// the workflow, numbered by position, with the tools of each step
		"## Workflow\n\n**Safe release**\n\n" +
			"1. Check that the service is healthy before the release → [`check_status`](check_status.md)\n" +
			"2. Deploy to the canary region, then everywhere → [`deploy_service`](deploy_service.md), [`check_status`](check_status.md) (condition: the canary's error rate stays under 1%)\n" +
			"3. Step 3a: Roll back by hand if the health check fails → `rollback_service` (not documented here) (condition: status is rolled_back)\n",
		"- The service must exist in the catalog — check with [`check_status`](check_status.md); if not met: Ask the user to register the service first\n",
		"- A change ticket is approved — check with `ticket_lookup` (not documented here)\n",
		"- The deploy window is open\n",
		"- **Category:** [custom](index.md#custom)\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("deploy_service.md lacks %q:\n%s", want, md)
		}
	}
	html := generate(t, tools, HTML)["deploy_service.html"]
	for _, want := range []string{
		`<li><a href="check_status.html"><code>check_status</code></a> — run after a deploy to confirm health</li>`,
		`<li><code>rollback_service</code> <span class="muted">(not documented here)</span> — undo a deploy by hand</li>`,
		`<li>Deploy to the canary region, then everywhere → <a href="deploy_service.html"><code>deploy_service</code></a>, <a href="check_status.html"><code>check_status</code></a> (condition: the canary&#39;s error rate stays under 1%)</li>`,
		`<a href="index.html#custom">custom</a>`,
		`<ol class="workflow">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("deploy_service.html lacks %q", want)
		}
	}
}

func TestParameters(t *testing.T) {
	tools := loadTools(t, casesDir)
	md := generate(t, tools, Markdown)["deploy_service.md"]
	for _, want := range []string{
		"| `service` | string | yes |  |  | Service name, as in the service catalog. — pattern `^[a-z][a-z0-9-]*$` |\n",
		"| `config.replicas` | integer | yes | `2` |  | Instances per region. — minimum `1`, maximum `50` |\n",
		"| `config.strategy` | string | no | `\"rolling\"` | `\"rolling\"`, `\"blue-green\"`, `\"canary\"` | How instances are replaced. |\n",
		"| `targets` | array of object | yes |  |  | Regions to deploy to, in order. |\n",
		"| `targets[].region` | string | yes |  |  | Region id, e.g. eu-west-1. |\n",
		// a bound parameter is not the caller's: out of the table and of
		// the examples, named below the table
		"\nBound at run time, never passed by the caller: `api_token` (environment variable `DEPLOY_TOKEN`).\n",
		// returns, nested too
		"## Returns\n\nThe rollout as it finished.\n\n| Name | Type | Description |\n",
		"| `regions[].healthy` | boolean | Whether the health check passed. |\n",
		// the detail's headings are moved below the page's sections
		"## Details\n\n### Rollout\n",
		"#### Limits\n",
		// an example without a scenario is numbered
		"### Example 2\n",
		"Expected result:\n\n```json\n{\n  \"status\": \"healthy\",",
		"- **Entry:** http, method `POST`\n",
		"- **Hints:** destructive, open world\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("deploy_service.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "api_token\"") || strings.Contains(md, "not-shown") || strings.Contains(md, "| `api_token`") {
		t.Errorf("the bound parameter leaks into the page:\n%s", md)
	}
	status := generate(t, tools, Markdown)["check_status.md"]
	if !strings.Contains(status, "## Returns\n\nA one-line health summary.\n\nType: `string`.\n") {
		t.Errorf("check_status.md returns:\n%s", status)
	}
	html := generate(t, tools, HTML)["deploy_service.html"]
	for _, want := range []string{
		`<tr id="param-targets[].region" class="depth-1"><td class="name"><code>targets[].region</code></td><td>string</td><td class="req"><span class="required">yes</span></td>`,
		`<section id="details">`, `<h3>Rollout</h3>`, `<h4>Limits</h4>`, `<strong>one at a time</strong>`,
		"<ol>\n<li>At most 5 regions per call.</li>",
		`<div class="example" id="example-canary-to-two-regions">`,
		`<div class="example" id="example-example-2">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("deploy_service.html lacks %q", want)
		}
	}
}

// TestEscapingMarkdown: what a tool file says never breaks a table row,
// starts a block it did not mean, or passes raw HTML through.
func TestEscapingMarkdown(t *testing.T) {
	tools := loadTools(t, casesDir)
	md := generate(t, tools, Markdown)["tricky_text.md"]
	for _, want := range []string{
		"\nEchoes &lt;script>alert(\"x\")&lt;/script> & a | b text back.",
		"- **Title:** &lt;b>Tricky&lt;/b> & \"text\"\n",
		// pipes escaped in every cell, code spans included; the
		// multi-line description folded onto the row
		"| `text\\|pipe` | string | yes | `\"x\\ny\"` | `\"a\\|b\"`, ``\"`tick`\"``, `\"x\\ny\"`, `\"<b>\"` | First line \\| with a pipe. Second line &lt;i>not italic&lt;/i>. |\n",
		// an escaped pipe is left as it is; const shown
		"`code \\| with pipe` and a backslash \\| already escaped. — always `\"<const>\"` |\n",
		// leading block syntax escaped
		"- \\# not a heading\n- 1\\. not a list\n",
		"- \\- not a nested list\n- \\> not a quote\n",
		"### # Not a heading &lt;b>\n",
		// a fence longer than any backtick run inside
		"Expected result:\n\n````text\nSome ```fenced``` text\n```\nwith a fence line\n````\n",
		"- `<script>` (not documented here) — a name that is no tool & no HTML\n",
		// the detail: raw HTML escaped, unsafe links reduced to their
		// text, code left as written
		"Raw HTML stays text: &lt;img src=x onerror=\"alert(1)\"> and &lt;!-- a comment -->.\n",
		"[safe](https://example.com/a?b=1&c=2), [relative](other.md),\nunsafe and <https://example.com/auto>.\n",
		"```sh\necho \"<not html>\" | grep '```'\n```\n",
		"| `a\\|b` | *em* and __strong__ |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("tricky_text.md lacks %q:\n%s", want, md)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| `text") && strings.Count(line, "|")-strings.Count(line, `\|`) != 7 {
			t.Errorf("a parameter row has a stray pipe: %s", line)
		}
	}
}

// TestEscapingHTML: no markup from a tool file reaches the HTML, and no
// unsafe link target.
func TestEscapingHTML(t *testing.T) {
	tools := loadTools(t, casesDir)
	pages := generate(t, tools, HTML)
	html := pages["tricky_text.html"]
	for _, bad := range []string{"<script", "<img", "<b>", "<i>", "javascript:", "<!-- a comment", `onerror="`} {
		if strings.Contains(html, bad) {
			t.Errorf("tricky_text.html contains %q", bad)
		}
	}
	for _, want := range []string{
		`<p class="lead">Echoes &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; a | b text back.`,
		`<p class="title">&lt;b&gt;Tricky&lt;/b&gt; &amp; &#34;text&#34;</p>`,
		`Raw HTML stays text: &lt;img src=x onerror=&#34;alert(1)&#34;&gt; and &lt;!-- a comment --&gt;.`,
		`<a href="https://example.com/a?b=1&amp;c=2">safe</a>`,
		`<a href="other.md">relative</a>`,
		"\nunsafe and <a href=\"https://example.com/auto\">https://example.com/auto</a>",
		"<pre><code class=\"language-sh\">echo &#34;&lt;not html&gt;&#34; | grep &#39;```&#39;</code></pre>",
		`<th>Column</th><th style="text-align: center">With | pipe</th>`,
		`<td><code>a|b</code></td><td style="text-align: center"><em>em</em> and <strong>strong</strong></td>`,
		"<ul>\n<li>level one\n<ul>\n<li>level two with <code>code</code></li>\n</ul></li>\n<li>snake_case_name stays, <em>emphasis</em> works</li>\n</ul>",
		`<td><code>&#34;x\ny&#34;</code></td><td><code>&#34;a|b&#34;</code>, <code>&#34;`,
		`<h3><a class="anchor" href="#example--not-a-heading-b"># Not a heading &lt;b&gt;</a></h3>`,
		`<li><code>&lt;script&gt;</code> <span class="muted">(not documented here)</span> — a name that is no tool &amp; no HTML</li>`,
		`<tr id="param-text|pipe" class="depth-0">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("tricky_text.html lacks %q", want)
		}
	}
	// No external assets, anywhere: no tag loads anything.
	for name, page := range pages {
		if m := loadingTag.FindString(page); m != "" {
			t.Errorf("%s contains %q", name, m)
		}
		if !strings.HasPrefix(page, "<!DOCTYPE html>\n<!-- "+Marker+" -->\n") {
			t.Errorf("%s does not start with the doctype and the marker", name)
		}
	}
}

var loadingTag = regexp.MustCompile(`<(script|link|img|iframe|object|embed)\b|<[a-zA-Z][^<>]*\s(src|srcset|data)=|@import|url\(`)

func TestConflicts(t *testing.T) {
	a := "name: same\ndescription: One tool of two with one name, for the conflict test.\n"
	tools := parseTools(t, "a/same.yaml", a, "b/same.yaml", a)
	_, err := Generate(tools, Options{Format: Markdown})
	var de *Error
	if !errors.As(err, &de) || len(de.Problems) != 1 || !strings.Contains(de.Problems[0].Message, `tool "same" is defined twice (a/same.yaml:1:1 and b/same.yaml:1:1)`) {
		t.Errorf("two tools with one name: %v", err)
	}
	// Pages that would be one file on a case-insensitive file system,
	// or the index.
	tools = parseTools(t,
		"x.yaml", "name: Foo\ndescription: Upper-case name, for the file name conflict test.\n",
		"y.yaml", "name: foo\ndescription: Lower-case name, for the file name conflict test.\n",
		"z.yaml", "name: index\ndescription: A tool whose page would replace the index page.\n")
	_, err = Generate(tools, Options{Format: HTML})
	if !errors.As(err, &de) || len(de.Problems) != 2 ||
		!strings.Contains(de.Problems[0].Message, `tool "foo" (y.yaml:1:1) would be documented in foo.html, as would tool "Foo"`) ||
		!strings.Contains(de.Problems[1].Message, `tool "index" (z.yaml:1:1) would be documented in index.html, as would the index`) {
		t.Errorf("file name conflicts: %v", err)
	}
	if _, err := Generate(nil, Options{Format: "pdf"}); err == nil || err.Error() != `unknown format "pdf"; use markdown or html` {
		t.Errorf("unknown format: %v", err)
	}
}

func TestPageFile(t *testing.T) {
	for name, want := range map[string]string{
		"http_request":   "http_request.md",
		"math.factorial": "math.factorial.md",
		"../etc/passwd":  "_._etc_passwd.md",
		".hidden":        "_hidden.md",
		"名前":             "__.md",
		"":               "tool.md",
	} {
		if got := pageFile(name, Markdown); got != want {
			t.Errorf("pageFile(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSource(t *testing.T) {
	tools := loadTools(t, casesDir+"/check_status.yaml")
	files, err := Generate(tools, Options{Format: Markdown, Dir: "../../build/docs"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "- **Source:** [`../../testdata/docs/cases/tools/check_status.yaml`](../../testdata/docs/cases/tools/check_status.yaml)\n"; !strings.Contains(string(files[1].Data), want) {
		t.Errorf("source link: want %q in\n%s", want, files[1].Data)
	}
	// Without Dir, no source line.
	if md := generate(t, tools, Markdown)["check_status.md"]; strings.Contains(md, "Source") {
		t.Errorf("source without Dir:\n%s", md)
	}
}

func TestDiff(t *testing.T) {
	dir := t.TempDir()
	gen := func(body string) []byte { return []byte("<!-- " + Marker + " -->\n" + body) }
	files := []File{{"index.md", gen("index")}, {"a.md", gen("a")}, {"b.md", gen("b")}}

	// A missing directory needs every page.
	changes, err := Diff(filepath.Join(dir, "none"), files, Markdown)
	if err != nil || len(changes) != 3 || changes[0].Kind != Missing {
		t.Fatalf("missing dir: %v %v", changes, err)
	}

	must := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must("index.md", gen("index"))   // up to date
	must("a.md", gen("old a"))       // stale
	must("gone.md", gen("gone"))     // generated, no tool any more
	must("notes.md", []byte("mine")) // hand-written: left alone
	must("gone.html", gen("other format"))
	changes, err = Diff(dir, files, Markdown)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Name+": "+string(c.Kind))
		if (c.Kind == Orphan) != (c.Data == nil) {
			t.Errorf("%s: data %q", c.Name, c.Data)
		}
	}
	want := []string{"a.md: out of date", "b.md: missing", "gone.md: no longer generated"}
	if !slices.Equal(got, want) {
		t.Errorf("changes = %q, want %q", got, want)
	}

	// A hand-written file a page would replace stops everything.
	must("b.md", []byte("# my own b\n"))
	_, err = Diff(dir, files, Markdown)
	var fe *ForeignError
	if !errors.As(err, &fe) || err.Error() != filepath.Join(dir, "b.md")+" is not generated by toolctl docs and would be overwritten; move it or choose another output directory" {
		t.Errorf("foreign file: %v", err)
	}

	// The output path is a file.
	_, err = Diff(filepath.Join(dir, "notes.md"), files, Markdown)
	if err == nil || !strings.HasSuffix(err.Error(), "notes.md is a file, not a directory") {
		t.Errorf("file as dir: %v", err)
	}
}

func TestGenerated(t *testing.T) {
	if !Generated([]byte("<!DOCTYPE html>\n<!-- "+Marker+" -->\n")) || Generated([]byte("# Tools\n")) || Generated(nil) {
		t.Error("Generated")
	}
	// The marker must be near the top, not quoted in a page's body.
	if Generated(append(bytes.Repeat([]byte("x"), 300), Marker...)) {
		t.Error("a marker deep in the file counts")
	}
	// Only the exact marker line counts: a hand-written page that mentions
	// the marker near its top is not generated (issue 13, item 15).
	for _, page := range []string{
		"# Notes\n\nOur pages say <!-- " + Marker + " --> at the top.\n",
		"Mentions " + Marker + "\n",
		"<!-- " + Marker + " --> and more on the line\n",
		" <!-- " + Marker + " -->\n",
		"<!DOCTYPE html>\n<p>" + Marker + "</p>\n",
		"<!DOCTYPE html>\n\n<!-- " + Marker + " -->\n",
		"<html>\n<!-- " + Marker + " -->\n",
	} {
		if Generated([]byte(page)) {
			t.Errorf("counted as generated: %q", page)
		}
	}
	for _, page := range []string{
		"<!-- " + Marker + " -->",
		"<!-- " + Marker + " -->\r\n\n# Tools\r\n",
		"<!doctype html>\r\n<!-- " + Marker + " -->\r\n",
	} {
		if !Generated([]byte(page)) {
			t.Errorf("not counted as generated: %q", page)
		}
	}
}

// A hand-written page that mentions the marker is neither removed as an
// orphan nor replaced; a FIFO or symlink where a page goes is never opened
// or written through (diff_unix_test.go).
func TestDiffKeepsHandWritten(t *testing.T) {
	dir := t.TempDir()
	notes := "# Notes\n\nGenerated pages start with <!-- " + Marker + " -->.\n"
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte(notes), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []File{{Name: "index.md", Data: []byte("<!-- " + Marker + " -->\n\n# Tools\n")}}
	changes, err := Diff(dir, files, Markdown)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Name == "notes.md" {
			t.Errorf("hand-written notes.md would be %s", c.Kind)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte(notes), 0o644); err != nil {
		t.Fatal(err)
	}
	var foreign *ForeignError
	if _, err := Diff(dir, files, Markdown); !errors.As(err, &foreign) {
		t.Errorf("hand-written index.md: got %v, want a ForeignError", err)
	}

}

// TestOutputContent: a tool whose result is media says so under Returns.
func TestOutputContent(t *testing.T) {
	tools := parseTools(t, "shot.yaml", "name: shot\ndescription: Takes a screenshot. Use when a page must be seen.\noutput:\n  content: image/png\n")
	md := generate(t, tools, Markdown)["shot.md"]
	if !strings.Contains(md, "## Returns\n\nContent: `image/png`.\n") {
		t.Errorf("shot.md:\n%s", md)
	}
	html := generate(t, tools, HTML)["shot.html"]
	if !strings.Contains(html, "<p>Content: <code>image/png</code>.</p>") || strings.Contains(html, "Any value.") {
		t.Errorf("shot.html lacks the content type (or says any value)")
	}
}
