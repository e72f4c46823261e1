package docs

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium finds a Chromium to render the HTML pages with: $TOOLCTL_CHROMIUM,
// else chromium (the Debian package), chromium-browser or google-chrome on
// the PATH; "" when there is none.
func chromium() string {
	if p := os.Getenv("TOOLCTL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runChromium runs headless Chromium on one page and returns its stdout.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{
		"--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--hide-scrollbars", "--force-color-profile=srgb",
		// Less start-up work: nothing to fetch, sync or translate.
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-dev-shm-usage", "--mute-audio",
		// As root (containers, CI) Chromium refuses to start sandboxed.
		"--no-sandbox",
		"--user-data-dir=" + t.TempDir(),
	}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	// No session bus in containers: don't let Chromium wait for one.
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=disabled:")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

func fileURL(path string) string {
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// TestChromium loads the HTML pages in a real headless Chromium: the DOM it
// builds has the content (tables, links, workflow) and nothing a tool file
// smuggled in (no script or img element from tricky_text), and the inline
// CSS applies (the header bar's colour in a screenshot). Screenshots of the
// index and two tool pages go to $TOOLCTL_DOCS_SHOTS when set. Skipped
// without Chromium.
func TestChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("no Chromium found (Debian: apt-get install chromium; or set TOOLCTL_CHROMIUM)")
	}
	if testing.Short() {
		t.Skip("Chromium is slow; skipped with -short")
	}
	dir := t.TempDir()
	tools := append(loadTools(t, bundledDir), loadTools(t, casesDir)...)
	files, err := Generate(tools, Options{Format: HTML, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dom := func(name string) string {
		return string(runChromium(t, bin, "--dump-dom", fileURL(filepath.Join(dir, name))))
	}

	index := dom("index.html")
	if n := strings.Count(index, `<td class="name"><a href="`); n != len(tools) {
		t.Errorf("index: %d tool links in the DOM, want %d", n, len(tools))
	}
	for _, want := range []string{`<h1 id="tools">Tools</h1>`, `<section id="http">`, `<a href="http_request.html"><code>http_request</code></a>`} {
		if !strings.Contains(index, want) {
			t.Errorf("index DOM lacks %q", want)
		}
	}

	deploy := dom("deploy_service.html")
	for _, re := range []string{
		`<tr id="param-config\.replicas" class="depth-1">`,
		`(?s)<ol class="workflow">\s*<li>.*</li>\s*<li>.*</li>\s*<li>.*</li>\s*</ol>`,
		`<a href="check_status.html"><code>check_status</code></a>`,
	} {
		if !regexp.MustCompile(re).MatchString(deploy) {
			t.Errorf("deploy_service DOM does not match %s", re)
		}
	}

	tricky := dom("tricky_text.html")
	for _, bad := range []string{"<script", "<img", "<b>", "<i>", "javascript:"} {
		if strings.Contains(tricky, bad) {
			t.Errorf("tricky_text DOM has %q: markup from the tool file was interpreted", bad)
		}
	}
	if !strings.Contains(tricky, "Echoes &lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; a | b text back.") {
		t.Error("tricky_text DOM lacks the description as text")
	}

	shots := os.Getenv("TOOLCTL_DOCS_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		page   string
		height int
	}{{"index.html", 1600}, {"file_reader.html", 3400}, {"deploy_service.html", 3600}} {
		png := filepath.Join(shots, strings.TrimSuffix(s.page, ".html")+".png")
		runChromium(t, bin, "--screenshot="+png, "--window-size=1280,"+strconv.Itoa(s.height), fileURL(filepath.Join(dir, s.page)))
		img := decodePNG(t, png)
		// The header bar is var(--panel), #f6f8fa in the light scheme: the
		// inline stylesheet applied.
		if r, g, b, _ := img.At(4, 4).RGBA(); r>>8 != 0xf6 || g>>8 != 0xf8 || b>>8 != 0xfa {
			t.Errorf("%s: pixel (4,4) is #%02x%02x%02x, want the bar's #f6f8fa", png, r>>8, g>>8, b>>8)
		}
		t.Logf("screenshot: %s", png)
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}
