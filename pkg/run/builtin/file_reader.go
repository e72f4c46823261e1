package builtin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/run"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// file_reader reads one file below a root directory (Options.FileRoot, or
// the working directory). The file is opened through os.Root, which
// refuses ".." and symbolic links that lead out of the root at the moment
// of opening (no check-then-open race); the checks before it only make the
// error message precise.
//
// max_bytes caps what is returned: without a line range, at most max_bytes
// bytes of the file are read (a file larger than that comes back cut, with
// truncated: true, never as an error); with a line range the file is
// streamed and max_bytes caps the selected lines' text.

const (
	frDefaultMax = 1 << 20
	// frHardMax bounds max_bytes whatever the schema says: the content is
	// held in memory and printed.
	frHardMax = 10 << 20
)

type frArgs struct {
	root, rootShown string
	path, rel       string
	encoding        string
	maxBytes        int
	startLine       int
	endLine         int // 0: to the end
}

func fileReaderHandler(ctx context.Context, c *run.Call) (any, error) {
	a, err := frReadArgs(c)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(a.root)
	if err != nil {
		return nil, &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf("cannot open the file root %q: %v", a.rootShown, frCause(err)), Err: err}
	}
	defer root.Close()

	// Stat first: opening a FIFO would block, and a directory is a
	// mistake worth its own message.
	info, err := root.Stat(a.rel)
	if err != nil {
		return nil, frOpenError(a, err)
	}
	if info.IsDir() {
		return nil, &run.Error{Kind: run.ValidationError, Param: "path", Message: fmt.Sprintf("path %q is a directory; file_reader reads files (give a file below it)", a.path)}
	}
	if !info.Mode().IsRegular() {
		return nil, &run.Error{Kind: run.ValidationError, Param: "path", Message: fmt.Sprintf("path %q is not a regular file (%s); file_reader reads regular files only", a.path, info.Mode().Type())}
	}
	f, err := root.Open(a.rel)
	if err != nil {
		return nil, frOpenError(a, err)
	}
	defer f.Close()

	out := map[string]any{
		"path":     filepath.ToSlash(a.rel),
		"size":     info.Size(),
		"encoding": a.encoding,
	}
	if a.startLine != 1 || a.endLine != 0 {
		err = frReadLines(ctx, f, a, out)
	} else {
		err = frReadAll(f, a, out)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func frReadArgs(c *run.Call) (frArgs, error) {
	var a frArgs
	var err error
	if c.Options != nil {
		a.root = c.Options.FileRoot
	}
	if a.root == "" {
		if a.root, err = os.Getwd(); err != nil {
			return a, &run.Error{Kind: run.ToolExecutionError, Message: "cannot find the working directory to use as the file root: " + err.Error(), Err: err}
		}
	}
	a.rootShown = a.root
	if a.root, err = filepath.Abs(a.root); err != nil {
		return a, &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf("file root %q: %v", a.rootShown, err), Err: err}
	}
	if a.path, err = c.String("path", ""); err != nil {
		return a, err
	}
	if a.rel, err = frRelative(a); err != nil {
		return a, err
	}
	if a.encoding, err = c.String("encoding", "utf-8"); err != nil {
		return a, err
	}
	if a.encoding, err = frEncodingName(a.encoding); err != nil {
		return a, err
	}
	if a.maxBytes, err = c.Int("max_bytes", frDefaultMax); err != nil {
		return a, err
	}
	if a.maxBytes < 1 || a.maxBytes > frHardMax {
		return a, &run.Error{Kind: run.ValidationError, Param: "max_bytes", Message: fmt.Sprintf("max_bytes %d is out of range; use 1 to %d (10 MiB), and a line range to read parts of larger files", a.maxBytes, frHardMax)}
	}
	if a.startLine, err = c.Int("start_line", 1); err != nil {
		return a, err
	}
	if a.endLine, err = c.Int("end_line", 0); err != nil {
		return a, err
	}
	switch {
	case a.startLine == 0:
		return a, &run.Error{Kind: run.ValidationError, Param: "start_line", Message: "start_line 0 does not exist: lines count from 1 (a negative number counts from the end: -20 is the last 20 lines)"}
	case a.endLine < 0:
		return a, &run.Error{Kind: run.ValidationError, Param: "end_line", Message: fmt.Sprintf("end_line %d is negative; give the last line wanted (counting from 1), or leave it out to read to the end", a.endLine)}
	case a.endLine != 0 && a.startLine > 0 && a.endLine < a.startLine:
		return a, &run.Error{Kind: run.ValidationError, Param: "end_line", Message: fmt.Sprintf("end_line %d is before start_line %d", a.endLine, a.startLine)}
	case a.endLine != 0 && a.startLine < 0:
		return a, &run.Error{Kind: run.ValidationError, Param: "end_line", Message: "end_line cannot be combined with a negative start_line (the last lines of the file); leave it out"}
	case a.encoding == "base64" && (a.startLine != 1 || a.endLine != 0):
		return a, &run.Error{Kind: run.ValidationError, Param: "encoding", Message: "a line range cannot be used with encoding base64; read binary files whole (max_bytes limits the size)"}
	}
	return a, nil
}

