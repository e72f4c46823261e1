// Copied from github.com/santhosh-tekuri/jsonschema/v5 v5.3.1 (Apache License 2.0,
// LICENSE); changed by toolctl where a comment says "toolctl" (see README.md).

package jsonschema

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

type resource struct {
	url          string // base url of resource. can be empty
	floc         string // fragment with json-pointer from root resource
	doc          interface{}
	draft        *Draft
	subresources map[string]*resource // key is floc. only applicable for root resource
	schema       *Schema

	// Indexes of subresources, kept by addSubresources (root resource
	// only). toolctl: upstream scanned every subresource for each
	// subschema compiled, each $ref and each anchor, which is quadratic
	// in the size of one document (a tool with 50,000 parameters took
	// 93 s to compile).
	urlFloc     map[string]string   // non-empty url → floc of the subresource
	dynamicIn   map[string][]string // floc → flocs of the subresources below it declaring $dynamicAnchor
	anchorFlocs map[string][]string // anchor → flocs of the subresources declaring it
	visits      int                 // subresources examined by lookups (TestWideSchemaLinear)
	metaChecked bool                // the caller checked doc against its meta-schema (AddCheckedResource)
}

func (r *resource) String() string {
	return r.url + r.floc
}

func newResource(url string, r io.Reader) (*resource, error) {
	if strings.IndexByte(url, '#') != -1 {
		panic(fmt.Sprintf("BUG: newResource(%q)", url))
	}
	doc, err := unmarshal(r)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: invalid json %s: %v", url, err)
	}
	url, err = toAbs(url)
	if err != nil {
		return nil, err
	}
	return &resource{
		url:  url,
		floc: "#",
		doc:  doc,
	}, nil
}

// fillSubschemas fills subschemas in res into r.subresources
func (r *resource) fillSubschemas(c *Compiler, res *resource) error {
	if res != r || !r.metaChecked { // toolctl: AddCheckedResource
		if err := c.validateSchema(r, res.doc, res.floc[1:]); err != nil {
			return err
		}
	}

	listed := make(map[string]*resource)
	if err := r.draft.listSubschemas(res, r.baseURL(res.floc), listed); err != nil {
		return err
	}
	return r.addSubresources(listed)
}

// addSubresources adds listed to r.subresources and its indexes, and
// ensures subresource.url uniqueness. toolctl: upstream checked every
// subresource again on each call; the new ones are checked against the
// index instead (in floc order, so that the error is always the same).
func (r *resource) addSubresources(listed map[string]*resource) error {
	if r.subresources == nil {
		r.subresources = make(map[string]*resource)
		r.urlFloc = make(map[string]string)
		r.dynamicIn = make(map[string][]string)
		r.anchorFlocs = make(map[string][]string)
	}
	flocs := make([]string, 0, len(listed))
	for floc := range listed {
		flocs = append(flocs, floc)
	}
	sort.Strings(flocs)
	for _, floc := range flocs {
		sr := listed[floc]
		_, seen := r.subresources[floc]
		r.subresources[floc] = sr
		if sr.url != "" {
			if other, ok := r.urlFloc[sr.url]; ok && other != floc && r.subresources[other].url == sr.url {
				return fmt.Errorf("jsonschema: %q and %q in %s have same canonical-uri", other[1:], floc[1:], r.url)
			}
			r.urlFloc[sr.url] = floc
		}
		if seen {
			continue // the same location listed again: indexed already
		}
		m, ok := sr.doc.(map[string]interface{})
		if !ok {
			continue
		}
		if _, ok := m["$dynamicAnchor"]; ok {
			// Every resource above it lists it (listResources' prefix).
			for up := floc; ; {
				slash := strings.LastIndexByte(up, '/')
				if slash == -1 {
					break
				}
				up = up[:slash]
				r.dynamicIn[up] = append(r.dynamicIn[up], floc)
			}
		}
		for _, anchor := range r.draft.anchors(sr.doc) {
			r.anchorFlocs[anchor] = append(r.anchorFlocs[anchor], floc)
		}
	}
	return nil
}

// listDynamicAnchors lists the subresources in res that declare
// $dynamicAnchor. toolctl: upstream listed every subresource in res
// (listResources) and its caller kept these.
func (r *resource) listDynamicAnchors(res *resource) []*resource {
	flocs := r.dynamicIn[res.floc]
	result := make([]*resource, 0, len(flocs)+1)
	for _, floc := range flocs {
		r.visits++
		result = append(result, r.subresources[floc])
	}
	return result
}

