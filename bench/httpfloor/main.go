// Command httpfloor is the floor of a Go Streamable HTTP server for
// bench/serve.sh: net/http on a loopback port answering initialize and
// tools/call with fixed bytes (the calculator's answer), nothing parsed
// but the id. What toolctl serve --http costs above it is toolctl's; what
// it costs itself is net/http's and the kernel's.
//
// With -loop it serves each connection in a loop of its own instead:
// http.ReadRequest (net/http's parser), the body read, the same fixed
// answer written with a Content-Length. That is the cost of HTTP/1.1
// without net/http's server: it never reads ahead while a request is
// answered, so it cannot notice a client going away mid-call, and it
// skips the server's checks (Host, limits, timeouts, Expect, shutdown).
// It is a measurement of what net/http's connection handling costs, not
// a design: serve.sh reports it beside the net/http floor.
//
//	go run ./bench/httpfloor [-loop] PORT
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
)

func main() {
	args := os.Args[1:]
	loop := len(args) == 2 && args[0] == "-loop"
	if loop {
		args = args[1:]
	}
	if len(args) != 1 {
		os.Stderr.WriteString("usage: httpfloor [-loop] PORT\n")
		os.Exit(2)
	}
	addr := "127.0.0.1:" + args[0]
	initResult := []byte(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"httpfloor","version":"1"}}`)
	callResult := []byte(`{"content":[{"type":"text","text":"{\"expression\":\"2*(3+4)\",\"result\":14}"}],"structuredContent":{"expression":"2*(3+4)","result":14}}`)
	// answer is the response to a POST body: nil for a notification.
	answer := func(body []byte) []byte {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &m) != nil || m.ID == nil {
			return nil
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
		return b.Bytes()
	}
	if loop {
		serveLoop(addr, answer)
		return
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		out := answer(body)
		if out == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	})
	srv := &http.Server{Addr: addr, Handler: h}
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

// serveLoop answers each connection's requests in turn on its goroutine
// (-loop): one park per request, where net/http's server also starts and
// stops a read of the connection for every request.
func serveLoop(addr string, answer func([]byte) []byte) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGTERM, os.Interrupt)
		<-c
		ln.Close()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			br, bw := bufio.NewReader(conn), bufio.NewWriter(conn)
			for {
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				body, err := io.ReadAll(req.Body)
				if err != nil {
					return
				}
				out := answer(body)
				if out == nil {
					bw.WriteString("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
				} else {
					bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ")
					bw.WriteString(strconv.Itoa(len(out)))
					bw.WriteString("\r\n\r\n")
					bw.Write(out)
				}
				if bw.Flush() != nil {
					return
				}
			}
		}()
	}
}
