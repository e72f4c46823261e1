package builtin

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The llm_call builtin: one request to an OpenAI-compatible
// POST {base_url}/chat/completions (tools/llm_call.yaml).
//
// The base URL, API key and model come from the call's parameters when the
// tool file has them, else from config (llm.base_url, llm.api_key_env,
// llm.model), else from the environment (OPENAI_BASE_URL, OPENAI_API_KEY,
// TOOLCTL_LLM_MODEL). A base_url the caller passes (not bound) is accepted
// only with the caller's own api_key: it would receive the key.

const (
	llmDefaultBaseURL = "https://api.openai.com/v1"
	llmDefaultKeyEnv  = "OPENAI_API_KEY"
	// llmDefaultModel is used only against OpenAI itself, where it is
	// known to exist; any other endpoint needs a model named.
	llmDefaultModel = "gpt-4o-mini"
)

type llmCall struct{}

// Networked: it sends a request.
func (llmCall) Networked(*spec.Tool) bool { return true }

// Method: a completion request creates nothing, so it is retried like an
// idempotent call although it is a POST.
func (llmCall) Method(*run.Call) string { return "" }

// Plan is the request, for --dry-run.
func (llmCall) Plan(c *run.Call) (any, error) {
	req, _, err := buildLLMRequest(c)
	if err != nil {
		return nil, err
	}
	return req.Plan(), nil
}

func (llmCall) Execute(ctx context.Context, c *run.Call) (any, error) {
	req, model, err := buildLLMRequest(c)
	if err != nil {
		return nil, err
	}
	resp, err := run.SendHTTP(ctx, c, req)
	if err != nil {
		return nil, err
	}
	return llmResult(req, resp, model)
}

// buildLLMRequest resolves the endpoint, key and model and builds the
// request; model is the one asked for.
func buildLLMRequest(c *run.Call) (*run.HTTPRequest, string, error) {
	base, err := llmSetting(c, "base_url", "llm.base_url", "OPENAI_BASE_URL")
	if err != nil {
		return nil, "", err
	}
	if base == "" {
		base = llmDefaultBaseURL
	}
	u, err := run.CheckHTTPURL(strings.TrimRight(base, "/") + "/chat/completions")
	if err != nil {
		return nil, "", run.Errorf(run.ValidationError, "the llm base URL %q is not valid: %v; set llm.base_url in .toolctl.yaml or OPENAI_BASE_URL to the endpoint's base, like %s", base, err, llmDefaultBaseURL)
	}

	key, err := c.String("api_key", "")
	if err != nil {
		return nil, "", err
	}
	// A base URL the caller chose may receive only the caller's own key:
	// the configured one would go to whatever server the agent names.
	if v, _ := c.Input["base_url"].(string); v != "" && !run.IsBound(c.Tool, "base_url") && (key == "" || run.IsBound(c.Tool, "api_key")) {
		return nil, "", &run.Error{Kind: run.ValidationError, Param: "base_url", Message: `parameter "base_url" was passed by the caller, and the API key configured for the tool would be sent to it; leave base_url out (llm.base_url in .toolctl.yaml or OPENAI_BASE_URL set the endpoint), or, in the tool file, bind it (bind: {base_url: {config: llm.base_url}})`}
	}
	if key == "" {
		keyEnv, err := llmConfig(c, "llm.api_key_env")
		if err != nil {
			return nil, "", err
		}
		if keyEnv == "" {
			keyEnv = llmDefaultKeyEnv
		}
		key = c.Env(keyEnv)
		if key == "" {
			return nil, "", &run.Error{Kind: run.ValidationError, Param: "api_key", Message: fmt.Sprintf("no API key for %s: set the environment variable %s (llm.api_key_env in .toolctl.yaml names another variable)", u.Host, keyEnv)}
		}
	}
	c.Secrets.Add(key)

	model, err := llmSetting(c, "model", "llm.model", "TOOLCTL_LLM_MODEL")
	if err != nil {
		return nil, "", err
	}
	if model == "" {
		if strings.TrimRight(base, "/") != llmDefaultBaseURL {
			return nil, "", &run.Error{Kind: run.ValidationError, Param: "model", Message: fmt.Sprintf("no model for %s: pass model, or set llm.model in .toolctl.yaml or TOOLCTL_LLM_MODEL", base)}
		}
		model = llmDefaultModel
	}

	messages, ok := c.Input["messages"].([]any)
	if !ok || len(messages) == 0 {
		return nil, "", &run.Error{Kind: run.ValidationError, Param: "messages", Message: `parameter "messages" must be a non-empty list of {role, content} objects`}
	}

	// optional settings are sent only when given, so that the endpoint's
	// defaults apply and models that reject one (temperature on reasoning
	// models) still work when it is left out
	body := spec.NewMap(5)
	body.Set("model", model)
	body.Set("messages", messages)
	for _, name := range []string{"temperature", "max_tokens"} {
		if v := c.Input[name]; v != nil {
			body.Set(name, v)
		}
	}
	raw, err := run.MarshalJSON(body)
	if err != nil {
		return nil, "", run.Wrap(run.ValidationError, err, "cannot encode the chat request as JSON: "+err.Error())
	}
	header := http.Header{}
	header.Set("Authorization", "Bearer "+key)
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json")
	return &run.HTTPRequest{Method: http.MethodPost, URL: u, Header: header, Body: raw}, model, nil
}

// llmSetting reads a setting from the parameter, then config, then the
// environment; "" when none sets it.
func llmSetting(c *run.Call, param, configKey, env string) (string, error) {
	v, err := c.String(param, "")
	if err != nil || v != "" {
		return v, err
	}
	v, err = llmConfig(c, configKey)
	if err != nil || v != "" {
		return v, err
	}
	return c.Env(env), nil
}

// llmConfig reads a string config key; "" when it is unset.
func llmConfig(c *run.Call, key string) (string, error) {
	if c.Options == nil || c.Options.Config == nil {
		return "", nil
	}
	v, ok := c.Options.Config(key)
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", run.Errorf(run.ValidationError, "config key %s must be a string, got %s; fix it in .toolctl.yaml", key, run.JSONType(v))
	}
	return strings.TrimSpace(s), nil
}

// llmResult reads a chat completion: the first choice's message content,
// the model that answered, why it stopped, and the token usage.
func llmResult(req *run.HTTPRequest, resp *run.HTTPResponse, model string) (any, error) {
	obj, ok := resp.Body.(*spec.Map)
	if !ok {
		return nil, &run.Error{Kind: run.ToolExecutionError, Status: resp.Status, Detail: resp.Body, Message: fmt.Sprintf("%s: the response is not a chat completion (Content-Type %q); check that the base URL points at an OpenAI-compatible API (it usually ends in /v1)", req.Where(), resp.Header.Get("Content-Type"))}
	}
	choices, _ := obj.Get("choices")
	list, _ := choices.([]any)
	if len(list) == 0 {
		return nil, &run.Error{Kind: run.ToolExecutionError, Status: resp.Status, Detail: resp.Body, Message: req.Where() + ": the response has no choices"}
	}
	first, _ := list[0].(*spec.Map)
	var content, finish any
	if first != nil {
		if msg, ok := first.GetMap("message"); ok {
			content, _ = msg.Get("content")
		}
		finish, _ = first.Get("finish_reason")
	}
	if content == nil {
		content = "" // e.g. a reply that is only tool calls
	}
	if m, ok := obj.GetString("model"); ok && m != "" {
		model = m
	}
	usage, _ := obj.Get("usage")
	return map[string]any{
		"content":       content,
		"model":         model,
		"finish_reason": finish,
		"usage":         usage,
	}, nil
}
