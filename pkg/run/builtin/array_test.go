package builtin

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

func TestArray(t *testing.T) {
	cases := []struct {
		input string
		want  string // the whole result as JSON
	}{
		{`{"operation": "length", "items": [1, 2, 3]}`, `{"result":3}`},
		{`{"operation": "length", "items": []}`, `{"result":0}`},
		{`{"operation": "reverse", "items": [1, "a", null]}`, `{"result":[null,"a",1]}`},
		{`{"operation": "sort", "items": [10, 9, 1.5, -2]}`, `{"result":[-2,1.5,9,10]}`},
		{`{"operation": "sort", "items": ["b", "B", "a"], "order": "desc"}`, `{"result":["b","a","B"]}`},
		{`{"operation": "sort", "items": ["x", 2, null, true, [1], {"a": 1}, 1]}`, `{"result":[null,true,1,2,"x",[1],{"a":1}]}`},
		{`{"operation": "sort", "items": [{"n": "b", "age": 30}, {"n": "a", "age": 25}, {"n": "c"}], "key": "age"}`, `{"result":[{"n":"c"},{"age":25,"n":"a"},{"age":30,"n":"b"}]}`},
		{`{"operation": "sort", "items": [{"id": 1, "v": 2}, {"id": 2, "v": 1}, {"id": 3, "v": 2}], "key": "v", "order": "desc"}`, `{"result":[{"id":1,"v":2},{"id":3,"v":2},{"id":2,"v":1}]}`},
		{`{"operation": "unique", "items": [1, 1.0, "1", {"a": [1]}, {"a": [1.00]}, 2, 1]}`, `{"result":[1,"1",{"a":[1]},2]}`},
		{`{"operation": "unique", "items": [{"id": 1, "x": "a"}, {"id": 1, "x": "b"}, {"id": 2}], "key": "id"}`, `{"result":[{"id":1,"x":"a"},{"id":2}]}`},
		{`{"operation": "slice", "items": [0, 1, 2, 3, 4], "start": 1, "end": 3}`, `{"result":[1,2]}`},
		{`{"operation": "slice", "items": [0, 1, 2, 3, 4], "start": -2, "end": null}`, `{"result":[3,4]}`},
		{`{"operation": "slice", "items": [0, 1, 2], "start": 5}`, `{"result":[]}`},
		{`{"operation": "flatten", "items": [1, [2, [3, [4]]], []]}`, `{"result":[1,2,[3,[4]]]}`},
		{`{"operation": "flatten", "items": [1, [2, [3, [4]]]], "depth": 100}`, `{"result":[1,2,3,4]}`},
		{`{"operation": "chunk", "items": [1, 2, 3, 4, 5], "size": 2}`, `{"result":[[1,2],[3,4],[5]]}`},
		{`{"operation": "chunk", "items": [], "size": 2}`, `{"result":[]}`},
		{`{"operation": "sum", "items": [0.1, 0.2]}`, `{"result":0.3}`},
		{`{"operation": "sum", "items": [1, 2, 3]}`, `{"result":6}`},
		{`{"operation": "sum", "items": [9007199254740993, 1]}`, `{"result":9007199254740994}`},
		{`{"operation": "sum", "items": []}`, `{"result":0}`},
		{`{"operation": "sum", "items": [{"p": 1.5}, {"p": 2}], "key": "p"}`, `{"result":3.5}`},
		{`{"operation": "sum", "items": [1e2, 1]}`, `{"result":101}`},
		{`{"operation": "avg", "items": [1, 2, 3, 4]}`, `{"result":2.5}`},
		{`{"operation": "avg", "items": [1, 2]}`, `{"result":1.5}`},
		{`{"operation": "avg", "items": [0.1, 0.2, 0.3]}`, `{"result":0.2}`},
		{`{"operation": "avg", "items": []}`, `{"result":null}`},
		{`{"operation": "min", "items": [3, -1.5, 2]}`, `{"result":-1.5}`},
		{`{"operation": "max", "items": [3, 10, 2]}`, `{"result":10}`},
		{`{"operation": "max", "items": ["apple", "pear"]}`, `{"result":"pear"}`},
		{`{"operation": "max", "items": [{"n": "a", "age": 25}, {"n": "b", "age": 30}], "key": "age"}`, `{"result":{"age":30,"n":"b"}}`},
		{`{"operation": "min", "items": []}`, `{"result":null}`},
		{`{"operation": "join", "items": ["a", 1, true, null, {"k": 1}]}`, `{"result":"a,1,true,,{\"k\":1}"}`},
		{`{"operation": "join", "items": [{"n": "a"}, {"n": "b"}], "key": "n", "separator": " | "}`, `{"result":"a | b"}`},
		{`{"operation": "contains", "items": [1, 2, 3], "value": 2.0}`, `{"result":true}`},
		{`{"operation": "contains", "items": [1, 2, 3], "value": "2"}`, `{"result":false}`},
		{`{"operation": "contains", "items": [{"a": 1}], "value": {"a": 1}}`, `{"result":true}`},
		{`{"operation": "contains", "items": [null], "value": null}`, `{"result":true}`},
		{`{"operation": "index_of", "items": ["a", "b", "b"], "value": "b"}`, `{"result":1}`},
		{`{"operation": "index_of", "items": ["a"], "value": "z"}`, `{"result":-1}`},
		{`{"operation": "filter", "items": [{"s": "open", "id": 1}, {"s": "done", "id": 2}, {"s": "open", "id": 3}], "key": "s", "value": "open"}`, `{"result":[{"id":1,"s":"open"},{"id":3,"s":"open"}]}`},
		{`{"operation": "pluck", "items": [{"u": {"id": 1}}, {"u": {"id": 2}}, {}], "key": "u.id"}`, `{"result":[1,2,null]}`},
		{`{"operation": "group_by", "items": [{"t": "a", "v": 1}, {"t": "b", "v": 2}, {"t": "a", "v": 3}], "key": "t"}`, `{"result":{"a":[{"t":"a","v":1},{"t":"a","v":3}],"b":[{"t":"b","v":2}]}}`},
		{`{"operation": "frequencies", "items": ["b", "a", "b", 1, 1.0, "b"]}`, `{"result":[{"count":3,"value":"b"},{"count":2,"value":1},{"count":1,"value":"a"}]}`},
	}
	for _, tc := range cases {
		got, err := biRun(t, arrayHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); s != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}

func TestArrayErrors(t *testing.T) {
	cases := []struct {
		input, param, msg string
	}{
		{`{"operation": "shuffle", "items": []}`, "operation", `unknown operation "shuffle"; use one of length, sort`},
		{`{"operation": "sum", "items": [1, "2"]}`, "items/1", "items[1] is string, not a number"},
		{`{"operation": "avg", "items": [{"p": 1}, {}], "key": "p"}`, "items/1", "items[1].p is null, not a number"},
		{`{"operation": "sum", "items": [1e999999]}`, "items/0", "items[0] is a number beyond what sum and avg take (1e999999)"},
		// 100,000 digits: exact, it took 75 ms (a million: 5 s); as a
		// float it is too large.
		{`{"operation": "sum", "items": [1, 1` + strings.Repeat("7", 100000) + `]}`, "items/1", "items[1] is a number beyond what sum and avg take (17777777777777777777... 100001 characters)"},
		{`{"operation": "pluck", "items": [{"a": 1}]}`, "key", "operation pluck needs key"},
		{`{"operation": "group_by", "items": []}`, "key", "needs key"},
		{`{"operation": "chunk", "items": [1], "size": 0}`, "size", "size 0 is too small"},
		{`{"operation": "flatten", "items": [1], "depth": 0}`, "depth", "depth 0 is too small"},
		{`{"operation": "sort", "items": [1], "order": "up"}`, "order", `order "up" is not known`},
		{`{"operation": "sort", "items": [1], "key": "a..b"}`, "key", `key "a..b" has an empty key`},
		{`{"operation": "length", "items": "abc"}`, "items", `parameter "items": expected an array, got string`},
	}
	for _, tc := range cases {
		_, err := biRun(t, arrayHandler, tc.input)
		if e := biWantError(t, tc.input, err, run.ValidationError, tc.msg); e != nil && e.Param != tc.param {
			t.Errorf("%s: param %q, want %q", tc.input, e.Param, tc.param)
		}
	}
}

func TestArrayNumbers(t *testing.T) {
	cases := []struct {
		input, want string
	}{
		{`{"operation": "sum", "items": [0.1, 0.2, 19.99]}`, `{"result":20.29}`},
		{`{"operation": "sum", "items": [-0.5, 0.25]}`, `{"result":-0.25}`},
		{`{"operation": "sum", "items": [1e-1, 2e-1]}`, `{"result":0.3}`},
		{`{"operation": "sum", "items": [0.123456789012345678]}`, `{"result":0.123456789012346}`},
		{`{"operation": "sum", "items": [1e300, 1e300]}`, `{"result":2e+300}`},
		{`{"operation": "avg", "items": [1, 2, 2]}`, `{"result":1.66666666666667}`},
	}
	for _, tc := range cases {
		got, err := biRun(t, arrayHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); s != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}
