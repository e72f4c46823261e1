package run

import (
	"sort"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Redacted replaces a secret wherever it would be printed.
const Redacted = "***"

// minSecretLen keeps very short values (a bound "1", "x") from being
// redacted everywhere they happen to occur in unrelated text.
const minSecretLen = 3

// Secrets is the set of values that must never reach output: values bound
// from the environment and values substituted from ${ENV}. It is safe for
// concurrent use.
type Secrets struct {
	mu     sync.RWMutex
	values map[string]bool
}

// Add records a secret value.
func (s *Secrets) Add(v string) {
	if s == nil || len(v) < minSecretLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[string]bool{}
	}
	s.values[v] = true
}

// Len is the number of secrets recorded.
func (s *Secrets) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.values)
}

// Redact replaces every secret in text by ***, longest first so that a
// secret containing another is hidden whole.
func (s *Secrets) Redact(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	list := make([]string, 0, len(s.values))
	for v := range s.values {
		list = append(list, v)
	}
	s.mu.RUnlock()
	if len(list) == 0 {
		return text
	}
	sort.Slice(list, func(i, j int) bool {
		if len(list[i]) != len(list[j]) {
			return len(list[i]) > len(list[j])
		}
		return list[i] < list[j]
	})
	for _, v := range list {
		text = strings.ReplaceAll(text, v, Redacted)
	}
	return text
}

// RedactValue returns a copy of a JSON-like value with every string
// redacted (map keys included).
func (s *Secrets) RedactValue(v any) any {
	if s.Len() == 0 {
		return v
	}
	return s.redactValue(v)
}

func (s *Secrets) redactValue(v any) any {
	switch v := v.(type) {
	case string:
		return s.Redact(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = s.redactValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[s.Redact(k)] = s.redactValue(e)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, e := range v {
			out[i] = s.Redact(e)
		}
		return out
	case *spec.Map:
		if v == nil {
			return v
		}
		out := spec.NewMap(v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			out.Set(s.Redact(k), s.redactValue(e))
		}
		return out
	}
	return v
}
