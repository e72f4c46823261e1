// Package lsp is toolctl's language server (toolctl lsp): lint findings
// as the user types, hover, completion, go to definition, references and
// rename for tool names, an outline of each file's tools, quick fixes
// and formatting, for YAML and JSON tool files.
//
// The protocol's types and their dispatch come from
// github.com/tliron/glsp/protocol_3_16 (plain types and a method switch,
// standard library only); the JSON-RPC 2.0 connection with LSP's
// Content-Length framing is github.com/sourcegraph/jsonrpc2. Neither
// does any work at package initialisation, and nothing of this package
// runs unless toolctl lsp is started.
//
// Documents are linted from the editor's buffer, never from the file on
// disk, with the lint engine and the .toolctl.yaml found upward from the
// file; a document in the tools directory is linted together with the
// rest of it (the other open documents' buffers, the files on disk
// otherwise), so cross-file rules see a rename as soon as it is typed.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/internal/testhook"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Options tune a server.
type Options struct {
	// Debounce is how long the server waits after a change before it
	// lints (changes within it are linted once); 0 is DefaultDebounce.
	Debounce time.Duration
	// Version is reported to the client as serverInfo.version.
	Version string
	// Logf, when set, receives the server's log lines.
	Logf func(format string, args ...any)
	// LintConfig, when set, completes a lint configuration read from the
	// config file at file, as toolctl lint's is (the budget rules' token
	// counter lives above pkg/lint); an error is the config's.
	LintConfig func(cfg *lint.Config, file string) error
	// ToolCost, when set, says what a tool costs in context tokens, for
	// hover ("" when it cannot say).
	ToolCost func(t *spec.Tool) string
}

// DefaultDebounce is the wait after a change: keystrokes closer than this
// are linted once.
const DefaultDebounce = 20 * time.Millisecond

// Server is one language server session.
type Server struct {
	opts    Options
	handler protocol.Handler

	mu        sync.Mutex
	conn      *jsonrpc2.Conn
	roots     []string
	docs      map[string]*document // by URI
	dirty     map[string]bool      // URIs to lint
	timer     *time.Timer
	published map[string]string // URI -> the diagnostics last sent (JSON)
	lastGood  map[string]*spec.File
	shutdown  bool
	watch     bool // the client registers file watchers on request
	// the client's workspace edits: versioned document changes, file
	// renames among them
	docChanges  bool
	renameFiles bool
	// hierarchical: the client takes DocumentSymbol trees
	hierarchical bool
	exited       chan struct{}
	lintMu       sync.Mutex // one lint at a time

	cacheMu sync.Mutex
	files   map[string]cachedFile
	configs map[string]cachedConfig

	// linted, when set (tests), is called after each lint with the URIs
	// published.
	linted func(uris []string)
}

// New returns a server; Serve runs it on a connection.
func New(opts Options) *Server {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	s := &Server{
		opts:      opts,
		docs:      map[string]*document{},
		dirty:     map[string]bool{},
		published: map[string]string{},
		lastGood:  map[string]*spec.File{},
		exited:    make(chan struct{}),
		files:     map[string]cachedFile{},
		configs:   map[string]cachedConfig{},
	}
	s.handler = protocol.Handler{
		Initialize:                 s.initialize,
		Initialized:                s.initialized,
		Shutdown:                   s.shutdownRequest,
		SetTrace:                   func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:        s.didOpen,
		TextDocumentDidChange:      s.didChange,
		TextDocumentDidClose:       s.didClose,
		TextDocumentDidSave:        s.didSave,
		TextDocumentHover:          s.hover,
		TextDocumentCompletion:     s.completion,
		TextDocumentDefinition:     s.definition,
		TextDocumentReferences:     s.references,
		TextDocumentCodeAction:     s.codeAction,
		TextDocumentFormatting:     s.formatting,
		TextDocumentPrepareRename:  s.prepareRename,
		TextDocumentRename:         s.rename,
		TextDocumentDocumentSymbol: s.documentSymbol,
		WorkspaceDidChangeWatchedFiles: func(*glsp.Context, *protocol.DidChangeWatchedFilesParams) error {
			s.relintAll()
			return nil
		},
		WorkspaceDidChangeWorkspaceFolders: s.didChangeFolders,
		WorkspaceDidChangeConfiguration: func(*glsp.Context, *protocol.DidChangeConfigurationParams) error {
			s.relintAll()
			return nil
		},
	}
	return s
}

