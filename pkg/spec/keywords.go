package spec

import (
	"slices"
	"strings"
)

// The keywords of each JSON Schema draft, as its meta-schema (and its
// specification's vocabularies) lists them: the one keyword vocabulary of
// toolctl. Lint's schema-keyword-unknown checks every key in a schema
// position against the draft the schema's $schema names (2020-12 without
// one); the Feagent list form and Docker's arguments check the keys of an
// item against Draft202012; validate's fast checks and lint's fast meta
// check know the library's keywords by it; the decoder tells a schema
// from a {field: type} map by SchemaKeywords.
var (
	// Draft4: http://json-schema.org/draft-04/schema ($ref and format are
	// keywords the meta-schema does not list).
	Draft4 = []string{
		"id", "$schema", "$ref", "title", "description", "default",
		"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "additionalItems", "items", "maxItems", "minItems",
		"uniqueItems", "maxProperties", "minProperties", "required", "additionalProperties",
		"definitions", "properties", "patternProperties", "dependencies", "enum", "type", "format",
		"allOf", "anyOf", "oneOf", "not",
	}
	// Draft6 renames id to $id and adds examples, contains, propertyNames
	// and const.
	Draft6 = slices.Concat(without(Draft4, "id"), []string{"$id", "examples", "contains", "propertyNames", "const"})
	// Draft7 adds $comment, if/then/else, readOnly, writeOnly and the
	// content keywords.
	Draft7 = slices.Concat(Draft6, []string{"$comment", "if", "then", "else", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"})
	// Draft201909 adds $defs, $anchor, $recursiveRef, $recursiveAnchor,
	// $vocabulary, dependentSchemas, dependentRequired, the unevaluated
	// keywords, min/maxContains, deprecated and contentSchema; its
	// meta-schema keeps definitions and dependencies.
	Draft201909 = slices.Concat(Draft7, []string{
		"$defs", "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary",
		"dependentSchemas", "dependentRequired", "unevaluatedItems", "unevaluatedProperties",
		"maxContains", "minContains", "deprecated", "contentSchema",
	})
	// Draft202012 replaces $recursiveRef/$recursiveAnchor by
	// $dynamicRef/$dynamicAnchor and adds prefixItems; its meta-schema
	// still lists definitions, dependencies, $recursiveRef and
	// $recursiveAnchor (deprecated, "for compatibility").
	Draft202012 = slices.Concat(Draft201909, []string{"$dynamicRef", "$dynamicAnchor", "prefixItems"})
)

func without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
}

// SchemaKeywords are the keys that make a mapping a JSON Schema rather
// than a {field: type} map (see looksLikeSchema): the keywords of 2020-12
// and draft-07 but $recursiveRef and $recursiveAnchor, and OpenAPI's
// nullable, which providers accept.
var SchemaKeywords = KeywordSet(without(Draft202012, "$recursiveRef", "$recursiveAnchor"), []string{"nullable"})

// KeywordSet is the set of the keys in lists.
func KeywordSet(lists ...[]string) map[string]bool {
	m := map[string]bool{}
	for _, list := range lists {
		for _, k := range list {
			m[k] = true
		}
	}
	return m
}

// SchemaDraft names the draft a schema's $schema declares ("2020-12",
// "2019-09", "draft-07", "draft-06", "draft-04") with its keywords; a
// schema without $schema, or with one toolctl does not know, is 2020-12.
func SchemaDraft(s *Map) (name string, keywords []string) {
	if v, ok := s.GetString("$schema"); ok {
		u := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(v), "#"), ".json")
		u = strings.TrimSuffix(u, "/schema")
		switch {
		case strings.HasSuffix(u, "/draft-04"):
			return "draft-04", Draft4
		case strings.HasSuffix(u, "/draft-06"):
			return "draft-06", Draft6
		case strings.HasSuffix(u, "/draft-07"):
			return "draft-07", Draft7
		case strings.HasSuffix(u, "/draft/2019-09"):
			return "2019-09", Draft201909
		}
	}
	return "2020-12", Draft202012
}

// AnnotationKeywords are keys that are no keyword of any JSON Schema draft
// but that provider schemas define and generated tool files therefore
// carry, and that toolctl accepts in a schema position (besides x-*
// extensions): the OpenAPI 3.0 Schema Object's nullable, example,
// discriminator, externalDocs and xml
// (https://spec.openapis.org/oas/v3.0.3#schema-object), Gemini's Schema
// nullable, example and propertyOrdering
// (https://ai.google.dev/api/caching#Schema). None of them occurs in a
// schema of the shared corpora (every key there is a keyword of its
// draft); a key outside both lists is reported.
var AnnotationKeywords = []string{"nullable", "example", "discriminator", "externalDocs", "xml", "propertyOrdering"}

// IsSchemaExtension tells whether a key in a schema is an extension
// (x-*), kept and never checked.
func IsSchemaExtension(key string) bool { return strings.HasPrefix(key, "x-") }
