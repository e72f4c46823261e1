package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// actionlintVersion is the actionlint TestActionlint runs, from the Go
// module proxy (go run module@version: not a dependency of this module).
const actionlintVersion = "v1.7.12"

// actionlint returns a command running actionlint, or skips the test
// when it cannot be fetched or built (no network, no module proxy).
func actionlint(t *testing.T) func(dir string, args ...string) (string, error) {
	t.Helper()
	bin, err := exec.LookPath("actionlint")
	if err != nil {
		bin = actionlintFromCache(t)
	}
	return func(dir string, args ...string) (string, error) {
		c := exec.Command(bin, append([]string{"-no-color"}, args...)...)
		c.Dir = dir
		out, err := c.CombinedOutput()
		return string(out), err
	}
}

// actionlintFromCache builds actionlint from the Go module cache, offline
// (tests reach nothing but loopback): .ci/run puts it there with go
// install github.com/rhysd/actionlint/cmd/actionlint@VERSION. Without it
// in the cache the test skips.
func actionlintFromCache(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds actionlint")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build actionlint with")
	}
	gobin := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, goBin, "install", "github.com/rhysd/actionlint/cmd/actionlint@"+actionlintVersion)
	// outside this module, so that its go.mod is not consulted
	build.Dir = t.TempDir()
	// the module cache's download directory serves as a proxy on disk
	modcache, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	cacheProxy := "file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"))
	build.Env = append(os.Environ(), "GOFLAGS=", "GOPROXY="+cacheProxy, "GONOSUMDB=*", "GOBIN="+gobin)
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("actionlint %s is neither on PATH nor in the module cache (go install github.com/rhysd/actionlint/cmd/actionlint@%s puts it there): %v: %s", actionlintVersion, actionlintVersion, err, out)
	}
	return filepath.Join(gobin, "actionlint")
}

// readmeWorkflows returns the complete workflows of the README (YAML
// blocks with on: and jobs:), the action's own uses (toolctl/toolctl@REF)
// turned into uses: ./ so that actionlint checks their inputs against
// action.yml.
func readmeWorkflows(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	uses := regexp.MustCompile(`uses: toolctl/toolctl@\S+`)
	out := map[string]string{}
	for i, b := range blocks {
		y := b[1]
		if !regexp.MustCompile(`(?m)^on:`).MatchString(y) || !regexp.MustCompile(`(?m)^jobs:`).MatchString(y) {
			continue
		}
		out["readme-"+strconv.Itoa(i)+".yml"] = uses.ReplaceAllString(y, "uses: ./")
	}
	return out
}

// TestActionlint runs actionlint on the workflows of the README and on
// testdata/action/workflow.yml (every input of the action), with
// action.yml as the local action they use: a wrong input name, a bad
// expression or a YAML error in action.yml fails it.
func TestActionlint(t *testing.T) {
	workflows := readmeWorkflows(t)
	usesAction := 0
	for _, y := range workflows {
		if strings.Contains(y, "uses: ./") {
			usesAction++
		}
	}
	if usesAction == 0 {
		t.Fatal("no README workflow uses the action (uses: toolctl/toolctl@...)")
	}
	own, err := os.ReadFile("testdata/action/workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	workflows["testdata.yml"] = string(own)
	run := actionlint(t)

	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o644); err != nil {
		t.Fatal(err)
	}
	var names []string
	for name, y := range workflows {
		if err := os.WriteFile(filepath.Join(wf, name), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Join(".github", "workflows", name))
	}
	// actionlint finds the repository (and so ./) from a .git directory
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("actionlint %s on %s", actionlintVersion, strings.Join(names, ", "))
	if out, err := run(dir, names...); err != nil {
		t.Errorf("actionlint %s: %v\n%s", actionlintVersion, err, out)
	}

	// the check can fail: an input action.yml does not declare
	bad := strings.Replace(string(own), "fail-on: warning", "fail_on: warning", 1)
	if err := os.WriteFile(filepath.Join(wf, "testdata.yml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run(dir, filepath.Join(".github", "workflows", "testdata.yml")); err == nil || !strings.Contains(out, `input "fail_on" is not defined`) {
		t.Errorf("actionlint let an undeclared input through (%v):\n%s", err, out)
	}
}

// TestActionScripts runs shellcheck (when installed) on every run: script
// of action.yml, which actionlint does not read.
func TestActionScripts(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				Name  string `yaml:"name"`
				Run   string `yaml:"run"`
				Shell string `yaml:"shell"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using is %q, want composite", action.Runs.Using)
	}
	scripts := 0
	for _, st := range action.Runs.Steps {
		if st.Run == "" {
			continue
		}
		scripts++
		if st.Shell != "bash" {
			t.Errorf("step %q: shell %q; the scripts are bash", st.Name, st.Shell)
		}
		if strings.Contains(st.Run, "${{") {
			t.Errorf("step %q: an expression in the script; pass it through env (no injection, and shellcheck reads the script)", st.Name)
		}
		c := exec.Command(sc, "-s", "bash", "-")
		c.Stdin = strings.NewReader(st.Run)
		if out, err := c.CombinedOutput(); err != nil {
			t.Errorf("shellcheck on step %q: %v\n%s", st.Name, err, out)
		}
	}
	if scripts == 0 {
		t.Fatal("no run: step in action.yml")
	}
}

// installScript is the run: script of action.yml's install step.
func installScript(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []struct {
				ID  string `yaml:"id"`
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	for _, st := range action.Runs.Steps {
		if st.ID == "install" {
			return st.Run
		}
	}
	t.Fatal("action.yml has no step with id install")
	return ""
}

// TestActionInstall runs the action's install step with curl and go
// replaced by fakes that serve a release from a directory: the archive
// of .goreleaser.yaml's name for the runner, checked against
// checksums.txt, its binary put on GITHUB_PATH; a bad checksum fails the
// step; a version without a release falls back to go install.
func TestActionInstall(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("needs bash and a Unix")
	}
	for _, tool := range []string{"tar", "sha256sum", "sed", "grep", "mktemp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	script := installScript(t)

	setup := func(t *testing.T) (env []string, tmp, releases string) {
		tmp = t.TempDir()
		releases = filepath.Join(tmp, "releases")
		fake := filepath.Join(tmp, "fakebin")
		for _, d := range []string{releases, fake, filepath.Join(tmp, "runner")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// curl [-fsSL] [-H h] [-o FILE] URL: the API's latest release, or
		// a release asset from releases/TAG/NAME (exit 22 when missing)
		curl := `#!/bin/sh
out=""; url=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    -H) shift ;;
    -*) ;;
    *) url="$1" ;;
  esac
  shift
