package spec

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// input reads parameters (list or schema form), input_schema, inputSchema
// or Docker's arguments list into a JSON Schema object. It reports whether
// a list form was used.
func (d *decoder) input(t *Tool, v *yaml.Node, ptr, key string) (*Map, bool) {
	n := resolve(v)
	if isNull(n) {
		return nil, false
	}
	if key == "arguments" {
		if n.Kind != yaml.SequenceNode {
			d.errorf(v, ptr, "arguments: expected a list of arguments [{name, type, desc, optional}] (Docker's MCP registry form), got %s", KindName(v))
			return nil, false
		}
		return d.dockerArguments(t, n, ptr), true
	}
	switch n.Kind {
	case yaml.SequenceNode:
		if key != "parameters" {
			d.errorf(v, ptr, "%s: expected a JSON Schema object, got a list; the list form of parameters goes under \"parameters\"", key)
			return nil, false
		}
		return d.paramList(t, n, ptr), true
	case yaml.MappingNode:
		m, _ := d.value(n, ptr, 1).(*Map)
		// The SDK dialect lets parameters omit type: object.
		if key == "parameters" && m != nil && !m.Has("type") {
			m.SetFirst("type", "object")
		}
		return m, false
	}
	if key == "parameters" {
		d.errorf(v, ptr, "parameters: expected a list of parameters or a JSON Schema object, got %s", KindName(v))
	} else {
		d.errorf(v, ptr, "%s: expected a JSON Schema object, got %s", key, KindName(v))
	}
	return nil, false
}

// paramList converts the Feagent list form into a JSON Schema object:
// required: true becomes the required array, type any means no type
// constraint, every other key (description, default, enum, items, ...) is
// kept in its order. A key that is neither name, required, a JSON Schema
// keyword, an annotation keyword nor an x-* extension is recorded in
// t.UnknownFields (a misspelt "requried: true" would otherwise leave the
// parameter optional without a word); it stays in the schema as written.
func (d *decoder) paramList(t *Tool, n *yaml.Node, ptr string) *Map {
	props := NewMap(len(n.Content))
	var required []any
	firstAt := map[string]int{}
	for i, item := range n.Content {
		ip := ptr + "/" + strconv.Itoa(i)
		it := resolve(item)
		if it == nil || it.Kind != yaml.MappingNode {
			d.errorf(item, ip, "parameters[%d]: expected {name, type, description, required, ...}, got %s", i, KindName(item))
			continue
		}
		ps := d.pairs(it, ip)
		prop := NewMap(len(ps))
		name, req := "", false
		for _, p := range ps {
			k := p.key.Value
			kp := ip + "/" + escapeToken(k)
			switch k {
			case "name":
				name = d.str(p.value, kp, "parameters["+strconv.Itoa(i)+"].name")
			case "required":
				if b := d.boolean(p.value, kp, "parameters["+strconv.Itoa(i)+"].required"); b != nil {
					req = *b
				}
			case "type":
				if tv := resolve(p.value); tv.Kind == yaml.ScalarNode && tv.Value == "any" {
					continue
				}
				prop.Set(k, d.value(p.value, kp, 3))
			default:
				if !IsParamItemKey(k) {
					t.unknownAt(kp)
				}
				prop.Set(k, d.value(p.value, kp, 3))
			}
		}
		if name == "" {
			d.errorf(item, ip, "parameters[%d]: missing name; every parameter needs one", i)
			continue
		}
		if j, dup := firstAt[name]; dup {
			d.errorf(item, ip, "parameters[%d]: parameter %q is already defined by parameters[%d]; rename or remove one", i, name, j)
			continue
		}
		firstAt[name] = i
		props.Set(name, prop)
		if req {
			required = append(required, name)
		}
	}
	return objectSchema(props, required)
}

// ParamItemKeys are the keys of a Feagent list parameter item besides the
// JSON Schema keywords (Draft202012), the annotation keywords and x-*
// extensions.
var ParamItemKeys = []string{"name", "required"}

var paramItemKeys = KeywordSet(ParamItemKeys, Draft202012, AnnotationKeywords)

