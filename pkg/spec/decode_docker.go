package spec

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"
)

// DockerArgumentKeys are the keys of an item of Docker's compact arguments
// list besides the JSON Schema keywords (type, items, ...), the annotation
// keywords and x-* extensions: name, desc (the description), optional, and
// required, which some registry files write instead of optional.
var DockerArgumentKeys = []string{"name", "desc", "optional", "required"}

var dockerArgumentKeys = KeywordSet(DockerArgumentKeys, Draft202012, AnnotationKeywords)

// ArgumentProblem is something wrong with an item of Docker's arguments
// list: the item at Index, at its key Key ("" for the whole item).
type ArgumentProblem struct {
	Index   int
	Key     string
	Message string
	// Unknown: Key is neither one of DockerArgumentKeys, a JSON Schema or
	// annotation keyword nor an x-* extension (a typo such as optinal). It
	// is kept in the property's schema; Message is empty, the caller decides.
	Unknown bool
}

// DockerArguments converts the compact parameter list of Docker's MCP
// registry, [{name, type, desc, items?, optional?}] (mcp-gateway's
// catalog.ToolArgument), into an input schema: each argument becomes a
// property with its keys in source order, desc renamed description; an
// argument is required unless it has optional: true (or required: false);
// name, optional and required are consumed, any other key is kept as a
// schema keyword. An item that cannot be read (not an object, no name, a
// name listed twice) is left out and reported. kind names a value for the
// messages ("got %s"). spec reads the arguments of a tool file with it,
// and toolctl import the arguments of the tools it imports.
// https://github.com/docker/mcp-gateway/blob/main/pkg/catalog/types.go
func DockerArguments(list []any, kind func(any) string) (*Map, []ArgumentProblem) {
	if kind == nil {
		kind = kindOfValue
	}
	props := NewMap(len(list))
	var required []any
	var problems []ArgumentProblem
	for i, item := range list {
		arg, ok := item.(*Map)
		if !ok {
			problems = append(problems, ArgumentProblem{Index: i, Message: fmt.Sprintf("arguments[%d]: expected an argument {name, type, desc, optional}, got %s", i, kind(item))})
			continue
		}
		nv, _ := arg.Get("name")
		name, ok := nv.(string)
		if !ok && nv != nil {
			problems = append(problems, ArgumentProblem{Index: i, Key: "name", Message: fmt.Sprintf("arguments[%d].name: expected a string, got %s", i, kind(nv))})
			continue
		}
		if name == "" {
			problems = append(problems, ArgumentProblem{Index: i, Message: fmt.Sprintf("arguments[%d]: there is no \"name\"; every argument needs one", i)})
			continue
		}
		if props.Has(name) {
			problems = append(problems, ArgumentProblem{Index: i, Key: "name", Message: fmt.Sprintf("arguments: %q is listed twice; keep one", name)})
			continue
		}
		prop := NewMap(arg.Len())
		req := true
		for j := 0; j < arg.Len(); j++ {
			k, val := arg.At(j)
			switch k {
			case "name":
			case "optional", "required":
				if val == nil {
					continue
				}
				b, ok := val.(bool)
				if !ok {
					problems = append(problems, ArgumentProblem{Index: i, Key: k, Message: fmt.Sprintf("arguments[%d].%s: expected true or false, got %s", i, k, kind(val))})
					continue
				}
				if k == "optional" && b || k == "required" && !b {
					req = false
				}
			case "desc":
				prop.Set("description", val)
			default:
				if !dockerArgumentKeys[k] && !IsSchemaExtension(k) {
					problems = append(problems, ArgumentProblem{Index: i, Key: k, Unknown: true})
				}
				prop.Set(k, val)
			}
		}
		props.Set(name, prop)
		if req {
			required = append(required, name)
		}
	}
	return objectSchema(props, required), problems
}

// dockerArguments reads a tool file's Docker arguments list (n, a
// sequence at ptr) into its input schema; the schema's positions are the
// list's items (see translateParamList).
func (d *decoder) dockerArguments(t *Tool, n *yaml.Node, ptr string) *Map {
	list, _ := d.value(n, ptr, 1).([]any)
	if len(list) != len(n.Content) {
		return nil // d.value stopped (nesting or size past the limits) and said so
	}
	schema, problems := DockerArguments(list, nil)
	for _, p := range problems {
		ip := ptr + "/" + strconv.Itoa(p.Index)
		at := n.Content[p.Index]
		if p.Key != "" {
			ip += "/" + escapeToken(p.Key)
			if _, v := lookup(resolve(at), p.Key, 0); v != nil {
				at = v
			}
		}
		if p.Unknown {
			t.unknownAt(ip) // lint's field-unknown, at the key
			continue
		}
		d.errorf(at, ip, "%s", p.Message)
	}
	return schema
}