func (r *resource) findResource(url string) *resource {
	if r.url == url {
		return r
	}
	if url == "" { // not indexed; upstream's scan
		for _, res := range r.subresources {
			r.visits++
			if res.url == url {
				return res
			}
		}
		return nil
	}
	// The location may have been listed again since, under another URL.
	if sr := r.subresources[r.urlFloc[url]]; sr != nil && sr.url == url {
		return sr
	}
	return nil
}

// resolve fragment f with sr as base
func (r *resource) resolveFragment(c *Compiler, sr *resource, f string) (*resource, error) {
	if f == "#" || f == "#/" {
		return sr, nil
	}

	// resolve by anchor
	if !strings.HasPrefix(f, "#/") {
		// check in given resource
		for _, anchor := range r.draft.anchors(sr.doc) {
			if anchor == f[1:] {
				return sr, nil
			}
		}

		// check in subresources that has same base url (toolctl: those
		// declaring the anchor, from the index, not every subresource)
		prefix := sr.floc + "/"
		for _, floc := range r.anchorFlocs[f[1:]] {
			r.visits++
			if strings.HasPrefix(floc, prefix) && r.baseURL(floc) == sr.url {
				return r.subresources[floc], nil
			}
		}
		return nil, nil
	}

	// resolve by ptr
	floc := sr.floc + f[1:]
	if res, ok := r.subresources[floc]; ok {
		return res, nil
	}

	// non-standrad location
	doc := r.doc
	for _, item := range strings.Split(floc[2:], "/") {
		item = strings.Replace(item, "~1", "/", -1)
		item = strings.Replace(item, "~0", "~", -1)
		item, err := url.PathUnescape(item)
		if err != nil {
			return nil, err
		}
		switch d := doc.(type) {
		case map[string]interface{}:
			if _, ok := d[item]; !ok {
				return nil, nil
			}
			doc = d[item]
		case []interface{}:
			index, err := strconv.Atoi(item)
			if err != nil {
				return nil, err
			}
			if index < 0 || index >= len(d) {
				return nil, nil
			}
			doc = d[index]
		default:
			return nil, nil
		}
	}

	id, err := r.draft.resolveID(r.baseURL(floc), doc)
	if err != nil {
		return nil, err
	}
	res := &resource{url: id, floc: floc, doc: doc}
	if err := r.addSubresources(map[string]*resource{floc: res}); err != nil {
		return nil, err
	}
	if err := r.fillSubschemas(c, res); err != nil {
		return nil, err
	}
	return res, nil
}

func (r *resource) baseURL(floc string) string {
	for {
		if sr, ok := r.subresources[floc]; ok {
			if sr.url != "" {
				return sr.url
			}
		}
		slash := strings.LastIndexByte(floc, '/')
		if slash == -1 {
			break
		}
		floc = floc[:slash]
	}
	return r.url
}

// url helpers ---

func toAbs(s string) (string, error) {
	// if windows absolute file path, convert to file url
	// because: net/url parses driver name as scheme
	if runtime.GOOS == "windows" && len(s) >= 3 && s[1:3] == `:\` {
		s = "file:///" + filepath.ToSlash(s)
	}

	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	if u.IsAbs() {
		return s, nil
	}

	// s is filepath
	if s, err = filepath.Abs(s); err != nil {
		return "", err
	}
	if runtime.GOOS == "windows" {
		s = "file:///" + filepath.ToSlash(s)
	} else {
		s = "file://" + s
	}
	u, err = url.Parse(s) // to fix spaces in filepath
	return u.String(), err
}

func resolveURL(base, ref string) (string, error) {
	if ref == "" {
		return base, nil
	}
	if strings.HasPrefix(ref, "urn:") {
		return ref, nil
	}

	refURL, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if refURL.IsAbs() {
		return ref, nil
	}

	if strings.HasPrefix(base, "urn:") {
		base, _ = split(base)
		return base + ref, nil
	}

	baseURL, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	return baseURL.ResolveReference(refURL).String(), nil
}

func split(uri string) (string, string) {
	hash := strings.IndexByte(uri, '#')
	if hash == -1 {
		return uri, "#"
	}
	f := uri[hash:]
	if f == "#/" {
		f = "#"
	}
	return uri[0:hash], f
}

func (s *Schema) url() string {
	u, _ := split(s.Location)
	return u
}

func (s *Schema) loc() string {
	_, f := split(s.Location)
	return f[1:]
}

func unmarshal(r io.Reader) (interface{}, error) {
	decoder := json.NewDecoder(r)
	decoder.UseNumber()
	var doc interface{}
	if err := decoder.Decode(&doc); err != nil {
		return nil, err
	}
	if t, _ := decoder.Token(); t != nil {
		return nil, fmt.Errorf("invalid character %v after top-level value", t)
	}
	return doc, nil
}
