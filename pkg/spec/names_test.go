package spec

import "testing"

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"HttpRequest": "http_request", "http-request": "http_request", "Summarize Detection": "summarize_detection", "math.factorial": "math_factorial", "2fa": "tool_2fa"} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	for name, want := range map[string]bool{"get_weather": true, "a1_": true, "x": true, "": false, "Get": false, "1a": false, "_a": false, "a-b": false, "aé": false} {
		if got := IsSnakeCase(name); got != want {
			t.Errorf("IsSnakeCase(%q) = %v, want %v", name, got, want)
		}
	}
}