done
case "$url" in
  https://api.github.com/repos/toolctl/toolctl/releases/latest) echo '{"url": "x", "tag_name": "v1.2.3", "name": "v1.2.3"}' ;;
  https://github.com/toolctl/toolctl/releases/download/*)
    f="` + releases + `/${url#https://github.com/toolctl/toolctl/releases/download/}"
    [ -f "$f" ] || exit 22
    cp "$f" "$out" ;;
  *) exit 6 ;;
esac
`
		goFake := "#!/bin/sh\necho \"go $*\" >> " + filepath.Join(tmp, "go.log") + "\nprintf '#!/bin/sh\\necho built\\n' > \"$GOBIN/toolctl\"\nchmod +x \"$GOBIN/toolctl\"\n"
		for name, body := range map[string]string{"curl": curl, "go": goFake} {
			if err := os.WriteFile(filepath.Join(fake, name), []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"),
			"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP="+filepath.Join(tmp, "runner"),
			"GITHUB_PATH="+filepath.Join(tmp, "github_path"), "GH_TOKEN=token", "ACTION_REF=main")
		return env, tmp, releases
	}
	// release v1.2.3: toolctl_1.2.3_linux_amd64.tar.gz with a toolctl
	// that says its version, and checksums.txt
	release := func(t *testing.T, tmp, releases string, corrupt bool) {
		dir := filepath.Join(releases, "v1.2.3")
		stage := filepath.Join(tmp, "stage")
		for _, d := range []string{dir, stage} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(stage, "toolctl"), []byte("#!/bin/sh\necho toolctl 1.2.3\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		archive := "toolctl_1.2.3_linux_amd64.tar.gz"
		if out, err := exec.Command("tar", "-czf", filepath.Join(dir, archive), "-C", stage, "toolctl").CombinedOutput(); err != nil {
			t.Fatalf("tar: %v %s", err, out)
		}
		sum, err := exec.Command("sha256sum", filepath.Join(dir, archive)).Output()
		if err != nil {
			t.Fatal(err)
		}
		hash := strings.Fields(string(sum))[0]
		if corrupt {
			hash = strings.Repeat("0", 64)
		}
		if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(hash+"  "+archive+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runStep := func(env []string, version string) (string, error) {
		c := exec.Command(bash, "-e", "-c", script)
		c.Env = append(env, "INPUT_VERSION="+version)
		out, err := c.CombinedOutput()
		return string(out), err
	}

	t.Run("release", func(t *testing.T) {
		env, tmp, releases := setup(t)
		release(t, tmp, releases, false)
		out, err := runStep(env, "")
		if err != nil {
			t.Fatalf("install: %v\n%s", err, out)
		}
		if !strings.Contains(out, "toolctl 1.2.3") || !strings.Contains(out, "installed (release v1.2.3)") {
			t.Errorf("install output:\n%s", out)
		}
		path, _ := os.ReadFile(filepath.Join(tmp, "github_path"))
		if got, want := strings.TrimSpace(string(path)), filepath.Join(tmp, "runner", "toolctl-bin"); got != want {
			t.Errorf("GITHUB_PATH %q, want %q", got, want)
		}
	})
	t.Run("bad checksum", func(t *testing.T) {
		env, tmp, releases := setup(t)
		release(t, tmp, releases, true)
		if out, err := runStep(env, "v1.2.3"); err == nil || !strings.Contains(out, "FAILED") {
			t.Errorf("a corrupt archive was installed (%v):\n%s", err, out)
		}
	})
	t.Run("no release: go install", func(t *testing.T) {
		env, tmp, _ := setup(t)
		out, err := runStep(env, "v9.9.9")
		if err != nil {
			t.Fatalf("install: %v\n%s", err, out)
		}
		log, _ := os.ReadFile(filepath.Join(tmp, "go.log"))
		if got, want := strings.TrimSpace(string(log)), "go install github.com/toolctl/toolctl@v9.9.9"; got != want {
			t.Errorf("go called as %q, want %q", got, want)
		}
		if !strings.Contains(out, "installed (go install v9.9.9)") {
			t.Errorf("install output:\n%s", out)
		}
	})
}
