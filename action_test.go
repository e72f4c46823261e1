package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	if testing.Short() {
		t.Skip("builds actionlint")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to fetch actionlint with")
	}
	// build once into a temporary directory: go run would link it again
	// for every call
	bin := filepath.Join(t.TempDir(), "actionlint")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, goBin, "build", "-o", bin, "github.com/rhysd/actionlint/cmd/actionlint@"+actionlintVersion)
	// outside this module, so that its go.mod is not consulted
	build.Dir = t.TempDir()
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		// go build pkg@version is go 1.x+; fall back to go install
		install := exec.CommandContext(ctx, goBin, "install", "github.com/rhysd/actionlint/cmd/actionlint@"+actionlintVersion)
		install.Dir = build.Dir
		install.Env = append(os.Environ(), "GOFLAGS=", "GOBIN="+filepath.Dir(bin))
		if out2, err2 := install.CombinedOutput(); err2 != nil {
			t.Skipf("cannot fetch actionlint %s (%v): %s%s", actionlintVersion, err, out, out2)
		}
	}
	return func(dir string, args ...string) (string, error) {
		c := exec.Command(bin, append([]string{"-no-color"}, args...)...)
		c.Dir = dir
		out, err := c.CombinedOutput()
		return string(out), err
	}
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