// IsParamItemKey tells whether key may appear in a Feagent list parameter
// item.
func IsParamItemKey(key string) bool { return paramItemKeys[key] || IsSchemaExtension(key) }

// InputFromList tells whether the input schema was built from a list of
// parameters, Feagent's or Docker's arguments (its properties are the
// list's items).
func (t *Tool) InputFromList() bool { return t.layout.inputList }

// OutputFromFields tells whether the output schema was built from
// Feagent's returns map of fields ({field: type}): its properties are the
// fields.
func (t *Tool) OutputFromFields() bool { return t.layout.outputFields }

// returns reads Feagent's returns: a JSON Schema, the short form
// {field: type} or the long form {field: {type, description}}. It reports
// whether the field-map forms were used.
func (d *decoder) returns(v *yaml.Node, ptr string) (*Map, bool) {
	n := resolve(v)
	if isNull(n) {
		return nil, false
	}
	switch {
	case n.Kind == yaml.ScalarNode:
		return typeSchema(n.Value), false
	case n.Kind != yaml.MappingNode:
		d.errorf(v, ptr, "returns: expected a JSON Schema or a map of fields to types, got %s", KindName(v))
		return nil, false
	case looksLikeSchema(n):
		m, _ := d.value(n, ptr, 1).(*Map)
		stripAnyType(m)
		return m, false
	}
	ps := d.pairs(n, ptr)
	props := NewMap(len(ps))
	for _, p := range ps {
		kp := ptr + "/" + escapeToken(p.key.Value)
		fv := resolve(p.value)
		switch {
		case fv.Kind == yaml.ScalarNode && !isNull(fv):
			props.Set(p.key.Value, typeSchema(fv.Value))
		case fv.Kind == yaml.MappingNode:
			m, _ := d.value(fv, kp, 2).(*Map)
			stripAnyType(m)
			props.Set(p.key.Value, m)
		default:
			d.errorf(p.value, kp, "returns.%s: expected a type name or {type, description}, got %s", p.key.Value, KindName(p.value))
		}
	}
	schema := NewMap(2)
	schema.Set("type", "object")
	schema.Set("properties", props)
	return schema, true
}

// typeSchema is the schema of a Feagent type name; any has no constraint.
func typeSchema(name string) *Map {
	m := NewMap(1)
	if name != "any" {
		m.Set("type", name)
	}
	return m
}

// stripAnyType removes Feagent's "type: any" (not a JSON Schema type) from a
// schema and the schemas nested in properties and items.
func stripAnyType(m *Map) {
	if m == nil {
		return
	}
	if s, ok := m.GetString("type"); ok && s == "any" {
		m.Delete("type")
	}
	if props, ok := m.GetMap("properties"); ok {
		for _, mb := range props.members {
			if sub, ok := mb.value.(*Map); ok {
				stripAnyType(sub)
			}
		}
	}
	if items, ok := m.GetMap("items"); ok {
		stripAnyType(items)
	}
}

var jsonTypes = map[string]bool{
	"object": true, "array": true, "string": true, "number": true,
	"integer": true, "boolean": true, "null": true, "any": true,
}

// looksLikeSchema tells a JSON Schema apart from a {field: type} map: every
// key is a schema keyword and a type, if any, names a JSON type.
func looksLikeSchema(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if !SchemaKeywords[k] {
			return false
		}
		if k == "type" {
			t := resolve(n.Content[i+1])
			if t.Kind == yaml.ScalarNode && !jsonTypes[t.Value] {
				return false
			}
		}
	}
	return true
}

// schema reads output_schema / outputSchema.
func (d *decoder) schema(v *yaml.Node, ptr, key string) *Map {
	n := resolve(v)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(v, ptr, "%s: expected a JSON Schema object, got %s", key, KindName(v))
		return nil
	}
	m, _ := d.value(n, ptr, 1).(*Map)
	return m
}

// objectSchema is {type: object, properties, required (when any)}: the
// input schema a parameter list or Docker's arguments stand for.
func objectSchema(props *Map, required []any) *Map {
	schema := NewMap(3)
	schema.Set("type", "object")
	schema.Set("properties", props)
	if len(required) > 0 {
		schema.Set("required", required)
	}
	return schema
}
