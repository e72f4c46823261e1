package lint

import (
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleNameMaxLength = &Rule{
	ID:          "name-max-length",
	Severity:    Error,
	Description: "Tool names are at most 64 characters (lint.limits.name_max).",
	Explain: `OpenAI and Anthropic reject tool names longer than 64 characters.

Bad:
  name: fetch_the_weather_forecast_for_the_next_sixteen_days_from_open_meteo

Good:
  name: weather_forecast`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if n := utf8.RuneCountInString(t.Name); n > r.Limits().NameMax {
			r.Report(t, "/name", "name is %d characters, more than %d; shorten it", n, r.Limits().NameMax)
		}
	},
}
