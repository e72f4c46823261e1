package builtin

import (
	"strings"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/run"
)

// dtFixedNow pins the clock to 2026-11-21T00:30:00Z for the test.
func dtFixedNow(t *testing.T) {
	t.Helper()
	old := dtNow
	dtNow = func() time.Time { return time.Date(2026, 11, 21, 0, 30, 0, 0, time.UTC) }
	t.Cleanup(func() { dtNow = old })
}

func TestDatetime(t *testing.T) {
	dtFixedNow(t)
	cases := []struct {
		input string
		want  string // fields that must be in the result, as JSON
	}{
		{`{"operation": "now"}`, `"result":"2026-11-21T00:30:00+0000"`},
		{`{"operation": "now", "timezone": "Asia/Tokyo"}`, `"iso":"2026-11-21T09:30:00+09:00","result":"2026-11-21T09:30:00+0900","timezone":"Asia/Tokyo","unix":1795221000,"weekday":"Saturday"`},
		{`{"operation": "now", "timezone": "asia/tokyo"}`, `"timezone":"Asia/Tokyo"`},
		{`{"operation": "now", "timezone": "america/new_york", "layout": "%A %-d %B %Y, %I:%M %p %Z"}`, `"result":"Friday 20 November 2026, 07:30 PM EST"`},
		{`{"operation": "now", "timezone": "+05:30"}`, `"result":"2026-11-21T06:00:00+0530","timezone":"+05:30"`},
		{`{"operation": "now", "timezone": "UTC-3"}`, `"result":"2026-11-20T21:30:00-0300"`},
		{`{"operation": "now", "layout": "%j %u %w %V %G %s %y %e %%"}`, `"result":"325 6 6 47 2026 1795221000 26 21 %"`},
		{`{"operation": "format", "value": "2026-11-21T10:00:00.123456789Z", "layout": "%F %T.%f %:z"}`, `"result":"2026-11-21 10:00:00.123456 +00:00"`},
		{`{"operation": "format", "value": "2026-03-05", "layout": "%a %b %e"}`, `"result":"Thu Mar  5"`},
		{`{"operation": "format", "value": "2026-07-01T12:00:00Z", "timezone": "Europe/Paris", "layout": "%H:%M %Z"}`, `"result":"14:00 CEST"`},
		{`{"operation": "format", "value": "2026-07-01 12:00", "timezone": "Europe/Paris"}`, `"result":"2026-07-01T12:00:00+0200"`},
		{`{"operation": "format", "value": "1795221000", "layout": "%F"}`, `"result":"2026-11-21"`},
		{`{"operation": "format", "value": "1795221000500", "layout": "%T.%f"}`, `"result":"00:30:00.500000"`},
		{`{"operation": "format", "value": "@86400", "layout": "%F"}`, `"result":"1970-01-02"`},
		{`{"operation": "format", "value": "Sat, 21 Nov 2026 10:00:00 +0100", "layout": "%FT%T%z"}`, `"result":"2026-11-21T09:00:00+0000"`},
		{`{"operation": "format", "value": "2026-11-21T10:00:00+0900"}`, `"result":"2026-11-21T01:00:00+0000"`},
		{`{"operation": "parse", "value": "21/11/2026 14:05", "input_layout": "%d/%m/%Y %H:%M", "timezone": "Europe/London"}`, `"day":21,"day_of_year":325,"hour":14,"iso":"2026-11-21T14:05:00Z","iso_week":47,"minute":5,"month":11,"nanosecond":0,"result":"2026-11-21T14:05:00+0000","second":0`},
		{`{"operation": "parse", "value": "3/7/26 9:05:07.25 PM", "input_layout": "%-m/%-d/%y %-I:%M:%S.%f %p"}`, `"iso":"2026-03-07T21:05:07.25Z"`},
		{`{"operation": "parse", "value": "November 21, 2026", "input_layout": "%B %d, %Y"}`, `"iso":"2026-11-21T00:00:00Z"`},
		{`{"operation": "parse", "value": "1795221000", "input_layout": "%s"}`, `"iso":"2026-11-21T00:30:00Z"`},
		{`{"operation": "parse", "value": "2026-11-21 10:00", "timezone": "Asia/Kolkata"}`, `"utc_offset":"+05:30"`},
		{`{"operation": "parse", "value": "21.11.2026", "layout": "%d.%m.%Y"}`, `"result":"21.11.2026"`},
		{`{"operation": "format", "value": "2026-01-05 10:00:00 EST", "timezone": "America/New_York"}`, `"result":"2026-01-05T10:00:00-0500"`},
		{`{"operation": "format", "value": "Mon, 05 Jan 2026 10:00:00 GMT"}`, `"result":"2026-01-05T10:00:00+0000"`},
		{`{"operation": "add", "value": "2026-11-21T10:00:00Z", "duration": "36h"}`, `"result":"2026-11-22T22:00:00+0000","timezone":"UTC","unix":1795384800`},
		{`{"operation": "add", "value": "2026-11-21T10:00:00Z", "duration": "-15m"}`, `"result":"2026-11-21T09:45:00+0000"`},
		{`{"operation": "add", "value": "2026-11-21T10:00:00Z", "duration": "1h30m15s"}`, `"result":"2026-11-21T11:30:15+0000"`},
		{`{"operation": "add", "value": "2026-11-21T10:00:00Z", "duration": "P1DT2H"}`, `"result":"2026-11-22T12:00:00+0000"`},
		{`{"operation": "add", "value": "2026-01-31", "duration": "P1M"}`, `"result":"2026-03-03T00:00:00+0000"`},
		{`{"operation": "add", "value": "2026-11-21", "duration": "P1Y2M3W4D", "layout": "%F"}`, `"result":"2028-02-15"`},
		{`{"operation": "add", "value": "2026-11-21T10:00:00Z", "duration": "-P1W"}`, `"result":"2026-11-14T10:00:00+0000"`},
		{`{"operation": "add", "value": "2026-11-21T10:00:00Z", "duration": "PT1.5H"}`, `"result":"2026-11-21T11:30:00+0000"`},
		{`{"operation": "add", "value": "2026-11-21T10:00:00Z", "duration": "2d 3h"}`, `"result":"2026-11-23T13:00:00+0000"`},
		{`{"operation": "add", "duration": "1w", "layout": "%F"}`, `"result":"2026-11-28"`},
		// A calendar day across the end of DST in Paris is 25 hours.
		{`{"operation": "add", "value": "2026-10-24T12:00:00+02:00", "duration": "1d", "timezone": "Europe/Paris"}`, `"result":"2026-10-25T12:00:00+0100"`},
		{`{"operation": "add", "value": "2026-10-24T12:00:00+02:00", "duration": "24h", "timezone": "Europe/Paris"}`, `"result":"2026-10-25T11:00:00+0100"`},
		{`{"operation": "diff", "value": "2026-11-21T10:00:00Z", "other": "2026-11-22T22:00:00Z"}`, `"calendar":{"days":1,"hours":12,"minutes":0,"months":0,"seconds":0,"years":0},"days":1.5,"hours":36,"iso":"P1DT12H","minutes":2160,"result":"36h","seconds":129600`},
		{`{"operation": "diff", "value": "2026-11-21T10:15:00Z", "other": "2026-11-21T10:00:00Z"}`, `"iso":"-PT15M","minutes":-15,"result":"-15m"`},
		{`{"operation": "diff", "value": "1990-05-12", "other": "2026-11-21"}`, `"calendar":{"days":9,"hours":0,"minutes":0,"months":6,"seconds":0,"years":36}`},
		{`{"operation": "diff", "value": "2026-11-21T00:30:00Z"}`, `"result":"0s"`},
		{`{"operation": "diff", "value": "2026-11-21T00:00:00Z", "other": "2026-11-21T00:00:01.5Z"}`, `"iso":"PT1.5S","minutes":0.025,"result":"1.5s","seconds":1.5`},
	}
	for _, tc := range cases {
		got, err := biRun(t, datetimeHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); !strings.Contains(s, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}

func TestDatetimeErrors(t *testing.T) {
	dtFixedNow(t)
	cases := []struct {
		input, param, msg string
	}{
		{`{"operation": "now", "timezone": "Mars/Olympus"}`, "timezone", `unknown time zone "Mars/Olympus"; use an IANA name`},
		{`{"operation": "now", "timezone": "+25:00"}`, "timezone", "unknown time zone"},
		{`{"operation": "now", "layout": "%Q"}`, "layout", `%Q is not a directive`},
		{`{"operation": "now", "layout": "%Y-%"}`, "layout", "a lone % at the end"},
		{`{"operation": "parse"}`, "value", "operation parse needs value"},
		{`{"operation": "parse", "value": "next tuesday"}`, "value", `value "next tuesday" is not a date-time toolctl can read`},
		{`{"operation": "parse", "value": "2026"}`, "value", "is not a date-time"},
		{`{"operation": "parse", "value": "21/11/2026", "input_layout": "%m/%d/%Y"}`, "value", `value "21/11/2026" does not match input_layout "%m/%d/%Y": month out of range`},
		{`{"operation": "parse", "value": "x", "input_layout": "%Y%u"}`, "input_layout", "%u can be written but not read"},
		{`{"operation": "parse", "value": "x", "input_layout": "%Y%s"}`, "input_layout", "%s can only be read as the whole layout"},
		{`{"operation": "parse", "value": "x", "input_layout": "%Y%f"}`, "input_layout", "%f can only be read right after %S."},
		{`{"operation": "parse", "value": "x", "input_layout": "day 1: %d"}`, "input_layout", "contains digits"},
		{`{"operation": "parse", "value": "x", "input_layout": "%d Jan"}`, "input_layout", "cannot be used for reading"},
		{`{"operation": "add", "value": "2026-11-21"}`, "duration", "operation add needs duration"},
		{`{"operation": "add", "duration": "3 fortnights"}`, "duration", `has an unknown unit "fortnights" after 3`},
		{`{"operation": "add", "duration": "1.5d"}`, "duration", "fraction of a calendar unit"},
		{`{"operation": "add", "duration": "P"}`, "duration", "no amount after P"},
		{`{"operation": "add", "duration": "PT1D"}`, "duration", "unknown unit"},
		{`{"operation": "add", "duration": "h"}`, "duration", "where a number is expected"},
		{`{"operation": "add", "duration": "99999999999h"}`, "duration", "too large"},
		{`{"operation": "format", "value": "2026-01-05 10:00:00 EST"}`, "value", "the time zone abbreviation EST is ambiguous"},
		{`{"operation": "parse", "value": "05/01/2026 10:00 CET", "input_layout": "%d/%m/%Y %H:%M %Z"}`, "value", "abbreviation CET is ambiguous"},
		{`{"operation": "diff", "value": "2026-11-21", "other": "soon"}`, "other", `other "soon" is not a date-time`},
		{`{"operation": "explode"}`, "operation", `unknown operation "explode"`},
	}
	for _, tc := range cases {
		_, err := biRun(t, datetimeHandler, tc.input)
		if e := biWantError(t, tc.input, err, run.ValidationError, tc.msg); e != nil && e.Param != tc.param {
			t.Errorf("%s: param %q, want %q", tc.input, e.Param, tc.param)
		}
	}
}
