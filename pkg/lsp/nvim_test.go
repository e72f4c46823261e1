package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the server a real editor starts
// (TOOLCTL_LSP_SERVE=1): no toolctl binary to build first.
func TestMain(m *testing.M) {
	if os.Getenv("TOOLCTL_LSP_SERVE") == "1" {
		err := New(Options{}).Serve(context.Background(), stdio{})
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stdio is the process's stdin and stdout as one connection.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

// nvimScript drives Neovim's built-in LSP client (0.7 and later:
// vim.lsp.start_client): open the file, wait for toolctl's diagnostics,
// ask for a hover, fix the typo in the buffer and wait for the
// diagnostics to clear; then the outline and a rename (the client's
// own capabilities: symbol trees, file renames). Each result is a line of OUT.
const nvimScript = `
local out = {}
local function put(s) table.insert(out, s) end
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("FILE")))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = "toolctl",
  cmd = { os.getenv("SERVER"), "-test.run=^$" },
  cmd_env = { TOOLCTL_LSP_SERVE = "1" },
  root_dir = os.getenv("ROOT"),
})
vim.lsp.buf_attach_client(buf, id)
local got = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  put(string.format("diagnostic %d:%d %s", d.lnum, d.col, d.message))
end
local res = vim.lsp.buf_request_sync(buf, "textDocument/hover",
  { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 3, character = 1 } }, 20000)
for _, r in pairs(res or {}) do
  if r.result then put("hover " .. r.result.contents.value:gsub("\n", " ")) end
end
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, l in ipairs(lines) do
  if l:find("get_forcast") then
    vim.api.nvim_buf_set_lines(buf, i - 1, i, false, { (l:gsub("get_forcast", "get_forecast")) })
  end
end
local cleared = vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end, 20)
put("cleared " .. tostring(cleared))
local uri = vim.uri_from_bufnr(buf)
res = vim.lsp.buf_request_sync(buf, "textDocument/documentSymbol", { textDocument = { uri = uri } }, 20000)
for _, r in pairs(res or {}) do
  for _, s in ipairs(r.result or {}) do
    local kids = {}
    for _, c in ipairs(s.children or {}) do table.insert(kids, c.name) end
    put("symbol " .. s.name .. " " .. table.concat(kids, ","))
  end
end
res = vim.lsp.buf_request_sync(buf, "textDocument/rename",
  { textDocument = { uri = uri }, position = { line = 13, character = 12 }, newName = "get_outlook" }, 20000)
local function base(u) return vim.fn.fnamemodify(vim.uri_to_fname(u), ":t") end
for _, r in pairs(res or {}) do
  if r.err then put("rename error " .. vim.inspect(r.err)) end
  for _, dc in ipairs((r.result or {}).documentChanges or {}) do
    if dc.kind then
      put(dc.kind .. " " .. base(dc.oldUri) .. " " .. base(dc.newUri))
    else
      put("edit " .. base(dc.textDocument.uri) .. " " .. #dc.edits)
    end
  end
  local files = {}
  for u, edits in pairs((r.result or {}).changes or {}) do
    table.insert(files, "change " .. base(u) .. " " .. #edits)
  end
  table.sort(files)
  for _, f in ipairs(files) do put(f) end
end
vim.fn.writefile(out, os.getenv("OUT"))
vim.lsp.stop_client(id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
vim.cmd("qa!")
`

// TestNeovim runs a real editor headless against the server: Neovim's
// own LSP client (Debian's neovim package). It skips when nvim is not
// installed.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim runs this test)")
	}
	if testing.Short() {
		t.Skip("starts Neovim")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root, weatherPath, _ := workspace(t)
	// on disk this time: Neovim reads the file
	if err := os.WriteFile(weatherPath, []byte(strings.Replace(weather, "  - name: get_forecast", "  - name: get_forcast", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "test.lua")
	out := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(script, []byte(nvimScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "FILE="+weatherPath, "SERVER="+self, "ROOT="+root, "OUT="+out, "HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no results: %v", err)
	}
	got := strings.TrimSpace(string(data))
	want := `diagnostic 13:10 related tool "get_forcast" is not a tool in the linted set; did you mean "get_forecast"?
hover **entry** (object)  How the tool is executed. A definition-only tool omits it and cannot be run.
cleared true
symbol get_weather city
edit get_forecast.yaml 1
edit get_weather.yaml 1
rename get_forecast.yaml get_outlook.yaml`
	if got != want {
		t.Errorf("Neovim saw:\n%s\nwant:\n%s", got, want)
	}
}