// Serve runs the server on rwc (stdin/stdout for toolctl lsp) until the
// client sends exit or closes the connection, or ctx ends. It returns nil
// after shutdown and exit, an error when the connection ended without
// them (the process then exits 1, as LSP asks).
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	stream := jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(ctx, stream, jsonrpc2.HandlerWithError(s.handle))
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	select {
	case <-conn.DisconnectNotify():
	case <-s.exited:
		conn.Close()
	case <-ctx.Done():
		conn.Close()
	}
	s.mu.Lock()
	if s.timer != nil {
		s.timer.Stop()
	}
	clean := s.shutdown
	s.mu.Unlock()
	select {
	case <-s.exited:
		if clean {
			return nil
		}
		return fmt.Errorf("the client sent exit without shutdown")
	default:
	}
	if ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("the client closed the connection without shutdown and exit")
}

func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, rerr error) {
	// a bug must not end the session: the request fails, the server stays
	defer func() {
		if p := recover(); p != nil {
			s.logf("%s: internal error: %v\n%s", req.Method, p, debug.Stack())
			result, rerr = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("toolctl lsp: internal error in %s: %v (please report it)", req.Method, p)}
		}
	}()
	testhook.Check("lsp", req.Method)
	gctx := glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { s.notify(method, params) },
		Call: func(method string, params, result any) {
			_ = conn.Call(ctx, method, params, result)
		},
	}
	if req.Params != nil {
		gctx.Params = *req.Params
	}
	if req.Method == protocol.MethodExit {
		// after shutdown too, when glsp's handler counts the server as
		// no longer initialised
		return nil, s.exit(&gctx)
	}
	s.mu.Lock()
	down := s.shutdown
	s.mu.Unlock()
	if down {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shut down; only exit is accepted"}
	}
	r, validMethod, validParams, err := s.handler.Handle(&gctx)
	switch {
	case !validMethod:
		if req.Notif {
			return nil, nil // unknown notifications are ignored ($/...)
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "toolctl lsp does not support " + req.Method}
	case !validParams:
		msg := "invalid params for " + req.Method
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		var rerr *jsonrpc2.Error
		if errors.As(err, &rerr) {
			return nil, rerr // a handler's own code (RequestFailed)
		}
		// LSP's ServerNotInitialized is -32002.
		code := int64(jsonrpc2.CodeInvalidRequest)
		if err.Error() == "server not initialized" {
			code = -32002
		}
		return nil, &jsonrpc2.Error{Code: code, Message: err.Error()}
	}
	return r, nil
}

func (s *Server) notify(method string, params any) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn != nil {
		if err := conn.Notify(context.Background(), method, params); err != nil {
			s.logf("%s: %v", method, err)
		}
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

func (s *Server) initialize(_ *glsp.Context, params *protocol.InitializeParams) (any, error) {
	var roots []string
	for _, f := range params.WorkspaceFolders {
		if p, ok := pathOf(f.URI); ok {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 && params.RootURI != nil {
		if p, ok := pathOf(*params.RootURI); ok {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 && params.RootPath != nil && *params.RootPath != "" {
		roots = append(roots, filepath.Clean(*params.RootPath))
	}
	ws := params.Capabilities.Workspace
	watch := ws != nil && ws.DidChangeWatchedFiles != nil && ws.DidChangeWatchedFiles.DynamicRegistration != nil && *ws.DidChangeWatchedFiles.DynamicRegistration
	docChanges, renameFiles := false, false
	if ws != nil && ws.WorkspaceEdit != nil {
		we := ws.WorkspaceEdit
		docChanges = we.DocumentChanges != nil && *we.DocumentChanges
		for _, op := range we.ResourceOperations {
			// resource operations exist only in documentChanges: a
			// client that lists them takes those (Neovim 0.7 does
			// not say documentChanges)
			if op == protocol.ResourceOperationKindRename {
				renameFiles, docChanges = true, true
			}
		}
	}
	td := params.Capabilities.TextDocument
	hierarchical := td != nil && td.DocumentSymbol != nil && td.DocumentSymbol.HierarchicalDocumentSymbolSupport != nil && *td.DocumentSymbol.HierarchicalDocumentSymbolSupport
	s.mu.Lock()
	s.roots = roots
	s.watch = watch
	s.docChanges, s.renameFiles, s.hierarchical = docChanges, renameFiles, hierarchical
	s.mu.Unlock()

	version := s.opts.Version
	sync := protocol.TextDocumentSyncKindIncremental
	yes := true
	caps := protocol.ServerCapabilities{
		TextDocumentSync: protocol.TextDocumentSyncOptions{
			OpenClose: &yes,
			Change:    &sync,
			Save:      protocol.SaveOptions{IncludeText: new(bool)},
		},
		HoverProvider:              true,
		CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{":", " ", "{", "\"", "-"}},
		DefinitionProvider:         true,
		ReferencesProvider:         true,
		CodeActionProvider:         protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
		DocumentFormattingProvider: true,
		RenameProvider:             protocol.RenameOptions{PrepareProvider: &yes},
		DocumentSymbolProvider:     true,
		Workspace: &protocol.ServerCapabilitiesWorkspace{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: &yes, ChangeNotifications: &protocol.BoolOrString{Value: true}},
		},
	}
	return protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: "toolctl", Version: &version},
	}, nil
}

// initialized asks the client to report changes to tool files and
// config files on disk (a git checkout, another editor), when it can:
// the open documents are then linted again with them.
func (s *Server) initialized(ctx *glsp.Context, _ *protocol.InitializedParams) error {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if !watch {
		return nil
	}
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:     "toolctl-files",
		Method: protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{
			{GlobPattern: "**/*.{yaml,yml,json}"},
		}},
	}}}
	// not from the read loop, which the reply comes through
	go ctx.Call(protocol.ServerClientRegisterCapability, params, nil)
	return nil
}

