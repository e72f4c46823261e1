package importer

import "testing"

func TestToolName(t *testing.T) {
	for in, want := range map[string]string{
		"get_weather":                 "get_weather",
		"math.factorial":              "math_factorial",
		"Summarize Detection":         "summarize_detection",
		"getUser":                     "get_user",
		"HTTPServerStatus":            "http_server_status",
		"NuGetPackageSearch":          "nu_get_package_search",
		"ThinQ_Connect":               "thin_q_connect",
		"get-36kr-trending":           "get_36kr_trending",
		"mcp_howtocook_getAllRecipes": "mcp_howtocook_get_all_recipes",
		"v2Api":                       "v2_api",
		"analysis_api.AnalysisApi.retrieve_analysis": "analysis_api_analysis_api_retrieve_analysis",
		"__init__":    "init",
		"3d_render":   "tool_3d_render",
		"搜索":          "tool",
		"Café Lookup": "cafe_lookup",
		"größe_lesen": "grosse_lesen",
		"a..b--c":     "a_b_c",
		"x_" + string(make([]byte, 0)) + "very_long_name_that_goes_on_and_on_and_on_and_on_and_on_and_on_and_on": "x_very_long_name_that_goes_on_and_on_and_on_and_on_and_on_and_on",
	} {
		got := ToolName(in)
		if got != want {
			t.Errorf("ToolName(%q) = %q, want %q", in, got, want)
		}
		if !validName(got) {
			t.Errorf("ToolName(%q) = %q is not a valid name", in, got)
		}
	}
}
