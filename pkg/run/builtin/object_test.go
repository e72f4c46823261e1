package builtin

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

func TestObject(t *testing.T) {
	const user = `{"user": {"name": "Ada", "tags": ["x", "y"], "address": {"city": "London"}}, "a.b": 1}`
	cases := []struct {
		input string
		want  string // the whole result as JSON
	}{
		{`{"operation": "keys", "object": {"b": 1, "a": 2}}`, `{"result":["a","b"]}`},
		{`{"operation": "keys", "object": {}}`, `{"result":[]}`},
		{`{"operation": "values", "object": {"b": 1, "a": 2}}`, `{"result":[2,1]}`},
		{`{"operation": "entries", "object": {"b": 1, "a": [2]}}`, `{"result":[{"key":"a","value":[2]},{"key":"b","value":1}]}`},
		{`{"operation": "from_entries", "entries": [{"key": "a", "value": 1}, ["b", 2], {"name": "c", "value": null}, {"k": 4, "v": true}]}`, `{"result":{"4":true,"a":1,"b":2,"c":null}}`},
		{`{"operation": "get", "object": ` + user + `, "path": "user.address.city"}`, `{"found":true,"result":"London"}`},
		{`{"operation": "get", "object": ` + user + `, "path": "user.tags.1"}`, `{"found":true,"result":"y"}`},
		{`{"operation": "get", "object": ` + user + `, "path": "user.tags[-1]"}`, `{"found":true,"result":"y"}`},
		{`{"operation": "get", "object": ` + user + `, "path": "$.user.tags[0]"}`, `{"found":true,"result":"x"}`},
		{`{"operation": "get", "object": ` + user + `, "path": "[\"a.b\"]"}`, `{"found":true,"result":1}`},
		{`{"operation": "get", "object": ` + user + `, "path": "a\\.b"}`, `{"found":true,"result":1}`},
		{`{"operation": "get", "object": ` + user + `, "path": "user.age"}`, `{"found":false,"result":null}`},
		{`{"operation": "get", "object": ` + user + `, "path": "user.tags.5"}`, `{"found":false,"result":null}`},
		{`{"operation": "get", "object": ` + user + `, "path": "user.name.first"}`, `{"found":false,"result":null}`},
		{`{"operation": "get", "object": {"a": 1}, "path": ""}`, `{"found":true,"result":{"a":1}}`},
		{`{"operation": "has", "object": ` + user + `, "path": "user.name"}`, `{"result":true}`},
		{`{"operation": "has", "object": {"a": null}, "path": "a"}`, `{"result":true}`},
		{`{"operation": "has", "object": {}, "path": "a"}`, `{"result":false}`},
		{`{"operation": "set", "object": {"a": 1}, "path": "b.c", "value": [1]}`, `{"result":{"a":1,"b":{"c":[1]}}}`},
		{`{"operation": "set", "object": {"l": [1, 2]}, "path": "l.2", "value": 3}`, `{"result":{"l":[1,2,3]}}`},
		{`{"operation": "set", "object": {"l": [1, 2]}, "path": "l.-1", "value": 9}`, `{"result":{"l":[1,9]}}`},
		{`{"operation": "set", "object": {"l": [{"a": 1}]}, "path": "l[0].b", "value": 2}`, `{"result":{"l":[{"a":1,"b":2}]}}`},
		{`{"operation": "set", "object": {}, "path": "a"}`, `{"result":{"a":null}}`},
		{`{"operation": "delete", "object": {"a": 1, "b": {"c": 2, "d": 3}}, "path": "b.c"}`, `{"deleted":true,"result":{"a":1,"b":{"d":3}}}`},
		{`{"operation": "delete", "object": {"l": [1, 2, 3]}, "path": "l.1"}`, `{"deleted":true,"result":{"l":[1,3]}}`},
		{`{"operation": "delete", "object": {"x": {"l": [1, 2, 3]}}, "path": "x.l.0"}`, `{"deleted":true,"result":{"x":{"l":[2,3]}}}`},
		{`{"operation": "delete", "object": {"a": 1}, "path": "z"}`, `{"deleted":false,"result":{"a":1}}`},
		{`{"operation": "merge", "object": {"a": 1, "n": {"x": 1, "y": 2}, "l": [1]}, "other": {"b": 2, "n": {"y": 3, "z": 4}, "l": [2]}}`, `{"result":{"a":1,"b":2,"l":[2],"n":{"x":1,"y":3,"z":4}}}`},
		{`{"operation": "merge", "object": {"l": [1], "n": {"l": ["a"]}}, "other": {"l": [2], "n": {"l": ["b"]}}, "array_merge": "concat"}`, `{"result":{"l":[1,2],"n":{"l":["a","b"]}}}`},
		{`{"operation": "merge", "object": {"a": {"x": 1}}, "other": {"a": 5}}`, `{"result":{"a":5}}`},
		{`{"operation": "pick", "object": ` + user + `, "paths": ["user.name", "user.address.city", "user.email"]}`, `{"missing":["user.email"],"result":{"user":{"address":{"city":"London"},"name":"Ada"}}}`},
		{`{"operation": "pick", "object": {"a": 1}, "paths": []}`, `{"missing":[],"result":{}}`},
		{`{"operation": "omit", "object": ` + user + `, "paths": ["user.tags", "user.address", "a\\.b", "nope"]}`, `{"result":{"user":{"name":"Ada"}}}`},
	}
	for _, tc := range cases {
		got, err := biRun(t, objectHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); s != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}

// The handler must not change the caller's input: the runner may retry.
func TestObjectLeavesInputAlone(t *testing.T) {
	c := &run.Call{Options: &run.Options{}}
	if _, err := biRunCall(t, objectHandler, `{"operation": "set", "object": {"a": {"b": 1}}, "path": "a.b", "value": 2}`, c); err != nil {
		t.Fatal(err)
	}
	if s := biJSON(t, c.Input["object"]); s != `{"a":{"b":1}}` {
		t.Errorf("input changed to %s", s)
	}
}

func TestObjectErrors(t *testing.T) {
	cases := []struct {
		input, param, msg string
	}{
		{`{"operation": "flip", "object": {}}`, "operation", `unknown operation "flip"; use one of keys, values`},
		{`{"operation": "set", "object": {}, "value": 1}`, "path", "operation set needs path"},
		{`{"operation": "delete", "object": {}}`, "path", "operation delete needs path"},
		{`{"operation": "set", "object": {"a": "s"}, "path": "a.b", "value": 1}`, "path", `cannot set "b" inside a string`},
		{`{"operation": "set", "object": {"l": [1]}, "path": "l.5", "value": 1}`, "path", `"5" is not an index of a list of length 1; use 0 to 0`},
		{`{"operation": "set", "object": {"l": [1]}, "path": "l.x", "value": 1}`, "path", "is not an index"},
		{`{"operation": "get", "object": {}, "path": "a.*"}`, "path", "uses *, which object does not support"},
		{`{"operation": "get", "object": {}, "path": "a[x]"}`, "path", "brackets take an index, * or a quoted key"},
		{`{"operation": "get", "object": {}, "path": "a[0"}`, "path", "has a [ without ]"},
		{`{"operation": "get", "object": {}, "path": "a."}`, "path", "ends with a dot"},
		{`{"operation": "pick", "object": {}, "paths": ["a", 3]}`, "paths/1", "paths[1] is a number; give paths as strings"},
		{`{"operation": "from_entries", "entries": [["a"]]}`, "entries/0", "entries[0] is a list of 1 items"},
		{`{"operation": "from_entries", "entries": [{"value": 1}]}`, "entries/0", "entries[0] has no key"},
		{`{"operation": "from_entries", "entries": [[null, 1]]}`, "entries/0", "has a null key"},
		{`{"operation": "merge", "object": {}, "other": {}, "array_merge": "zip"}`, "array_merge", `array_merge "zip" is not known`},
		{`{"operation": "keys", "object": [1]}`, "object", `parameter "object": expected an object, got array`},
	}
	for _, tc := range cases {
		_, err := biRun(t, objectHandler, tc.input)
		if e := biWantError(t, tc.input, err, run.ValidationError, tc.msg); e != nil && e.Param != tc.param {
			t.Errorf("%s: param %q, want %q", tc.input, e.Param, tc.param)
		}
	}
}