func (s *Server) shutdownRequest(*glsp.Context) error {
	s.mu.Lock()
	s.shutdown = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	// a lint under way finishes before the reply
	s.lintMu.Lock()
	defer s.lintMu.Unlock()
	return nil
}

func (s *Server) exit(*glsp.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.exited:
	default:
		close(s.exited)
	}
	return nil
}

func (s *Server) didChangeFolders(_ *glsp.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	for _, f := range params.Event.Removed {
		if p, ok := pathOf(f.URI); ok {
			for i, r := range s.roots {
				if r == p {
					s.roots = append(s.roots[:i], s.roots[i+1:]...)
					break
				}
			}
		}
	}
	for _, f := range params.Event.Added {
		if p, ok := pathOf(f.URI); ok {
			s.roots = append(s.roots, p)
		}
	}
	s.mu.Unlock()
	s.relintAll()
	return nil
}

func (s *Server) didOpen(_ *glsp.Context, params *protocol.DidOpenTextDocumentParams) error {
	td := params.TextDocument
	path, _ := pathOf(td.URI)
	s.mu.Lock()
	s.docs[td.URI] = &document{uri: td.URI, path: path, version: td.Version, text: td.Text}
	s.mu.Unlock()
	s.schedule(td.URI)
	return nil
}

func (s *Server) didChange(_ *glsp.Context, params *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	d, ok := s.docs[params.TextDocument.URI]
	if !ok {
		s.mu.Unlock()
		return nil
	}
	text := d.text
	for _, c := range params.ContentChanges {
		text = applyChange(text, c)
	}
	// documents are replaced, never changed in place: a lint under way
	// keeps the version it read
	s.docs[d.uri] = &document{uri: d.uri, path: d.path, version: params.TextDocument.Version, text: text}
	s.mu.Unlock()
	s.schedule(d.uri)
	return nil
}

func (s *Server) didSave(_ *glsp.Context, params *protocol.DidSaveTextDocumentParams) error {
	// the file on disk changed: other documents linted with it see it
	s.relintAll()
	return nil
}

func (s *Server) didClose(_ *glsp.Context, params *protocol.DidCloseTextDocumentParams) error {
	uri := params.TextDocument.URI
	s.mu.Lock()
	d, ok := s.docs[uri]
	delete(s.docs, uri)
	delete(s.dirty, uri)
	_, had := s.published[uri]
	delete(s.published, uri)
	delete(s.lastGood, uri)
	s.mu.Unlock()
	if had {
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
	}
	if ok {
		// the other documents of its tools directory now see the file
		// on disk instead of the buffer
		s.relintAll()
		_ = d
	}
	return nil
}

// schedule marks uri for linting after the debounce delay.
func (s *Server) schedule(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirty[uri] = true
	if s.shutdown {
		return
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(s.opts.Debounce, s.lintDirty)
	} else {
		s.timer.Reset(s.opts.Debounce)
	}
}

