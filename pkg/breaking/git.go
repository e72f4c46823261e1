package breaking

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Limits of what a git revision may hold for LoadGit: more files, or a
// larger file, is refused rather than read.
const (
	MaxGitFiles = 100000
	// MaxGitBytes bounds the sum of the files read (they stay in memory
	// for positions and excerpts).
	MaxGitBytes = 256 << 20
)

// GitError is a revision that cannot be read: git missing, not a
// repository, an unknown ref, a path outside the repository (exit 2).
type GitError struct{ Msg string }

func (e *GitError) Error() string { return e.Msg }

// LoadGit reads the tool files under paths (relative to the working
// directory dir, as the user gave them) as they are at revision ref of
// the git repository dir is in, with the git binary and without touching
// the work tree or the index. Files are shown as "REF:path" (path as the
// user would spell it now).
func LoadGit(ctx context.Context, dir, ref string, paths []string) (*Side, error) {
	if ref == "" || strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, "\x00\n\r") {
		return nil, &GitError{fmt.Sprintf("--against %q is not a git ref (a ref does not start with - and has no line breaks)", ref)}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, &GitError{fmt.Sprintf("--against %s: it is no file or directory, and git is not installed to read it as a git ref", ref)}
	}
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		msg := fmt.Sprintf("--against %s: it is no file or directory, and %s is not in a git repository to read it as a ref", ref, absDir(dir))
		if e := err.Error(); !strings.Contains(e, "not a git repository") {
			msg += " (git: " + firstLine(e) + ")" // e.g. a repository git does not trust (safe.directory)
		}
		return nil, &GitError{msg}
	}
	root := strings.TrimRight(string(top), "\n")
	commit, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return nil, &GitError{fmt.Sprintf("--against %s: no such git ref (branch, tag or commit) in %s, and no such file or directory; for a remote branch, fetch it first (git fetch origin; actions/checkout with fetch-depth: 0)", ref, root)}
	}
	sha := strings.TrimSpace(string(commit))
	cwd := absDir(dir)
	// Paths relative to the repository root, as ls-tree takes them with
	// --full-tree; display names relative to the working directory.
	var rels []string
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(p) {
			abs = filepath.Join(cwd, p)
		}
		rel, err := filepath.Rel(evalSymlinks(root), evalSymlinks(abs))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, &GitError{fmt.Sprintf("%s is outside the git repository %s; --against %s reads paths inside it", p, root, ref)}
		}
		rels = append(rels, filepath.ToSlash(rel))
	}
	args := []string{"--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", sha, "--"}
	whole := false
	for _, r := range rels {
		if r == "." {
			whole = true
		}
		args = append(args, r)
	}
	if whole {
		args = args[:7]
	}
	list, err := git(ctx, root, args...)
	if err != nil {
		return nil, &GitError{fmt.Sprintf("--against %s: listing the files at %s: %v", ref, sha[:min(12, len(sha))], err)}
	}
	type entry struct{ path, object string }
	var entries []entry
	for _, rec := range bytes.Split(list, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 {
			continue
		}
		meta := strings.Fields(string(rec[:tab]))
		path := string(rec[tab+1:])
		if len(meta) != 3 || meta[1] != "blob" || (meta[0] != "100644" && meta[0] != "100755") {
			continue // symlinks, submodules
		}
		if !spec.IsToolFile(path) || hiddenBelow(path, rels) {
			continue
		}
		entries = append(entries, entry{path, meta[2]})
		if len(entries) > MaxGitFiles {
			return nil, &GitError{fmt.Sprintf("--against %s: more than %d tool files at that revision; name the directories to compare", ref, MaxGitFiles)}
		}
	}
	side := &Side{Label: ref, Ref: ref}
	if len(entries) == 0 {
		return side, nil
	}
	// One git cat-file --batch for every object.
	var in bytes.Buffer
	for _, e := range entries {
		in.WriteString(e.object + "\n")
	}
	cmd := exec.CommandContext(ctx, "git", "cat-file", "--batch")
	cmd.Dir = root
	cmd.Stdin = &in
	cmd.Env = gitEnv()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &GitError{err.Error()}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, &GitError{fmt.Sprintf("--against %s: running git: %v", ref, err)}
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	r := bufio.NewReader(out)
	total := 0
	for _, e := range entries {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, &GitError{fmt.Sprintf("--against %s: reading %s: %v %s", ref, e.path, err, strings.TrimSpace(stderr.String()))}
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[1] != "blob" {
			return nil, &GitError{fmt.Sprintf("--against %s: reading %s: git said %q", ref, e.path, strings.TrimSpace(header))}
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size < 0 {
			return nil, &GitError{fmt.Sprintf("--against %s: reading %s: bad size in %q", ref, e.path, strings.TrimSpace(header))}
		}
		display := ref + ":" + displayPath(cwd, root, e.path)
		if size > spec.MaxFileSize {
			if _, err := io.CopyN(io.Discard, r, int64(size)+1); err != nil {
				return nil, &GitError{err.Error()}
			}
			return nil, &GitError{fmt.Sprintf("%s: %s", display, spec.TooLargeMsg(size))}
		}
		if total += size; total > MaxGitBytes {
			return nil, &GitError{fmt.Sprintf("--against %s: the tool files at that revision are over %d MiB; name the directories to compare", ref, MaxGitBytes>>20)}
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, &GitError{fmt.Sprintf("--against %s: reading %s: %v", ref, e.path, err)}
		}
		if err := side.addFile(spec.ParseFile(display, data[:size])); err != nil {
			return nil, err
		}
	}
	return side, nil
}

// IsGitRef reports whether ref names a commit in the git repository dir
// is in (false without git or a repository).
func IsGitRef(ctx context.Context, dir, ref string) bool {
	if ref == "" || strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, "\x00\n\r") {
		return false
	}
	if _, err := exec.LookPath("git"); err != nil {
		return false
	}
	_, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	return err == nil
}

// GitRefs lists the branches, tags and remote branches of the repository
// dir is in (for shell completion); nil without git or a repository.
func GitRefs(ctx context.Context, dir string) []string {
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	out, err := git(ctx, dir, "for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/tags", "refs/remotes")
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// git runs git with args in dir and returns its stdout.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out, nil
}

// gitEnv is the environment git runs with: no prompts, no pager, C
// messages.
func gitEnv() []string {
	return append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0")
}

func absDir(dir string) string {
	if dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

func evalSymlinks(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	// A path gone from the work tree: resolve what still exists above it.
	parent, base := filepath.Split(filepath.Clean(p))
	if parent == "" || filepath.Clean(parent) == filepath.Clean(p) {
		return p
	}
	return filepath.Join(evalSymlinks(filepath.Clean(parent)), base)
}

// displayPath is a repository path as the user would name it from cwd.
func displayPath(cwd, root, path string) string {
	abs := filepath.Join(root, filepath.FromSlash(path))
	if rel, err := filepath.Rel(evalSymlinks(cwd), abs); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

// hiddenBelow reports whether a path has a hidden file or directory below
// the given path it was listed under (walking a directory skips them, as
// spec.Collect does).
func hiddenBelow(path string, rels []string) bool {
	for _, r := range rels {
		r = strings.TrimSuffix(r, "/")
		if r == "." {
			r = ""
		}
		rest := path
		if r != "" {
			if path == r {
				return false // named itself
			}
			if !strings.HasPrefix(path, r+"/") {
				continue
			}
			rest = path[len(r)+1:]
		}
		for _, part := range strings.Split(rest, "/") {
			if strings.HasPrefix(part, ".") {
				return true
			}
		}
		return false
	}
	return false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
