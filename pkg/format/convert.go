package format

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// listTypes are the types the Feagent list form takes (any: no constraint).
var listTypes = []string{"string", "number", "integer", "boolean", "object", "array", "any"}

// inputKeys are the keys that hold a tool's input, in spec's order
// (arguments: Docker's MCP registry list).
var inputKeys = []string{"parameters", "input_schema", "inputSchema", "arguments"}

// inputKey returns the key node of the tool's input, or nil.
func inputKey(n *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if slices.Contains(inputKeys, n.Content[i].Value) {
			return n.Content[i]
		}
	}
	return nil
}

// convert rewrites the tool's input in f.opts.To's form, or says why that
// would lose something. verify then checks that the input schema the tool
// means is the same.
func (f *file) convert(n *yaml.Node) *Error {
	var keys []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if slices.Contains(inputKeys, n.Content[i].Value) {
			keys = append(keys, n.Content[i])
		}
	}
	if len(keys) == 0 {
		return nil
	}
	name := nameOf(n)
	if len(keys) > 1 {
		return f.errAt(keys[1], "cannot convert tool %q: both %q and %q define the input; keep one", name, keys[0].Value, keys[1].Value)
	}
	key := keys[0]
	val := get(n, key.Value)
	if hasAlias(val) {
		return f.errAt(val, "cannot convert tool %q: its %s uses YAML anchors or aliases; write it out in full first", name, key.Value)
	}
	isList := val.Kind == yaml.SequenceNode
	docker := key.Value == "arguments"
	if docker && isList && f.opts.To == Feagent {
		// Docker's list to Feagent's, through the schema both mean.
		schema, err := f.listToSchema(name, val, true)
		if err != nil {
			return err
		}
		val, isList = schema, false
		key.Value = "input_schema"
		replaceValue(n, key, schema)
	}
	switch {
	case f.opts.To == Schema && isList:
		schema, err := f.listToSchema(name, val, docker)
		if err != nil {
			return err
		}
		key.Value = "input_schema"
		replaceValue(n, key, schema)
	case f.opts.To == Feagent && !isList:
		list, err := f.schemaToList(name, key.Value, val)
		if err != nil {
			return err
		}
		key.Value = "parameters"
		replaceValue(n, key, list)
		// comments of the schema's own keywords go above the list
		for _, c := range f.carried {
			key.HeadComment = joinComments(key.HeadComment, c)
		}
		f.carried = nil
	}
	return nil
}

func replaceValue(n, key, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i] == key {
			old := n.Content[i+1]
			v.LineComment = joinComments(old.LineComment, v.LineComment)
			v.FootComment = joinComments(old.FootComment, v.FootComment)
			n.Content[i+1] = v
		}
	}
}

func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// listToSchema turns [{name, type, description, required, ...}] into
// {type: object, properties: {...}, required: [...]} the way spec reads
// the list form: required: true feeds the required list, type: any means
// no type, every other key is kept in its order. docker reads Docker's
// arguments list as spec.DockerArguments does: desc is the description,
// an argument is required unless optional: true or required: false.
func (f *file) listToSchema(tool string, list *yaml.Node, docker bool) (*yaml.Node, *Error) {
	what := "parameters"
	if docker {
		what = "arguments"
	}
	props := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	required := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	seen := map[string]bool{}
	for i, item := range list.Content {
		if item.Kind != yaml.MappingNode {
			return nil, f.errAt(item, "cannot convert tool %q: %s[%d] is not a mapping {name, type, ...}; fix it first (toolctl lint)", tool, what, i)
		}
		var nameKey, nameVal *yaml.Node
		prop := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		var carried []string // comments of the keys that do not survive
		req := docker
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, v := item.Content[j], item.Content[j+1]
			switch k.Value {
			case "name":
				nameKey, nameVal = k, v
				continue
			case "required", "optional":
				if k.Value == "optional" && !docker {
					break
				}
				if v.Kind == yaml.ScalarNode && v.Tag == "!!null" && docker {
					// spec.DockerArguments: null says nothing
				} else if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
					return nil, f.errAt(v, "cannot convert tool %q: %s[%d].%s is not true or false", tool, what, i, k.Value)
				} else {
					b := v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
					switch {
					case !docker:
						req = b
					case k.Value == "optional" && b, k.Value == "required" && !b:
						req = false
					}
				}
				carried = append(carried, k.HeadComment, k.LineComment, v.LineComment, k.FootComment, v.FootComment)
				continue
			case "desc":
				if docker {
					d := *k
					d.Value = "description"
					prop.Content = append(prop.Content, &d, v)
					continue
				}
			case "type":
				if v.Kind == yaml.ScalarNode && v.Value == "any" && !docker {
					carried = append(carried, k.HeadComment, k.LineComment, v.LineComment, k.FootComment, v.FootComment)
					continue
				}
			}
			prop.Content = append(prop.Content, k, v)
		}
		if nameVal == nil || nameVal.Kind != yaml.ScalarNode || nameVal.Value == "" {
			return nil, f.errAt(item, "cannot convert tool %q: %s[%d] has no name; fix it first (toolctl lint)", tool, what, i)
		}
		pname := nameVal.Value
		if seen[pname] {
			return nil, f.errAt(nameVal, "cannot convert tool %q: parameter %q is defined twice; a JSON Schema has one property per name", tool, pname)
		}
		seen[pname] = true
		pkey := scalar("!!str", pname)
		pkey.HeadComment = joinComments(item.HeadComment, nameKey.HeadComment)
		pkey.LineComment = joinComments(nameKey.LineComment, nameVal.LineComment)
		prop.LineComment = item.LineComment
		prop.FootComment = joinComments(joinComments(item.FootComment, nameKey.FootComment), nameVal.FootComment)
		// comments of the keys that go (required, type: any) go above
		for _, c := range carried {
			pkey.HeadComment = joinComments(pkey.HeadComment, c)
		}
		props.Content = append(props.Content, pkey, prop)
		if req {
			required.Content = append(required.Content, scalar("!!str", pname))
		}
	}
	schema := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: list.HeadComment}
	schema.Content = append(schema.Content, scalar("!!str", "type"), scalar("!!str", "object"), scalar("!!str", "properties"), props)
	if len(required.Content) > 0 {
		schema.Content = append(schema.Content, scalar("!!str", "required"), required)
	}
	if len(props.Content) == 0 {
		props.Style = yaml.FlowStyle
	}
	return schema, nil
}

