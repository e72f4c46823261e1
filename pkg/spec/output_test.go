package spec

import (
	"strings"
	"testing"
)

func TestOutputContent(t *testing.T) {
	f := ParseFile("t.yaml", []byte("name: shot\ndescription: d\noutput:\n  content: Image/PNG\n"))
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("errors %v", f.Errors)
	}
	tool := f.Tools[0]
	if tool.Output == nil || tool.Output.Content != "image/png" {
		t.Fatalf("output %+v", tool.Output)
	}
	if len(tool.UnknownFields) > 0 {
		t.Errorf("unknown fields %v", tool.UnknownFields)
	}
	out, ok := tool.ToMap().GetMap("output")
	if !ok {
		t.Fatal("ToMap has no output")
	}
	if c, _ := out.GetString("content"); c != "image/png" {
		t.Errorf("ToMap output.content %q", c)
	}
	for _, bad := range []string{"png", "image/", "image/png; q=1", "[image/png]"} {
		f := ParseFile("t.yaml", []byte("name: shot\ndescription: d\noutput:\n  content: "+bad+"\n"))
		if len(f.Errors) == 0 {
			t.Errorf("output.content %q: no error", bad)
			continue
		}
		if msg := f.Errors[0].Error(); !strings.Contains(msg, "media type") && !strings.Contains(msg, "expected a string") {
			t.Errorf("output.content %q: %s", bad, msg)
		}
	}
	f = ParseFile("t.yaml", []byte("name: shot\ndescription: d\noutput:\n  contnet: image/png\n"))
	if len(f.Tools) != 1 || len(f.Tools[0].UnknownFields) != 1 || f.Tools[0].UnknownFields[0] != "/output/contnet" {
		t.Errorf("a misspelt key is not reported as unknown: %v", f.Tools[0].UnknownFields)
	}
}
