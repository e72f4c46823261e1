package mcpclient

import (
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
)

func TestLimitedBody(t *testing.T) {
	tests := []struct {
		name string
		sse  bool
		body string
		ok   bool
	}{
		{"json within", false, `{"a":"12345"}`, true},
		{"json over", false, `{"a":"123456789"}`, false},
		{"events each within", true, "data: 123456\n\ndata: 123456\n\ndata: 123456\n\n", true},
		{"events with CRLF", true, "data: 123456\r\n\r\ndata: 123456\r\n\r\n", true},
		{"one event over", true, "data: 12\ndata: 34\ndata: 56\n\n", false},
		{"a line over", true, "data: 123456789012\n\n", false},
	}
	for _, tt := range tests {
		for _, oneByte := range []bool{false, true} {
			var exceeded atomic.Bool
			var r io.Reader = &limitedBody{ReadCloser: io.NopCloser(strings.NewReader(tt.body)), sse: tt.sse, max: 16, left: 16, exceeded: &exceeded}
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			_, err := io.ReadAll(r)
			if tt.ok && err != nil || !tt.ok && !errors.Is(err, ErrMessageTooLarge) {
				t.Errorf("%s (one byte at a time %v): got %v", tt.name, oneByte, err)
			}
			if exceeded.Load() == tt.ok {
				t.Errorf("%s (one byte at a time %v): exceeded is %v", tt.name, oneByte, exceeded.Load())
			}
		}
	}
}
