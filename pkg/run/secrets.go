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
	return redact(text, s.sorted())
}

// sorted lists the secrets longest first (then in order), the order in
// which they are replaced.
func (s *Secrets) sorted() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	list := make([]string, 0, len(s.values))
	for v := range s.values {
		list = append(list, v)
	}
	s.mu.RUnlock()
	sort.Slice(list, func(i, j int) bool {
		if len(list[i]) != len(list[j]) {
			return len(list[i]) > len(list[j])
		}
		return list[i] < list[j]
	})
	return list
}

func redact(text string, secrets []string) string {
	for _, v := range secrets {
		text = strings.ReplaceAll(text, v, Redacted)
	}
	return text
}

// RedactValue returns a copy of a JSON-like value with every string
// redacted (map keys included). The secrets are listed once for the whole
// value, not once per string.
func (s *Secrets) RedactValue(v any) any {
	list := s.sorted()
	if len(list) == 0 {
		return v
	}
	return redactValue(v, list)
}

func redactValue(v any, secrets []string) any {
	switch v := v.(type) {
	case string:
		return redact(v, secrets)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redactValue(e, secrets)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[redact(k, secrets)] = redactValue(e, secrets)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, e := range v {
			out[i] = redact(e, secrets)
		}
		return out
	case *spec.Map:
		if v == nil {
			return v
		}
		out := spec.NewMap(v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			out.Set(redact(k, secrets), redactValue(e, secrets))
		}
		return out
	}
	return v
}