// frRelative turns the path parameter into a path relative to the root,
// refusing what obviously leaves it. An absolute path is accepted when it
// lies inside the root.
func frRelative(a frArgs) (string, error) {
	p := strings.TrimSpace(a.path)
	if p == "" {
		return "", &run.Error{Kind: run.ValidationError, Param: "path", Message: "path is empty; give a file path relative to the root " + a.rootShown}
	}
	if filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		rel, ok := frWithin(a.root, p)
		if !ok {
			// The root may be reached through a symbolic link (/tmp on
			// macOS): compare the resolved forms too.
			if real, err := filepath.EvalSymlinks(a.root); err == nil {
				rel, ok = frWithin(real, p)
			}
		}
		if !ok {
			return "", &run.Error{Kind: run.ValidationError, Param: "path", Message: fmt.Sprintf("path %q is outside the file root %q; file_reader only reads files below the root (give a path relative to it)", a.path, a.rootShown)}
		}
		p = rel
	}
	if !filepath.IsLocal(p) {
		return "", &run.Error{Kind: run.ValidationError, Param: "path", Message: fmt.Sprintf("path %q leaves the file root %q through \"..\"; file_reader only reads files below the root", a.path, a.rootShown)}
	}
	return filepath.Clean(p), nil
}

// frWithin returns p relative to root when p is root or below it.
func frWithin(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", false
	}
	return rel, true
}

// frOpenError explains why os.Root refused or failed to open the file.
func frOpenError(a frArgs, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &run.Error{Kind: run.NotFoundError, Message: fmt.Sprintf("file %q not found under the file root %q; paths are relative to the root", a.path, a.rootShown), Err: err}
	}
	if frEscapes(a) || strings.Contains(err.Error(), "escapes") {
		return &run.Error{Kind: run.ValidationError, Param: "path", Message: fmt.Sprintf("path %q leads outside the file root %q through a symbolic link; file_reader only reads files below the root", a.path, a.rootShown), Err: err}
	}
	if errors.Is(err, fs.ErrPermission) {
		return &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf("permission denied reading %q", a.path), Err: err}
	}
	return &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf("cannot read %q: %v", a.path, frCause(err)), Err: err}
}

// frEscapes reports whether the path resolves, through symbolic links, to
// a place outside the root.
func frEscapes(a frArgs) bool {
	realRoot, err := filepath.EvalSymlinks(a.root)
	if err != nil {
		return false
	}
	target, err := filepath.EvalSymlinks(filepath.Join(a.root, a.rel))
	if err != nil {
		return false
	}
	_, ok := frWithin(realRoot, target)
	return !ok
}

// frCause drops the *PathError wrapping, whose path repeats ours.
func frCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func frEncodingName(s string) (string, error) {
	switch strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(s)) {
	case "utf8", "":
		return "utf-8", nil
	case "latin1", "iso88591", "cp1252", "windows1252":
		return "latin-1", nil
	case "utf16", "utf16le", "utf16be":
		return "utf-16", nil
	case "base64", "binary":
		return "base64", nil
	}
	return "", &run.Error{Kind: run.ValidationError, Param: "encoding", Message: fmt.Sprintf("encoding %q is not supported; use utf-8, latin-1, utf-16 or base64 (for binary files)", s)}
}

// frDecoder turns the file's bytes into UTF-8. latin-1 is read as
// Windows-1252, its superset, as browsers do; utf-16 follows a byte order
// mark and is little-endian without one.
func frDecoder(enc string) *encoding.Decoder {
	switch enc {
	case "latin-1":
		return charmap.Windows1252.NewDecoder()
	case "utf-16":
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
	}
	return unicode.UTF8BOM.NewDecoder() // drops a leading BOM, replaces bad bytes with U+FFFD
}

// frBinary refuses content that is clearly not text in the encoding given.
func frBinary(a frArgs, text string) error {
	if i := strings.IndexByte(text, 0); i >= 0 {
		hint := "use encoding: base64 to read a binary file"
		if a.encoding != "utf-16" {
			hint += ", or utf-16 if it is UTF-16 text"
		}
		return &run.Error{Kind: run.ValidationError, Param: "encoding", Message: fmt.Sprintf("%q does not look like %s text (it has a NUL character); %s", a.path, a.encoding, hint)}
	}
	return nil
}

