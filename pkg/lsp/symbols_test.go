package lsp

import (
	"path/filepath"
	"testing"
	"time"
)

const twoTools = `tools:
  - name: get_weather
    description: Returns the current weather for a city. Use it when the user asks about the weather.
    category: http
    entry: {type: http, method: GET, url: "https://api.example.com/weather?q={city}"}
    parameters:
      - name: city
        type: string
        description: City name
        required: true
      - name: units
        type: string
        description: metric or imperial
  - name: git_log
    description: |
      Shows the commit log of a git reference.
      Use it when the user asks what changed.
    input_schema:
      type: object
      properties:
        ref:
          type: string
          description: The reference.
        limit: {type: integer, description: How many commits.}
      required: [ref]
`

const jsonTools = `[
  {
    "name": "read_file",
    "description": "Reads a file and returns its text. Use it to see what a file says.",
    "input_schema": {"type": "object", "properties": {"path": {"type": "string", "description": "The file's path, never a } or ]."}}, "required": ["path"]}
  },
  {"name": "list_files", "description": "Lists the files of a directory. Use it to see what a folder holds."}
]
`

// TestDocumentSymbols: the outline of a file of several tools, YAML (a
// parameter list and an input schema) and JSON, as a tree for a client
// that takes one and as a flat list with container names otherwise.
func TestDocumentSymbols(t *testing.T) {
	root, _, _ := workspace(t)
	hier := map[string]any{"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}
	c := startServerOpts(t, root, Options{Debounce: 5 * time.Millisecond}, hier)
	yamlURI := c.open(filepath.Join(root, "tools", "misc.yaml"), twoTools)
	jsonURI := c.open(filepath.Join(root, "tools", "files.json"), jsonTools)
	symbols := func(uri string) string {
		return rawCall(c, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	got := symbols(yamlURI)
	want := `[{"name":"get_weather","detail":"http","kind":12,"range":{"start":{"line":1,"character":4},"end":{"line":12,"character":39}},"selectionRange":{"start":{"line":1,"character":10},"end":{"line":1,"character":21}},"children":[{"name":"city","detail":"string","kind":7,"range":{"start":{"line":6,"character":8},"end":{"line":9,"character":22}},"selectionRange":{"start":{"line":6,"character":14},"end":{"line":6,"character":18}}},{"name":"units","detail":"string","kind":7,"range":{"start":{"line":10,"character":8},"end":{"line":12,"character":39}},"selectionRange":{"start":{"line":10,"character":14},"end":{"line":10,"character":19}}}]},{"name":"git_log","kind":12,"range":{"start":{"line":13,"character":4},"end":{"line":24,"character":21}},"selectionRange":{"start":{"line":13,"character":10},"end":{"line":13,"character":17}},"children":[{"name":"ref","detail":"string","kind":7,"range":{"start":{"line":20,"character":8},"end":{"line":22,"character":37}},"selectionRange":{"start":{"line":20,"character":8},"end":{"line":20,"character":11}}},{"name":"limit","detail":"integer","kind":7,"range":{"start":{"line":23,"character":8},"end":{"line":23,"character":62}},"selectionRange":{"start":{"line":23,"character":8},"end":{"line":23,"character":13}}}]}]`
	if got != want {
		t.Errorf("YAML symbols:\n got %s\nwant %s", got, want)
	}
	got = symbols(jsonURI)
	want = `[{"name":"read_file","kind":12,"range":{"start":{"line":1,"character":2},"end":{"line":5,"character":3}},"selectionRange":{"start":{"line":2,"character":12},"end":{"line":2,"character":23}},"children":[{"name":"path","detail":"string","kind":7,"range":{"start":{"line":4,"character":54},"end":{"line":4,"character":131}},"selectionRange":{"start":{"line":4,"character":54},"end":{"line":4,"character":60}}}]},{"name":"list_files","kind":12,"range":{"start":{"line":6,"character":2},"end":{"line":6,"character":109}},"selectionRange":{"start":{"line":6,"character":11},"end":{"line":6,"character":23}}}]`
	if got != want {
		t.Errorf("JSON symbols:\n got %s\nwant %s", got, want)
	}
	// a document that does not parse: no outline
	broken := c.open(filepath.Join(root, "tools", "broken.yaml"), "name: [x\n")
	if got := symbols(broken); got != "[]" {
		t.Errorf("symbols of a broken file: %s", got)
	}
	c.shutdown()

	c = startServerOpts(t, root, Options{Debounce: 5 * time.Millisecond})
	jsonURI = c.open(filepath.Join(root, "tools", "files.json"), jsonTools)
	got = symbols(jsonURI)
	want = `[{"name":"read_file","kind":12,"location":{"uri":"` + jsonURI + `","range":{"start":{"line":1,"character":2},"end":{"line":5,"character":3}}}},{"name":"path","kind":7,"location":{"uri":"` + jsonURI + `","range":{"start":{"line":4,"character":54},"end":{"line":4,"character":131}}},"containerName":"read_file"},{"name":"list_files","kind":12,"location":{"uri":"` + jsonURI + `","range":{"start":{"line":6,"character":2},"end":{"line":6,"character":109}}}}]`
	if got != want {
		t.Errorf("flat JSON symbols:\n got %s\nwant %s", got, want)
	}
	c.shutdown()
}
