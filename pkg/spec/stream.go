package spec

import (
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"gopkg.in/yaml.v3"
)

// streamer hands the tools of a large list (JSON, or a YAML block
// sequence) to a reader one at a time (LoadFilesStream).
type streamer struct {
	min   int // bytes, at least: a smaller file is parsed whole
	tool  func(t *Tool)
	whole func(size int) // see Stream.Whole
	said  bool           // whole was called
}

// wholeParse tells the reader that the file of data, large, is about to
// be parsed whole (once).
func (s *streamer) wholeParse(data []byte) {
	if s != nil && !s.said && s.whole != nil && len(data) >= s.min {
		s.said = true
		s.whole(len(data))
	}
}

// Stream is how LoadFilesStream reads large files.
type Stream struct {
	// Min is the size in bytes from which a file is read a tool at a
	// time when it can be (0: never).
	Min int
	// Tool is called on each tool of such a file (see LoadFilesStream).
	Tool func(i int, t *Tool)
	// Whole, when set, is called with the size of file i, of at least
	// Min bytes, just before it is parsed whole (it is no list, or no
	// list that can be read a tool at a time): its syntax tree, many
	// times its size, is then about to be live at once.
	Whole func(i int, size int)
}

// LoadFilesStream is LoadFilesFunc for a reader that checks one tool at a
// time, so that a large list is never in memory as a whole syntax tree. A
// file of at least st.Min bytes (0: none) that holds a list of tools (a
// list at the root, a container's "tools" or a stream of YAML documents,
// in a .json file or in YAML the fast YAML parser takes) is decoded one
// element of the list (one document) at a time, once the whole text is
// known to be valid: st.Tool is called on each of its tools, in order and
// in the worker that parses the file, while the tool's syntax tree is
// there (Span, Pin, Node work as usual); when it returns, the tree is
// dropped, as File.Release drops it (a position Pin did not keep costs a
// parse of the file again). Any other file of that size is parsed whole,
// after st.Whole is called.
//
// When st.Tool is called on t, t.File.Tools holds t and every tool before
// it, and one more tool unless t is the file's last one (a check can tell
// the file's only tool), and t.File.Errors is not complete yet: each is
// called on the file once it is parsed, as LoadFilesFunc calls it, with
// every tool and error. For any other file st.Tool is not called. A panic
// in it is a panic while parsing (see ParseFile): the file then has no
// tools.
func LoadFilesStream(files []string, st Stream, each func(i int, f *File)) *Set {
	var stream func(i int) *streamer
	if st.Min > 0 && st.Tool != nil {
		stream = func(i int) *streamer {
			s := &streamer{min: st.Min, tool: func(t *Tool) { st.Tool(i, t) }}
			if st.Whole != nil {
				s.whole = func(size int) { st.Whole(i, size) }
			}
			return s
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
