//go:build unix

package mcp

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serve --watch on a symbolic link to the tools directory: the tree under
// it is watched, and a named pipe that appears there is reported without
// being opened (opening one waits for a writer: the reload hung, and every
// reload after it).
func TestWatchSymlinkRootAndFIFO(t *testing.T) {
	dir := copyTools(t)
	link := filepath.Join(t.TempDir(), "tools")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 10)
	h := serve(t, link, setup{client: &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan struct{})
	go h.srv.Watch(ctx, func() { close(ready) })
	<-ready
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) == 0 {
		t.Fatalf("tools through the link: %v %v", res, err)
	}

	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(h.log.String(), "pipe.yaml") {
		if time.Now().After(deadline) {
			t.Fatalf("no report of the named pipe; log:\n%s", h.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(h.log.String(), "a named pipe (FIFO), not a regular file") {
		t.Errorf("the report does not say what pipe.yaml is:\n%s", h.log)
	}
	// Later changes still reload.
	triple := bytes.ReplaceAll(mustRead(t, filepath.Join(dir, "triple.yaml")), []byte("name: triple"), []byte("name: triple2"))
	if err := os.WriteFile(filepath.Join(dir, "triple2.yaml"), triple, 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatalf("no reload after the named pipe; log:\n%s", h.log)
		}
		res, err := h.cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range res.Tools {
			if tool.Name == "triple2" {
				return
			}
		}
	}
}
