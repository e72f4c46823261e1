// Command httpfloor is the floor of a Go Streamable HTTP server for
// bench/serve.sh: net/http on a loopback port answering initialize and
// tools/call with fixed bytes (the calculator's answer), nothing parsed
// but the id. What toolctl serve --http costs above it is toolctl's; what
// it costs itself is net/http's and the kernel's.
//
//	go run ./bench/httpfloor PORT
package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) != 2 {
		os.Stderr.WriteString("usage: httpfloor PORT\n")
		os.Exit(2)
	}
	initResult := []byte(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"httpfloor","version":"1"}}`)
	callResult := []byte(`{"content":[{"type":"text","text":"{\"expression\":\"2*(3+4)\",\"result\":14}"}],"structuredContent":{"expression":"2*(3+4)","result":14}}`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := callResult
		if m.Method == "initialize" {
			result = initResult
		}
		var b bytes.Buffer
		b.WriteString(`{"jsonrpc":"2.0","id":`)
		b.Write(m.ID)
		b.WriteString(`,"result":`)
		b.Write(result)
		b.WriteByte('}')
		w.Header().Set("Content-Type", "application/json")
		w.Write(b.Bytes())
	})
	srv := &http.Server{Addr: "127.0.0.1:" + os.Args[1], Handler: h}
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGTERM, os.Interrupt)
		<-c
		srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
}
