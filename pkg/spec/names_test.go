package spec

import "testing"

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"HttpRequest": "http_request", "http-request": "http_request", "Summarize Detection": "summarize_detection", "math.factorial": "math_factorial", "2fa": "tool_2fa",
		// Latin letters with diacritics are transliterated; letters without
		// an ASCII spelling give no suggestion (not "tool_", not the name).
		"café_lookup": "cafe_lookup", "Straße": "strasse", "naïve Résumé": "naive_resume", "Øresund-Brücke": "oresund_brucke",
		"Łódź": "lodz", "ＦｕｌｌＷｉｄｔｈ": "full_width", "ﬁle_reader": "file_reader", "café ☕ time": "cafe_time",
		"查询天气": "", "поиск": "", "café_查询": "", "λ_calc": "", "٣d": "", "---": ""} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	for name, want := range map[string]bool{"get_weather": true, "a1_": true, "x": true, "": false, "Get": false, "1a": false, "_a": false, "a-b": false, "aé": false} {
		if got := IsSnakeCase(name); got != want {
			t.Errorf("IsSnakeCase(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestTransliterate(t *testing.T) {
	for in, want := range map[string]struct {
		out string
		ok  bool
	}{
		"plain":   {"plain", true},
		"café":    {"cafe", true},
		"Æsir":    {"AEsir", true},
		"þorn":    {"thorn", true},
		"a☕b":     {"a☕b", true}, // not a letter: kept, for the caller to separate
		"查询":      {"查询", false},
		"e\u0301": {"e", true}, // a combining accent on its own
	} {
		out, ok := Transliterate(in)
		if out != want.out || ok != want.ok {
			t.Errorf("Transliterate(%q) = %q, %v; want %q, %v", in, out, ok, want.out, want.ok)
		}
	}
}