// relintAll marks every open document for linting.
func (s *Server) relintAll() {
	s.mu.Lock()
	uris := make([]string, 0, len(s.docs))
	for uri := range s.docs {
		uris = append(uris, uri)
	}
	s.mu.Unlock()
	for _, uri := range uris {
		s.schedule(uri)
	}
}

// lintDirty lints the projects of the documents changed since the last
// run, and publishes the diagnostics of every open document of those
// projects whose diagnostics changed (a rename in one file changes the
// findings of the files that refer to it).
func (s *Server) lintDirty() {
	s.lintMu.Lock()
	defer s.lintMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			s.logf("lint: internal error: %v\n%s", p, debug.Stack())
		}
	}()
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return
	}
	dirty := s.dirty
	s.dirty = map[string]bool{}
	docs := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		docs = append(docs, d)
	}
	s.mu.Unlock()

	// the project of every open document, so that the documents of a
	// project a dirty one belongs to are linted together
	var sent []string
	byKey := map[string]*project{}
	members := map[string][]*document{}
	want := map[string]bool{}
	for _, d := range docs {
		_, onDisk := pathOf(d.uri)
		p := s.projectOf(d.path, onDisk)
		if !s.lintable(d, p) {
			// a YAML or JSON file that is no tool file: nothing to say
			s.mu.Lock()
			_, had := s.published[d.uri]
			s.mu.Unlock()
			if had && dirty[d.uri] && s.publish(d, nil) {
				sent = append(sent, d.uri)
			}
			continue
		}
		if _, ok := byKey[p.key]; !ok {
			byKey[p.key] = p
		}
		members[p.key] = append(members[p.key], d)
		if dirty[d.uri] {
			want[p.key] = true
		}
	}
	for key := range want {
		p, ds := byKey[key], members[key]
		found := s.lintProject(p, ds)
		for _, d := range ds {
			if s.publish(d, found[d.path]) {
				sent = append(sent, d.uri)
			}
			if dirty[d.uri] {
				// the tree hover, definition, the outline... read, made
				// while the editor shows the diagnostics (a large file's
				// takes a while), not on the first request after a change
				go func() {
					defer func() {
						if p := recover(); p != nil {
							s.logf("parse: internal error: %v\n%s", p, debug.Stack())
						}
					}()
					d.tree()
				}()
			}
		}
	}
	if s.linted != nil {
		s.linted(sent)
	}
}

// publish sends d's diagnostics unless they are the ones last sent.
func (s *Server) publish(d *document, ds []diag.Diagnostic) bool {
	body, _ := json.Marshal(toProtocol(d, ds))
	// protocol.PublishDiagnosticsParams with the diagnostics encoded
	// once, not again for the notification (tens of thousands on a large
	// file)
	params := struct {
		URI         protocol.DocumentUri `json:"uri"`
		Version     *protocol.UInteger   `json:"version,omitempty"`
		Diagnostics json.RawMessage      `json:"diagnostics"`
	}{URI: d.uri, Diagnostics: body}
	s.mu.Lock()
	cur, open := s.docs[d.uri]
	same := s.published[d.uri] == string(body)
	if !open || same {
		s.mu.Unlock()
		return false
	}
	s.published[d.uri] = string(body)
	s.mu.Unlock()
	if cur.version == d.version {
		v := protocol.UInteger(d.version)
		params.Version = &v
	}
	s.notify(protocol.ServerTextDocumentPublishDiagnostics, params)
	return true
}

// toProtocol converts findings to LSP diagnostics: the rule ID is the
// code, toolctl the source.
func toProtocol(d *document, ds []diag.Diagnostic) []protocol.Diagnostic {
	ix := d.index()
	out := make([]protocol.Diagnostic, 0, len(ds))
	source := "toolctl"
	for _, d := range ds {
		sev := severity(d.Severity)
		pd := protocol.Diagnostic{Range: ix.rangeOf(d.Span), Severity: &sev, Source: &source, Message: d.Message}
		if d.Rule != "" {
			pd.Code = &protocol.IntegerOrString{Value: d.Rule}
			// also as data, which clients send back with codeAction:
			// glsp's IntegerOrString does not decode (its UnmarshalJSON
			// has a value receiver), so code arrives empty
			pd.Data = d.Rule
		}
		out = append(out, pd)
	}
	return out
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Error:
		return protocol.DiagnosticSeverityError
	case diag.Warning:
		return protocol.DiagnosticSeverityWarning
	default:
		return protocol.DiagnosticSeverityInformation
	}
}

// doc is the open document at uri, or nil.
func (s *Server) doc(uri string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}
