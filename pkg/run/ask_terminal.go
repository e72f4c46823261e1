package run

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/toolctl/toolctl/pkg/spec"
)

// TerminalClient answers a tool's requests to the client from the person
// at the terminal where toolctl run runs (stdin and stderr both
// terminals): they type the model's reply to a sampling request, and
// fill in an elicitation's form field by field. Prompts go to Out, never
// to stdout, which carries the result.
type TerminalClient struct {
	In  io.Reader
	Out io.Writer

	once sync.Once
	br   *bufio.Reader
	mu   sync.Mutex
	// pending is the read under way: a call that ended while it waited
	// leaves it to the next prompt, which must not read beside it.
	pending chan termRead
}

type termRead struct {
	s   string
	err error
}

// Printable is s for a terminal: control characters (escape sequences
// included) and bidirectional controls become U+FFFD, so text from a tool
// or a model cannot move the cursor, recolour, set the clipboard (OSC 52)
// or reorder what is shown; newlines and tabs stay when keepLines.
func Printable(s string, keepLines bool) string {
	return strings.Map(func(r rune) rune {
		if keepLines && (r == '\n' || r == '\t') {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}

// maxTerminalLine bounds a typed line.
const maxTerminalLine = 64 << 10

// errDeclined is a request the person declined.
func errDeclined(method string) error {
	return &AskError{Method: method, Code: -1, Message: "declined at the terminal"}
}

func (t *TerminalClient) Ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.once.Do(func() { t.br = bufio.NewReaderSize(t.In, 4096) })
	p, err := spec.DecodeJSON(params)
	if err != nil {
		return nil, err
	}
	m, _ := p.(*spec.Map)
	if m == nil {
		return nil, fmt.Errorf("the %s params are not an object", method)
	}
	switch method {
	case MethodSample:
		return t.sample(ctx, m)
	case MethodElicit:
		return t.elicit(ctx, m)
	}
	return nil, fmt.Errorf("cannot answer %s at the terminal", method)
}

// line reads one typed line, or fails when the call ends first.
func (t *TerminalClient) line(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(t.Out, prompt)
	if t.pending == nil {
		t.pending = make(chan termRead, 1)
		go t.read(t.pending)
	}
	select {
	case r := <-t.pending:
		t.pending = nil
		if r.err != nil {
			return "", fmt.Errorf("no answer typed (%v)", r.err)
		}
		return r.s, nil
	case <-ctx.Done():
		fmt.Fprintln(t.Out)
		return "", ctx.Err()
	}
}

// read reads one line into ch.
func (t *TerminalClient) read(ch chan<- termRead) {
	var b []byte
	for {
		chunk, err := t.br.ReadSlice('\n')
		if len(b) < maxTerminalLine {
			b = append(b, chunk[:min(len(chunk), maxTerminalLine-len(b))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(b) == 0 {
			ch <- termRead{err: err}
			return
		}
		ch <- termRead{s: strings.TrimRight(string(b), "\r\n")}
		return
	}
}

func (t *TerminalClient) sample(ctx context.Context, m *spec.Map) (json.RawMessage, error) {
	fmt.Fprintln(t.Out, "The tool asks the client's model (sampling/createMessage):")
	if sp, ok := m.GetString("systemPrompt"); ok && sp != "" {
		fmt.Fprintf(t.Out, "  [system] %s\n", Printable(sp, true))
	}
	if msgs, ok := m.Get("messages"); ok {
		list, _ := msgs.([]any)
		for _, x := range list {
			msg, _ := x.(*spec.Map)
			if msg == nil {
				continue
			}
			role, _ := msg.GetString("role")
			fmt.Fprintf(t.Out, "  [%s] %s\n", Printable(role, false), Printable(messageText(msg), true))
		}
	}
	reply, err := t.line(ctx, "Type the model's reply (an empty line declines): ")
	if err != nil {
		return nil, err
	}
	if reply == "" {
		return nil, errDeclined(MethodSample)
	}
	return json.Marshal(map[string]any{
		"role":       "assistant",
		"content":    map[string]any{"type": "text", "text": reply},
		"model":      "typed at the terminal (toolctl run)",
		"stopReason": "endTurn",
	})
}

// messageText is a sampling message's content as a line of text.
func messageText(msg *spec.Map) string {
	c, _ := msg.Get("content")
	items, ok := c.([]any)
	if !ok {
		items = []any{c}
	}
	var parts []string
	for _, it := range items {
		cm, _ := it.(*spec.Map)
		if cm == nil {
			continue
		}
		typ, _ := cm.GetString("type")
		if typ == "text" {
			s, _ := cm.GetString("text")
			parts = append(parts, s)
			continue
		}
		mt, _ := cm.GetString("mimeType")
		parts = append(parts, "["+typ+" "+mt+"]")
	}
	return strings.Join(parts, " ")
}

func (t *TerminalClient) elicit(ctx context.Context, m *spec.Map) (json.RawMessage, error) {
	msg, _ := m.GetString("message")
	fmt.Fprintf(t.Out, "The tool asks you (elicitation/create): %s\n", Printable(msg, true))
	for {
		a, err := t.line(ctx, "Answer? [a]ccept, [d]ecline, [c]ancel: ")
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(strings.TrimSpace(a)) {
		case "a", "accept", "y", "yes":
			content, err := t.form(ctx, m)
			if err != nil {
				return nil, err
			}
			return json.Marshal(map[string]any{"action": "accept", "content": content})
		case "d", "decline", "n", "no":
			return json.Marshal(map[string]any{"action": "decline"})
		case "c", "cancel":
			return json.Marshal(map[string]any{"action": "cancel"})
		}
	}
}

// form asks for each property of the requested schema in turn.
func (t *TerminalClient) form(ctx context.Context, m *spec.Map) (map[string]any, error) {
	content := map[string]any{}
	schema, _ := m.Get("requestedSchema")
	sm, _ := schema.(*spec.Map)
	if sm == nil {
		return content, nil
	}
	required := map[string]bool{}
	if r, ok := sm.Get("required"); ok {
		list, _ := r.([]any)
		for _, x := range list {
			if s, ok := x.(string); ok {
				required[s] = true
			}
		}
	}
	props, _ := sm.Get("properties")
	pm, _ := props.(*spec.Map)
	if pm == nil {
		return content, nil
	}
	for _, name := range pm.Keys() {
		v, _ := pm.Get(name)
		prop, _ := v.(*spec.Map)
		if prop == nil {
			continue
		}
		f := newField(name, prop, required[name])
		for tries := 0; ; tries++ {
			s, err := t.line(ctx, f.prompt())
			if err != nil {
				return nil, err
			}
			val, set, err := f.parse(s)
			if err == nil {
				if set {
					content[name] = val
				}
				break
			}
			fmt.Fprintf(t.Out, "  %s\n", Printable(err.Error(), false))
			if tries >= 9 {
				return nil, fmt.Errorf("no valid value typed for %s", name)
			}
		}
	}
	return content, nil
}

// field is one form field of an elicitation's requested schema: a
// string, number, integer or boolean, one of a list (enum, oneOf of
// const/title) or several of one (an array of them).
type field struct {
	name, typ, desc string
	choices         []string // allowed values (enum, oneOf const)
	multi           bool     // an array of them
	def             any
	hasDef          bool
	required        bool
}

func newField(name string, prop *spec.Map, required bool) *field {
	f := &field{name: name, required: required}
	f.typ, _ = prop.GetString("type")
	f.desc, _ = prop.GetString("title")
	if d, ok := prop.GetString("description"); ok && f.desc == "" {
		f.desc = d
	}
	f.def, f.hasDef = prop.Get("default")
	choicesOf := func(s *spec.Map) []string {
		var out []string
		if e, ok := s.Get("enum"); ok {
			list, _ := e.([]any)
			for _, x := range list {
				out = append(out, fmt.Sprint(x))
			}
		}
		for _, key := range []string{"oneOf", "anyOf"} {
			if o, ok := s.Get(key); ok {
				list, _ := o.([]any)
				for _, x := range list {
					if om, _ := x.(*spec.Map); om != nil {
						if c, ok := om.Get("const"); ok {
							out = append(out, fmt.Sprint(c))
						}
					}
				}
			}
		}
		return out
	}
	f.choices = choicesOf(prop)
	if f.typ == "array" {
		f.multi = true
		if it, ok := prop.Get("items"); ok {
			if im, _ := it.(*spec.Map); im != nil {
				f.choices = choicesOf(im)
			}
		}
	}
	return f
}

func (f *field) prompt() string {
	var b strings.Builder
	b.WriteString("  " + f.name)
	hint := f.typ
	if len(f.choices) > 0 {
		hint = "one of " + strings.Join(f.choices, "|")
		if f.multi {
			hint = "comma-separated, of " + strings.Join(f.choices, "|")
		}
	} else if f.multi {
		hint = "comma-separated"
	}
	if hint != "" {
		b.WriteString(" (" + hint + ")")
	}
	if f.desc != "" {
		b.WriteString(" " + f.desc)
	}
	if f.hasDef {
		b.WriteString(fmt.Sprintf(" [%v]", f.def))
	} else if !f.required {
		b.WriteString(" [optional]")
	}
	b.WriteString(": ")
	return Printable(b.String(), false)
}

// parse reads a typed value; set false leaves the field out.
func (f *field) parse(s string) (any, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		switch {
		case f.hasDef:
			return f.def, true, nil
		case f.required:
			return nil, false, errors.New(f.name + " is required")
		}
		return nil, false, nil
	}
	in := func(v string) error {
		if len(f.choices) == 0 {
			return nil
		}
		for _, c := range f.choices {
			if c == v {
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", v, strings.Join(f.choices, ", "))
	}
	if f.multi {
		var out []any
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if err := in(part); err != nil {
				return nil, false, err
			}
			out = append(out, part)
		}
		return out, true, nil
	}
	switch f.typ {
	case "integer":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%q is not a whole number", s)
		}
		return n, true, in(s)
	case "number":
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%q is not a number", s)
		}
		return n, true, in(s)
	case "boolean":
		switch strings.ToLower(s) {
		case "y", "yes", "true":
			return true, true, nil
		case "n", "no", "false":
			return false, true, nil
		}
		return nil, false, fmt.Errorf("%q is not yes or no", s)
	}
	return s, true, in(s)
}