// frReadAll reads the start of the file, up to max_bytes.
func frReadAll(f io.Reader, a frArgs, out map[string]any) error {
	data, err := io.ReadAll(io.LimitReader(f, int64(a.maxBytes)+1))
	if err != nil {
		return &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf("cannot read %q: %v", a.path, frCause(err)), Err: err}
	}
	truncated := len(data) > a.maxBytes
	if truncated {
		data = data[:a.maxBytes]
	}
	out["truncated"] = truncated
	if a.encoding == "base64" {
		out["content"] = base64.StdEncoding.EncodeToString(data)
		return nil
	}
	if truncated {
		data = frCutCharacter(data, a.encoding)
	}
	text, err := frDecoder(a.encoding).String(string(data))
	if err != nil {
		return &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf("cannot decode %q as %s: %v", a.path, a.encoding, err), Err: err}
	}
	if err := frBinary(a, text); err != nil {
		return err
	}
	out["content"] = text
	return nil
}

// frCutCharacter drops a character that max_bytes cut in two.
func frCutCharacter(data []byte, enc string) []byte {
	switch enc {
	case "utf-8":
		for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
			if utf8.RuneStart(data[i]) {
				if !utf8.FullRune(data[i:]) {
					return data[:i]
				}
				break
			}
		}
	case "utf-16":
		return data[:len(data)&^1]
	}
	return data
}

// frReadLines streams the file and keeps the lines asked for: start_line
// to end_line (1-based, inclusive), or with a negative start_line the last
// lines. Lines keep their ending.
func frReadLines(ctx context.Context, f io.Reader, a frArgs, out map[string]any) error {
	r := bufio.NewReaderSize(transform.NewReader(f, frDecoder(a.encoding)), 64<<10)
	tail := a.startLine < 0
	var kept []string // tail mode: the last lines, at most max_bytes of them
	keptBytes := 0
	var content strings.Builder
	truncated, reachedEOF := false, false
	first, last, n := 0, 0, 0
	for {
		if n%4096 == 0 && ctx.Err() != nil {
			kind := run.ToolExecutionError
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				kind = run.TimeoutError
			}
			return &run.Error{Kind: kind, Message: fmt.Sprintf("reading %q was stopped: %v", a.path, ctx.Err()), Err: ctx.Err()}
		}
		if !tail && a.endLine != 0 && n >= a.endLine {
			break
		}
		want := tail || n+1 >= a.startLine
		line, eof, err := frLine(r, want, a.maxBytes)
		if err != nil {
			return &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf("cannot read %q: %v", a.path, frCause(err)), Err: err}
		}
		reachedEOF = eof
		if eof && line == "" {
			break
		}
		n++
		if want {
			if err := frBinary(a, line); err != nil {
				return err
			}
			if tail {
				kept = append(kept, line)
				keptBytes += len(line)
				for len(kept) > 0 && (len(kept) > -a.startLine || keptBytes > a.maxBytes) {
					keptBytes -= len(kept[0])
					kept = kept[1:]
				}
			} else {
				if first == 0 {
					first = n
				}
				if room := a.maxBytes - content.Len(); len(line) > room {
					content.WriteString(frCutString(line, room))
					truncated = true
				} else {
					content.WriteString(line)
				}
				last = n
			}
		}
		if eof || truncated {
			break
		}
	}
	if tail {
		// Whole lines only: the oldest ones that did not fit are dropped.
		truncated = len(kept) < min(-a.startLine, n)
		for _, l := range kept {
			content.WriteString(l)
		}
		if len(kept) > 0 {
			first, last = n-len(kept)+1, n
		}
	}
	if reachedEOF {
		out["total_lines"] = int64(n)
	}
	out["content"] = content.String()
	out["truncated"] = truncated
	out["start_line"] = int64(first)
	out["end_line"] = int64(last)
	return nil
}

// frLine reads one line including its "\n". A line not wanted is skipped
// without being kept; a wanted one keeps at most limit+1 bytes, so a huge
// line cannot exhaust memory.
func frLine(r *bufio.Reader, want bool, limit int) (string, bool, error) {
	var b bytes.Buffer
	for {
		chunk, err := r.ReadSlice('\n')
		if want && b.Len() <= limit {
			b.Write(chunk[:min(len(chunk), limit+1-b.Len())])
		}
		switch {
		case err == nil:
			if !want {
				return "\n", false, nil // any non-empty marker
			}
			return b.String(), false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if !want && b.Len() == 0 {
				b.WriteByte('x') // remember that the line is not empty
			}
			continue
		case errors.Is(err, io.EOF):
			if !want && (b.Len() > 0 || len(chunk) > 0) {
				return "x", true, nil
			}
			return b.String(), true, nil
		default:
			return "", false, err
		}
	}
}

// frCutString cuts s to at most n bytes without splitting a character.
func frCutString(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
