package spec

import (
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"gopkg.in/yaml.v3"
)

// streamer hands the tools of a large list (JSON, or a YAML block
// sequence) to a reader one at a time (LoadFilesStream).
type streamer struct {
	min  int // bytes, at least: a smaller file is parsed whole
	tool func(t *Tool)
}

// LoadFilesStream is LoadFilesFunc for a reader that checks one tool at a
// time, so that a large list is never in memory as a whole syntax tree.
// A file of at least streamMin bytes (0: none) whose top level is a list,
// or a container ({tools: [...]}, see ContainerTools) whose "tools" is one
// (a .json file, or a YAML file whose root is a block sequence or a block
// mapping that the fast YAML parser takes) is decoded one element of the
// list at a time, once the whole
// text is known to be valid (JSON, or YAML that parser vouches for): tool
// is called on each of its tools, in order and in
// the worker that parses the file, while the tool's syntax tree is there
// (Span, Pin, Node work as usual); when tool returns, the tree is dropped,
// as File.Release drops it (a position Pin did not keep costs a parse of
// the file again).
//
// When tool is called on t, t.File.Tools holds t and every tool before it,
// and one more tool unless t is the file's last one (a check can tell the
// file's only tool), and t.File.Errors is not complete yet: each is called
// on the file once it is parsed, as LoadFilesFunc calls it, with every
// tool and error. For any other file tool is not called. A panic in tool
// is a panic while parsing (see ParseFile): the file then has no tools.
func LoadFilesStream(files []string, streamMin int, tool func(i int, t *Tool), each func(i int, f *File)) *Set {
	var stream func(i int) *streamer
	if streamMin > 0 && tool != nil {
		stream = func(i int) *streamer {
			return &streamer{min: streamMin, tool: func(t *Tool) { tool(i, t) }}
		}
	}
	return loadFiles(files, stream, each)
}

// streamList reads data, the text of a .json file, as a list of tools
// handed to d.stream one at a time: a list at the root, or the "tools"
// list of a container ({"tools": [...]}). It reports false, having done
// nothing, when the text is neither, or not JSON that ParseJSON takes: the
// caller reads it as any other file (and says what is wrong with it).
func (f *File) streamList(d *decoder, data []byte) bool {
	return f.streamItems(d, func(each func(fastnode.ListAt, int, *yaml.Node)) (fastnode.ListAt, *fastnode.SurrogateError, bool) {
		return fastnode.ParseJSONList(data, each)
	})
}

// streamYAMLList is streamList for a YAML file whose root is a block
// sequence, or a block mapping whose "tools" is one, that ParseYAML takes
// (fastnode.ParseYAMLList).
func (f *File) streamYAMLList(d *decoder, data []byte) bool {
	return f.streamItems(d, func(each func(fastnode.ListAt, int, *yaml.Node)) (fastnode.ListAt, *fastnode.SurrogateError, bool) {
		at, ok := fastnode.ParseYAMLList(data, each)
		return at, nil, ok
	})
}

// streamItems hands the tools of the list that parse reads, one element at
// a time, to d.stream (see streamList).
func (f *File) streamItems(d *decoder, parse func(each func(fastnode.ListAt, int, *yaml.Node)) (fastnode.ListAt, *fastnode.SurrogateError, bool)) bool {
	out := handOver{d: d}
	index := 0
	at, bad, ok := parse(func(at fastnode.ListAt, i int, item *yaml.Node) {
		prefix := "/"
		if at == fastnode.ToolsList {
			prefix = "/tools/"
		}
		n := len(f.Tools)
		index = f.listItem(d, item, prefix+strconv.Itoa(i), index)
		out.add(f.Tools[n:])
	})
	switch {
	case at == fastnode.NoList:
		return false
	case bad != nil:
		f.surrogateError(bad)
		return true
	case !ok:
		return false
	}
	out.flush()
	return true
}

// yamlDocs reads data, a stream of several YAML documents, with the fast
// parser (fastnode.ParseYAMLDocs), one document at a time, as the yaml.v3
// path reads it; with d.stream, each document's tools are handed over and
// dropped before the next one is built. It reports false, having done
// nothing, when the parser does not vouch for the whole stream.
func (f *File) yamlDocs(d *decoder, data []byte) bool {
	out := handOver{d: d}
	stream := d.stream != nil && len(data) >= d.stream.min
	index := 0
	ok := fastnode.ParseYAMLDocs(data, func(doc *yaml.Node) {
		n := len(f.Tools)
		index = f.document(d, resolve(doc.Content[0]), index)
		if stream {
			out.add(f.Tools[n:])
		}
	})
	if ok && stream {
		out.flush()
	}
	return ok
}

// handOver gives tools to d.stream as they are read, each one once the
// next is in the file's tools (a check of the first one sees that the
// file has more than one), and drops its tree.
type handOver struct {
	d       *decoder
	pending *Tool
}

func (h *handOver) add(tools []*Tool) {
	for _, t := range tools {
		if h.pending != nil {
			h.flush()
		}
		h.pending = t
	}
}

// flush hands over the tool held back (at the end: the last one).
func (h *handOver) flush() {
	if h.pending != nil {
		h.d.stream.tool(h.pending)
		h.pending.node = nil
		h.pending = nil
	}
}
