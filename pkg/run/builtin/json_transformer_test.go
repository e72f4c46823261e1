package builtin

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

func TestJSONQuery(t *testing.T) {
	const order = `{"order": {"id": 7, "customer": {"name": "Ada"}, "items": [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}]}}`
	cases := []struct {
		input string
		want  string // the whole result as JSON
	}{
		{`{"operation": "get", "data": ` + order + `, "path": "order.customer.name"}`, `{"found":true,"result":"Ada"}`},
		{`{"operation": "get", "data": ` + order + `, "path": "order.items.1.sku"}`, `{"found":true,"result":"B2"}`},
		{`{"operation": "get", "data": ` + order + `, "path": "order.items[-1].qty"}`, `{"found":true,"result":1}`},
		{`{"operation": "get", "data": ` + order + `, "path": "order.items.*.sku"}`, `{"found":true,"result":["A1","B2"]}`},
		{`{"operation": "get", "data": ` + order + `, "path": "order.items[*].price"}`, `{"found":false,"result":[]}`},
		{`{"operation": "get", "data": {"a": {"y": 2, "x": 1}}, "path": "a.*"}`, `{"found":true,"result":[1,2]}`},
		{`{"operation": "get", "data": [[1, 2], [3]], "path": "*.*"}`, `{"found":true,"result":[1,2,3]}`},
		{`{"operation": "get", "data": ` + order + `, "path": "order.total"}`, `{"found":false,"result":null}`},
		{`{"operation": "get", "data": "text", "path": ""}`, `{"found":true,"result":"text"}`},
		{`{"operation": "pick", "data": ` + order + `, "mapping": {"id": "order.id", "who": "order.customer.name", "skus": "order.items.*.sku", "total": "order.total"}}`, `{"missing":["total"],"result":{"id":7,"skus":["A1","B2"],"who":"Ada"}}`},
		{`{"operation": "pick", "data": ` + order + `, "mapping": {"total": "order.total"}, "keep_missing": true}`, `{"missing":["total"],"result":{"total":null}}`},
		{`{"operation": "flatten", "data": {"a": {"b": 1, "c": [true, {"d": null}]}, "e": {}, "f": []}}`, `{"result":{"a.b":1,"a.c.0":true,"a.c.1.d":null,"e":{},"f":[]}}`},
		{`{"operation": "flatten", "data": [{"a": 1}], "separator": "/"}`, `{"result":{"0/a":1}}`},
		{`{"operation": "unflatten", "data": {"a.b": 1, "a.c.0": true, "a.c.1.d": null, "e": {}, "f": []}}`, `{"result":{"a":{"b":1,"c":[true,{"d":null}]},"e":{},"f":[]}}`},
		{`{"operation": "unflatten", "data": {"l.1": "b", "l.0": "a", "m.1": "x", "n.01": 1}}`, `{"result":{"l":["a","b"],"m":{"1":"x"},"n":{"01":1}}}`},
		{`{"operation": "unflatten", "data": {"a/b": 1}, "separator": "/"}`, `{"result":{"a":{"b":1}}}`},
	}
	for _, tc := range cases {
		got, err := biRun(t, jsonTransformerHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); s != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}

// flatten then unflatten gives the value back.
func TestJSONQueryRoundTrip(t *testing.T) {
	const data = `{"a": {"b": [1, {"c": "x"}, []], "d": {}}, "e": null}`
	flat, err := biRun(t, jsonTransformerHandler, `{"operation": "flatten", "data": `+data+`}`)
	if err != nil {
		t.Fatal(err)
	}
	back, err := biRun(t, jsonTransformerHandler, `{"operation": "unflatten", "data": `+biJSON(t, flat.(map[string]any)["result"])+`}`)
	if err != nil {
		t.Fatal(err)
	}
	if s := biJSON(t, back.(map[string]any)["result"]); s != `{"a":{"b":[1,{"c":"x"},[]],"d":{}},"e":null}` {
		t.Errorf("round trip gave %s", s)
	}
}

func TestJSONQueryErrors(t *testing.T) {
	cases := []struct {
		input, param, msg string
	}{
		{`{"operation": "sort", "data": {}}`, "operation", `unknown operation "sort"; use one of get, pick, flatten, unflatten`},
		{`{"operation": "get", "data": {}, "path": "a..b"}`, "path", `path "a..b" has an empty key`},
		{`{"operation": "pick", "data": {}}`, "mapping", "pick needs mapping"},
		{`{"operation": "pick", "data": {}, "mapping": {"a/b": 3}}`, "mapping/a~1b", "mapping.a/b is a number"},
		{`{"operation": "pick", "data": {}, "mapping": {"x": "a["}}`, "mapping/x", "has a [ without ]"},
		{`{"operation": "flatten", "data": 3}`, "data", "flatten needs data to be an object or an array, got number"},
		{`{"operation": "unflatten", "data": [1]}`, "data", "unflatten needs data to be an object"},
		{`{"operation": "unflatten", "data": {"a": 1, "a.b": 2}}`, "data/a.b", `key "a.b" conflicts with key "a"`},
		{`{"operation": "flatten", "data": {}, "separator": ""}`, "separator", "separator is empty"},
	}
	for _, tc := range cases {
		_, err := biRun(t, jsonTransformerHandler, tc.input)
		if e := biWantError(t, tc.input, err, run.ValidationError, tc.msg); e != nil && e.Param != tc.param {
			t.Errorf("%s: param %q, want %q", tc.input, e.Param, tc.param)
		}
	}
}
