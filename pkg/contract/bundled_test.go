package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/run/builtin"
	"github.com/toolctl/toolctl/pkg/spec"
)

var update = flag.Bool("update", false, "rewrite the bundled http tools' cassettes in ../../tools/testdata")

// bundledHTTPTools are the bundled tools whose examples call a public
// host. Their cassettes are recorded here, against a local stub that
// answers as that host does (the same status, headers that matter and
// body shape, trimmed), so that toolctl test tools/ passes without the
// network. Each cassette holds the exact request the tool sends to the
// real host: the stub only stands in for the host's answer.
var bundledHTTPTools = map[string]func(r *http.Request) (int, string, any){
	// https://api.open-meteo.com/v1/forecast: the hourly series asked for,
	// one value per hour of the forecast days.
	"weather_forecast": func(r *http.Request) (int, string, any) {
		q := r.URL.Query()
		if r.URL.Path != "/v1/forecast" || q.Get("hourly") != "temperature_2m,precipitation" {
			return http.StatusBadRequest, "application/json; charset=utf-8", map[string]any{"error": true, "reason": "unexpected request"}
		}
		var days int
		fmt.Sscan(q.Get("forecast_days"), &days)
		times, temps, rain := []string{}, []float64{}, []float64{}
		for h := range days * 24 {
			times = append(times, fmt.Sprintf("2026-01-%02dT%02d:00", 15+h/24, h%24))
			temps = append(temps, float64(int(10*(1.5+3*float64(h%24)/23)))/10)
			rain = append(rain, float64(h%7)/10)
		}
		return http.StatusOK, "application/json; charset=utf-8", map[string]any{
			"latitude": 52.52, "longitude": 13.419998, "generationtime_ms": 0.0768,
			"utc_offset_seconds": 0, "timezone": "GMT", "timezone_abbreviation": "GMT", "elevation": 38.0,
			"hourly_units": map[string]any{"time": "iso8601", "temperature_2m": "°C", "precipitation": "mm"},
			"hourly":       map[string]any{"time": times, "temperature_2m": temps, "precipitation": rain},
		}
	},
	// https://api.github.com/repos/golang/go: the repository object.
	"http_request": func(r *http.Request) (int, string, any) {
		if r.URL.Path != "/repos/golang/go" {
			return http.StatusNotFound, "application/json; charset=utf-8", map[string]any{"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"}
		}
		return http.StatusOK, "application/json; charset=utf-8", map[string]any{
			"id": 23096959, "node_id": "MDEwOlJlcG9zaXRvcnkyMzA5Njk1OQ==", "name": "go", "full_name": "golang/go", "private": false,
			"owner":       map[string]any{"login": "golang", "id": 4314092, "type": "Organization", "html_url": "https://github.com/golang"},
			"html_url":    "https://github.com/golang/go",
			"description": "The Go programming language", "fork": false, "url": "https://api.github.com/repos/golang/go",
			"homepage": "https://go.dev", "language": "Go", "default_branch": "master", "visibility": "public",
			"license":  map[string]any{"key": "bsd-3-clause", "name": "BSD 3-Clause \"New\" or \"Revised\" License", "spdx_id": "BSD-3-Clause"},
			"topics":   []string{"go", "golang", "language", "programming-language"},
			"archived": false, "has_issues": true, "created_at": "2014-08-19T04:33:40Z",
		}
	},
}

// toHost sends every request to the stub, keeping it otherwise as is.
type toHost struct{ stub *url.URL }

func (h toHost) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Original-Host", r.URL.Host)
	r.URL.Scheme, r.URL.Host, r.Host = h.stub.Scheme, h.stub.Host, ""
	return http.DefaultTransport.RoundTrip(r)
}

// TestBundledHTTPCassettes records the cassettes of the bundled http
// tools against the stub (with -update into ../../tools/testdata, else
// into a copy) and checks them: every request went to the tool's real
// host, the examples pass on record and on replay, and the committed
// cassettes are what a recording gives now.
func TestBundledHTTPCassettes(t *testing.T) {
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Header.Get("X-Original-Host")
		var answer func(*http.Request) (int, string, any)
		switch host {
		case "api.open-meteo.com":
			answer = bundledHTTPTools["weather_forecast"]
		case "api.github.com":
			answer = bundledHTTPTools["http_request"]
		default:
			http.Error(w, "the stub stands in for api.open-meteo.com and api.github.com, not "+host, http.StatusBadGateway)
			return
		}
		code, ctype, body := answer(r)
		data, _ := json.Marshal(body)
		w.Header()["Date"] = nil // no Date: the cassette stays byte-stable
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(code)
		w.Write(data)
	}))
	defer stub.Close()
	stubURL, _ := url.Parse(stub.URL)

	dir := filepath.Join("..", "..", "tools")
	if !*update {
		dir = t.TempDir()
		for name := range bundledHTTPTools {
			data, err := os.ReadFile(filepath.Join("..", "..", "tools", name+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+".yaml"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var paths []string
	for name := range bundledHTTPTools {
		paths = append(paths, filepath.Join(dir, name+".yaml"))
	}
	set, err := spec.Load(paths)
	if err != nil {
		t.Fatal(err)
	}
	newRunner := func(getenv func(string) string, client *http.Client) *run.Runner {
		r := &run.Runner{Executors: builtin.Executors(), Getenv: getenv}
		r.Options.HTTPClient = client
		return r
	}
	for _, mode := range []CassetteMode{Record, Replay} {
		results := Run(context.Background(), set.Tools(), Options{
			Cassettes: mode, NewRunner: newRunner, RecordTransport: toHost{stubURL},
			Runner: newRunner(os.Getenv, nil), Getenv: os.Getenv,
		})
		if len(results) != len(bundledHTTPTools) {
			t.Fatalf("mode %d: %d tools tested, want %d", mode, len(results), len(bundledHTTPTools))
		}
		for _, tr := range results {
			for _, o := range tr.Outcomes {
				if o.Status != Pass || o.Replayed != (mode == Replay) {
					t.Errorf("mode %d: %s: %s %s (replayed %v) %v", mode, o.Name(), o.Status, o.Reason, o.Replayed, o.Diffs)
				}
			}
		}
	}
	for name := range bundledHTTPTools {
		got, err := os.ReadFile(filepath.Join(dir, "testdata", name+".cassette.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(got, []byte("127.0.0.1")) {
			t.Errorf("%s: the cassette names the stub, not the tool's host:\n%s", name, got)
		}
		if *update {
			continue
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "tools", "testdata", name+".cassette.yaml"))
		if err != nil {
			t.Fatalf("%v; run go test ./pkg/contract -run TestBundledHTTPCassettes -update", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("tools/testdata/%s.cassette.yaml is not what a recording gives now; run go test ./pkg/contract -run TestBundledHTTPCassettes -update\n--- got:\n%s", name, got)
		}
	}
}