// schemaToList turns a JSON Schema object into the list form, refusing
// what the list cannot say: keywords beside properties and required, a
// property with several types, an object parameter's own required list.
func (f *file) schemaToList(tool, key string, s *yaml.Node) (*yaml.Node, *Error) {
	fail := func(n *yaml.Node, format string, args ...any) (*yaml.Node, *Error) {
		return nil, f.errAt(n, "cannot convert tool %q to the feagent list form: %s", tool, fmt.Sprintf(format, args...))
	}
	if s.Kind != yaml.MappingNode {
		return fail(s, "%s is not a mapping", key)
	}
	var extra []string
	var firstExtra *yaml.Node
	var props, required *yaml.Node
	for i := 0; i+1 < len(s.Content); i += 2 {
		k, v := s.Content[i], s.Content[i+1]
		switch k.Value {
		case "type":
			if v.Kind != yaml.ScalarNode || v.Value != "object" {
				return fail(v, "%s has type %s; the list form describes an object's properties", key, describe(v))
			}
		case "properties":
			props = v
		case "required":
			required = v
		default:
			extra = append(extra, k.Value)
			if firstExtra == nil {
				firstExtra = k
			}
		}
		if k.Value != "properties" {
			f.carried = append(f.carried, k.HeadComment, k.LineComment, k.FootComment, v.HeadComment, v.LineComment, v.FootComment)
		} else {
			f.carried = append(f.carried, k.HeadComment, k.LineComment, k.FootComment)
		}
	}
	if len(extra) > 0 {
		return fail(firstExtra, "%s has %s, which the list form cannot hold (it has only the properties and their required flags)", key, strings.Join(extra, ", "))
	}
	if props != nil && props.Kind != yaml.MappingNode {
		return fail(props, "%s.properties is not a mapping", key)
	}
	req := map[string]bool{}
	if required != nil {
		if required.Kind != yaml.SequenceNode {
			return fail(required, "%s.required is not a list", key)
		}
		for _, r := range required.Content {
			if r.Kind != yaml.ScalarNode || get(props, r.Value) == nil {
				return fail(r, "%s.required names %s, which is not a property; the list form cannot say that", key, describe(r))
			}
			f.carried = append(f.carried, r.HeadComment, r.LineComment, r.FootComment)
			req[r.Value] = true
		}
	}
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", HeadComment: s.HeadComment, LineComment: s.LineComment, FootComment: s.FootComment}
	if props != nil {
		list.FootComment = joinComments(list.FootComment, props.FootComment)
		list.HeadComment = joinComments(list.HeadComment, props.HeadComment)
	}
	for i := 0; props != nil && i+1 < len(props.Content); i += 2 {
		pk, pv := props.Content[i], props.Content[i+1]
		if pv.Kind != yaml.MappingNode {
			return fail(pv, "property %q is %s, not a schema mapping", pk.Value, describe(pv))
		}
		item := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: pk.HeadComment, FootComment: joinComments(pk.FootComment, pv.FootComment)}
		nameVal := scalar("!!str", pk.Value)
		nameVal.LineComment = joinComments(pk.LineComment, pv.LineComment)
		item.Content = append(item.Content, scalar("!!str", "name"), nameVal)
		typ := get(pv, "type")
		switch {
		case typ == nil:
			item.Content = append(item.Content, scalar("!!str", "type"), scalar("!!str", "any"))
		case typ.Kind != yaml.ScalarNode || !slices.Contains(listTypes[:6], typ.Value):
			return fail(typ, "property %q has type %s; the list form takes one of %s", pk.Value, describe(typ), strings.Join(listTypes, ", "))
		}
		reqNode := []*yaml.Node{scalar("!!str", "required"), scalar("!!bool", fmt.Sprint(req[pk.Value]))}
		placed := false
		for j := 0; j+1 < len(pv.Content); j += 2 {
			k, v := pv.Content[j], pv.Content[j+1]
			switch k.Value {
			case "name":
				return fail(k, "property %q has a name keyword, which the list form uses for the parameter's name", pk.Value)
			case "required":
				return fail(k, "property %q has its own required list (an object parameter's required properties); in the list form required is the parameter's own true/false", pk.Value)
			}
			item.Content = append(item.Content, k, v)
			if k.Value == "description" {
				item.Content = append(item.Content, reqNode...)
				placed = true
			}
		}
		if !placed {
			// after type, else at the end: the position means nothing to
			// the schema, only to the reader
			at := len(item.Content)
			if i := indexKey(item, "type"); i >= 0 {
				at = i + 2
			}
			item.Content = slices.Insert(item.Content, at, reqNode...)
		}
		list.Content = append(list.Content, item)
	}
	if len(list.Content) == 0 {
		list.Style = yaml.FlowStyle
	}
	return list, nil
}

func indexKey(n *yaml.Node, key string) int {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return i
		}
	}
	return -1
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	case yaml.SequenceNode:
		vals := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			vals = append(vals, c.Value)
		}
		return "[" + strings.Join(vals, ", ") + "]"
	case yaml.MappingNode:
		return "a mapping"
	}
	return "an alias"
}
