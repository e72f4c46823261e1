package builtin

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

// A caller cannot point llm_call at its own server to receive the
// configured API key: base_url from the input needs the caller's own key.
func TestLLMCallCallerBaseURLGetsNoConfiguredKey(t *testing.T) {
	llm := newFakeLLM(t)
	tool := htBundled(t, "llm_call")
	env := map[string]string{"OPENAI_API_KEY": "sk-configured-123", "TOOLCTL_LLM_MODEL": "m"}
	c := htCall(t, tool, `{"messages": [{"role": "user", "content": "Hi"}], "base_url": "`+llm.srv.URL+`/v1"}`, env)
	_, err := htHandler(t, "llm_call", c)
	if e := htError(t, err, run.ValidationError); e.Param != "base_url" || !strings.Contains(e.Message, "bind") {
		t.Errorf("got %+v", e)
	}
	if llm.auth != "" {
		t.Fatalf("the configured key was sent to the caller's server: %q", llm.auth)
	}

	// the caller's own key may go to the caller's own server
	c = htCall(t, tool, `{"messages": [{"role": "user", "content": "Hi"}], "base_url": "`+llm.srv.URL+`/v1", "api_key": "sk-callers-own"}`, env)
	if _, err := htHandler(t, "llm_call", c); err != nil {
		t.Fatal(err)
	}
	if llm.auth != "Bearer sk-callers-own" {
		t.Errorf("auth %q", llm.auth)
	}
}
