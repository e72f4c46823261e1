package builtin

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	// Zones must load on machines without a zoneinfo database (Windows,
	// distroless containers); this embeds it (about 450 KB).
	_ "time/tzdata"

	"github.com/toolctl/toolctl/pkg/run"
)

// dtNow is the clock; tests replace it.
var dtNow = time.Now

const dtDefaultLayout = "%Y-%m-%dT%H:%M:%S%z"

// dtArgs are the handler's parameters once read and checked.
type dtArgs struct {
	op, value, other, duration, layout, inputLayout string
	loc                                             *time.Location
	zone                                            string
}

func datetimeHandler(_ context.Context, c *run.Call) (any, error) {
	var a dtArgs
	var err error
	for _, p := range []struct {
		name string
		dst  *string
		def  string
	}{
		{"operation", &a.op, "now"},
		{"value", &a.value, ""},
		{"other", &a.other, ""},
		{"duration", &a.duration, ""},
		{"layout", &a.layout, dtDefaultLayout},
		{"input_layout", &a.inputLayout, ""},
		{"timezone", &a.zone, "UTC"},
	} {
		if *p.dst, err = c.String(p.name, p.def); err != nil {
			return nil, err
		}
	}
	if a.layout == "" {
		a.layout = dtDefaultLayout
	}
	if a.loc, a.zone, err = dtLocation(a.zone); err != nil {
		return nil, err
	}
	// Check the layout before doing anything, so a typo in it is reported
	// even when the value is the problem too.
	if _, err := dtFormat(dtNow(), a.layout); err != nil {
		return nil, err
	}

	switch a.op {
	case "now":
		return dtResult(dtNow().In(a.loc), a, false)
	case "parse", "format":
		if strings.TrimSpace(a.value) == "" {
			return nil, &run.Error{Kind: run.ValidationError, Param: "value", Message: fmt.Sprintf("operation %s needs value: the date-time to %s, e.g. 2026-11-21T10:00:00Z", a.op, a.op)}
		}
		t, err := dtRead("value", a.value, a)
		if err != nil {
			return nil, err
		}
		return dtResult(t.In(a.loc), a, a.op == "parse")
	case "add":
		t, err := dtRead("value", a.value, a)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(a.duration) == "" {
			return nil, &run.Error{Kind: run.ValidationError, Param: "duration", Message: "operation add needs duration, e.g. 36h, -15m, 2d or P1DT2H"}
		}
		years, months, days, d, err := dtParseDuration(a.duration)
		if err != nil {
			return nil, err
		}
		// Calendar units count in the output zone: one day later is the
		// same wall-clock time tomorrow, even across a DST change.
		t = t.In(a.loc).AddDate(years, months, days).Add(d)
		return dtResult(t, a, false)
	case "diff":
		from, err := dtRead("value", a.value, a)
		if err != nil {
			return nil, err
		}
		to, err := dtRead("other", a.other, a)
		if err != nil {
			return nil, err
		}
		return dtDiff(from.In(a.loc), to.In(a.loc)), nil
	}
	return nil, &run.Error{Kind: run.ValidationError, Param: "operation", Message: fmt.Sprintf("unknown operation %q; use now, parse, format, add or diff", a.op)}
}

// dtResult is the answer for an operation that yields a time.
func dtResult(t time.Time, a dtArgs, parts bool) (any, error) {
	s, err := dtFormat(t, a.layout)
	if err != nil {
		return nil, err
	}
	out := map[string]any{
		"result":   s,
		"unix":     t.Unix(),
		"iso":      t.Format(time.RFC3339Nano),
		"timezone": a.zone,
		"weekday":  t.Weekday().String(),
	}
	if parts {
		_, week := t.ISOWeek()
		_, offset := t.Zone()
		out["year"] = int64(t.Year())
		out["month"] = int64(t.Month())
		out["day"] = int64(t.Day())
		out["hour"] = int64(t.Hour())
		out["minute"] = int64(t.Minute())
		out["second"] = int64(t.Second())
		out["nanosecond"] = int64(t.Nanosecond())
		out["day_of_year"] = int64(t.YearDay())
		out["iso_week"] = int64(week)
		out["utc_offset"] = dtOffset(offset, true)
	}
	return out, nil
}

// dtLocation resolves a time zone: an IANA name (case-insensitive), UTC,
// Local, or a fixed offset such as +09:00 or UTC-5.
func dtLocation(name string) (*time.Location, string, error) {
	name = strings.TrimSpace(name)
	switch strings.ToLower(name) {
	case "", "utc", "z", "gmt":
		return time.UTC, "UTC", nil
	case "local":
		return time.Local, time.Local.String(), nil
	}
	if off, ok := dtParseOffset(name); ok {
		s := dtOffset(off, true)
		return time.FixedZone(s, off), s, nil
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc, name, nil
	}
	// "asia/tokyo" or "AMERICA/NEW_YORK": retry with the usual casing.
	if fixed := dtZoneCase(name); fixed != name {
		if loc, err := time.LoadLocation(fixed); err == nil {
			return loc, fixed, nil
		}
	}
	return nil, "", &run.Error{Kind: run.ValidationError, Param: "timezone", Message: fmt.Sprintf("unknown time zone %q; use an IANA name such as Europe/Paris or America/New_York, UTC, or an offset such as +05:30", name)}
}

func dtZoneCase(name string) string {
	b := []byte(strings.ToLower(name))
	for i := range b {
		if (i == 0 || b[i-1] == '/' || b[i-1] == '_' || b[i-1] == '-') && b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

// dtParseOffset reads +09:00, -0530, +9, UTC+2 or GMT-03:30 as seconds
// east of UTC.
func dtParseOffset(s string) (int, bool) {
	u := strings.ToUpper(s)
	u = strings.TrimPrefix(strings.TrimPrefix(u, "UTC"), "GMT")
	if len(u) < 2 || (u[0] != '+' && u[0] != '-') {
		return 0, false
	}
	sign, rest := 1, u[1:]
	if u[0] == '-' {
		sign = -1
	}
	h, m := rest, ""
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		h, m = rest[:i], rest[i+1:]
	} else if len(rest) == 4 {
		h, m = rest[:2], rest[2:]
	}
	hh, err := strconv.Atoi(h)
	if err != nil || len(h) > 2 || hh > 14 {
		return 0, false
	}
	mm := 0
	if m != "" {
		if mm, err = strconv.Atoi(m); err != nil || len(m) != 2 || mm > 59 {
			return 0, false
		}
	}
	return sign * (hh*3600 + mm*60), true
}

// dtOffset renders seconds east of UTC as +hh:mm (colon) or +hhmm.
func dtOffset(off int, colon bool) string {
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	if colon {
		return fmt.Sprintf("%c%02d:%02d", sign, off/3600, off/60%60)
	}
	return fmt.Sprintf("%c%02d%02d", sign, off/3600, off/60%60)
}

// dtReadLayouts are tried in order on a value when no input_layout is
// given. The offset-less ones are read in the timezone parameter's zone.
var dtReadLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700", // the default output layout, so results read back
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02 15:04:05 MST",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	"2006-01-02",
	time.RFC1123Z,
	time.RFC1123,
	time.RFC850,
	time.ANSIC,
	time.UnixDate,
	time.RFC822Z,
	time.RFC822,
}

// dtRead reads a date-time parameter: empty or "now" is the current time;
// then input_layout if given; else RFC 3339 and the other common forms,
// Unix seconds, and last the output layout.
func dtRead(param, s string, a dtArgs) (time.Time, error) {
	t, err := dtReadAny(param, s, a)
	if err != nil {
		return t, err
	}
	// Go reads an abbreviation it does not know in the zone (EST with
	// timezone UTC) as UTC under that name; refuse rather than be wrong.
	if name, off := t.Zone(); off == 0 && name != "" && name != "UTC" && name != "GMT" && t.Location().String() == name {
		return time.Time{}, &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s %q: the time zone abbreviation %s is ambiguous; write an offset such as -05:00, or set timezone to the zone it belongs to (e.g. America/New_York for EST)", param, s, name)}
	}
	return t, nil
}

func dtReadAny(param, s string, a dtArgs) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "now") {
		return dtNow(), nil
	}
	if a.inputLayout != "" {
		t, err := dtParseLayout("input_layout", s, a.inputLayout, a.loc)
		if err != nil {
			if e, ok := err.(*run.Error); ok {
				return time.Time{}, e
			}
			return time.Time{}, &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s %q does not match input_layout %q: %s", param, s, a.inputLayout, dtParseMessage(err))}
		}
		return t, nil
	}
	for _, l := range dtReadLayouts {
		if t, err := time.ParseInLocation(l, s, a.loc); err == nil {
			return t, nil
		}
	}
	if t, ok := dtUnix(s); ok {
		return t, nil
	}
	if t, err := dtParseLayout("layout", s, a.layout, a.loc); err == nil {
		return t, nil
	}
	return time.Time{}, &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s %q is not a date-time toolctl can read; use RFC 3339 (2026-11-21T10:00:00Z), YYYY-MM-DD[ HH:MM[:SS]], @ and Unix seconds, or give input_layout, e.g. %%d/%%m/%%Y %%H:%%M", param, s)}
}

// dtParseMessage keeps the useful part of a time.ParseError.
func dtParseMessage(err error) string {
	if pe, ok := err.(*time.ParseError); ok && pe.Message != "" {
		return strings.TrimPrefix(pe.Message, ": ")
	}
	if pe, ok := err.(*time.ParseError); ok {
		return fmt.Sprintf("cannot read %q", pe.ValueElem)
	}
	return err.Error()
}

// dtUnix reads Unix seconds: "@" and a number, or a bare number of 9 or
// more integer digits (so a year such as 2026 is not taken for one); 13 or
// more integer digits are milliseconds, as JavaScript's Date.now().
func dtUnix(s string) (time.Time, bool) {
	at := strings.HasPrefix(s, "@")
	s = strings.TrimPrefix(s, "@")
	digits := strings.TrimPrefix(s, "-")
	ip, _, _ := strings.Cut(digits, ".")
	if ip == "" || strings.Trim(digits, "0123456789.") != "" || strings.Count(digits, ".") > 1 || !at && len(ip) < 9 {
		return time.Time{}, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return time.Time{}, false
	}
	if len(ip) >= 13 {
		f /= 1000
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e9))), true
}

// strftime directives as Go layout elements. Formatting renders each
// directive on its own, so the literal text between them never collides
// with Go's reference-time tokens; parsing joins them into one Go layout.
var dtDirectives = map[byte]string{
	'Y': "2006", 'y': "06", 'm': "01", 'd': "02", 'e': "_2",
	'H': "15", 'I': "03", 'M': "04", 'S': "05", 'p': "PM",
	'z': "-0700", 'Z': "MST", 'j': "002",
	'a': "Mon", 'A': "Monday", 'b': "Jan", 'h': "Jan", 'B': "January",
	'F': "2006-01-02", 'T': "15:04:05", 'R': "15:04", 'D': "01/02/06",
}

// dtUnpadded are the Go elements for the GNU "-" flag (%-d: 7, not 07).
var dtUnpadded = map[byte]string{'d': "2", 'm': "1", 'H': "15", 'I': "3", 'M': "4", 'S': "5", 'j': "__2"}

const dtSupported = "%Y %y %m %d %e %H %I %M %S %f %p %z %:z %Z %j %a %A %b %B %F %T %R %D %s %u %w %V %G %n %t %%, and %-d %-m %-H %-I %-M %-S %-j without padding"

func dtLayoutError(param, layout, directive, why string) *run.Error {
	return &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s %q: %s %s; supported: %s", param, layout, directive, why, dtSupported)}
}

// dtFormat renders t with a strftime layout.
func dtFormat(t time.Time, layout string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(layout); i++ {
		ch := layout[i]
		if ch != '%' {
			b.WriteByte(ch)
			continue
		}
		i++
		if i >= len(layout) {
			return "", dtLayoutError("layout", layout, "a lone % at the end", "is incomplete; write %% for a percent sign")
		}
		d := layout[i]
		switch {
		case d == '-' && i+1 < len(layout):
			i++
			d = layout[i]
			n, ok := map[byte]int{'d': t.Day(), 'm': int(t.Month()), 'H': t.Hour(), 'I': (t.Hour()+11)%12 + 1, 'M': t.Minute(), 'S': t.Second(), 'j': t.YearDay()}[d]
			if !ok {
				return "", dtLayoutError("layout", layout, "%-"+string(d), "is not a directive")
			}
			b.WriteString(strconv.Itoa(n))
		case d == ':' && i+1 < len(layout) && layout[i+1] == 'z':
			i++
			b.WriteString(t.Format("-07:00"))
		case d == '%':
			b.WriteByte('%')
		case d == 'n':
			b.WriteByte('\n')
		case d == 't':
			b.WriteByte('\t')
		case d == 'f':
			fmt.Fprintf(&b, "%06d", t.Nanosecond()/1000)
		case d == 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case d == 'u':
			b.WriteString(strconv.Itoa((int(t.Weekday())+6)%7 + 1))
		case d == 'w':
			b.WriteString(strconv.Itoa(int(t.Weekday())))
		case d == 'V':
			_, w := t.ISOWeek()
			fmt.Fprintf(&b, "%02d", w)
		case d == 'G':
			y, _ := t.ISOWeek()
			b.WriteString(strconv.Itoa(y))
		default:
			g, ok := dtDirectives[d]
			if !ok {
				return "", dtLayoutError("layout", layout, "%"+string(d), "is not a directive")
			}
			b.WriteString(t.Format(g))
		}
	}
	return b.String(), nil
}

// dtParseLayout reads s with a strftime layout, converted to a Go layout.
// Go layouts have no escapes, so literal text that looks like part of the
// reference time (digits, "Jan", "PM", ...) is refused rather than misread.
func dtParseLayout(param, s, layout string, loc *time.Location) (time.Time, error) {
	if strings.TrimSpace(layout) == "%s" {
		if t, ok := dtUnix("@" + strings.TrimPrefix(strings.TrimSpace(s), "@")); ok {
			return t, nil
		}
		return time.Time{}, fmt.Errorf("%q is not a number of Unix seconds", s)
	}
	var g, lit strings.Builder
	flush := func() error {
		l := lit.String()
		lit.Reset()
		for _, bad := range []string{"Jan", "Mon", "MST", "PM", "pm", "Z0", "-0", "_2", ".0", ".9", ",0", ",9"} {
			if strings.Contains(l, bad) {
				return dtLayoutError(param, layout, fmt.Sprintf("the literal text %q", l), "cannot be used for reading (Go layouts have no escapes)")
			}
		}
		if strings.ContainsAny(l, "0123456789") {
			return dtLayoutError(param, layout, fmt.Sprintf("the literal text %q", l), "contains digits, which cannot be used for reading")
		}
		g.WriteString(l)
		return nil
	}
	for i := 0; i < len(layout); i++ {
		ch := layout[i]
		if ch != '%' {
			lit.WriteByte(ch)
			continue
		}
		i++
		if i >= len(layout) {
			return time.Time{}, dtLayoutError(param, layout, "a lone % at the end", "is incomplete; write %% for a percent sign")
		}
		d := layout[i]
		var elem string
		switch {
		case d == '%':
			lit.WriteByte('%')
			continue
		case d == 'n':
			lit.WriteByte('\n')
			continue
		case d == 't':
			lit.WriteByte('\t')
			continue
		case d == '-' && i+1 < len(layout) && dtUnpadded[layout[i+1]] != "":
			i++
			elem = dtUnpadded[layout[i]]
		case d == ':' && i+1 < len(layout) && layout[i+1] == 'z':
			i++
			elem = "Z07:00"
		case d == 'z':
			elem = "Z0700" // also accepts "Z" for UTC
		case d == 'f':
			// A fraction after "%S." reads any number of digits.
			l := lit.String()
			if !strings.HasSuffix(l, ".") && !strings.HasSuffix(l, ",") {
				return time.Time{}, dtLayoutError(param, layout, "%f", "can only be read right after %S. (e.g. %H:%M:%S.%f)")
			}
			elem = "999999999"
			lit.Reset()
			lit.WriteString(l[:len(l)-1])
			if err := flush(); err != nil {
				return time.Time{}, err
			}
			g.WriteString(l[len(l)-1:] + elem)
			continue
		default:
			var ok bool
			if elem, ok = dtDirectives[d]; !ok {
				if d == 's' {
					return time.Time{}, dtLayoutError(param, layout, "%s", "can only be read as the whole layout")
				}
				if strings.IndexByte("uwVG", d) >= 0 {
					return time.Time{}, dtLayoutError(param, layout, "%"+string(d), "can be written but not read")
				}
				return time.Time{}, dtLayoutError(param, layout, "%"+string(d), "is not a directive")
			}
		}
		if err := flush(); err != nil {
			return time.Time{}, err
		}
		g.WriteString(elem)
	}
	if err := flush(); err != nil {
		return time.Time{}, err
	}
	return time.ParseInLocation(g.String(), s, loc)
}

// dtParseDuration reads an ISO 8601 duration (P1Y2M3W4DT5H6M7.5S, with an
// optional leading sign) or a Go-style one (36h, -15m, 1h30m, 250ms) that
// may also use d and w. Years, months, weeks and days are calendar units
// (applied with AddDate); the rest is an exact duration.
func dtParseDuration(s string) (years, months, days int, d time.Duration, err error) {
	bad := func(why string) error {
		return &run.Error{Kind: run.ValidationError, Param: "duration", Message: fmt.Sprintf("duration %q %s; write e.g. 36h, -15m, 1h30m, 2d, 1w or ISO 8601 P1DT2H", s, why)}
	}
	str := strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	sign := 1
	if strings.HasPrefix(str, "-") {
		sign, str = -1, str[1:]
	} else {
		str = strings.TrimPrefix(str, "+")
	}
	if str == "" {
		return 0, 0, 0, 0, bad("is empty")
	}
	type unit struct {
		n    float64
		name string
	}
	var units []unit
	// scan splits "1h30m" into (1, h), (30, m).
	scan := func(str string, isUnit func(string) bool) error {
		for str != "" {
			j := 0
			for j < len(str) && (str[j] >= '0' && str[j] <= '9' || str[j] == '.' || str[j] == ',') {
				j++
			}
			if j == 0 {
				return bad(fmt.Sprintf("has %q where a number is expected", str))
			}
			n, err := strconv.ParseFloat(strings.ReplaceAll(str[:j], ",", "."), 64)
			if err != nil {
				return bad(fmt.Sprintf("has a bad number %q", str[:j]))
			}
			k := j
			for k < len(str) && !(str[k] >= '0' && str[k] <= '9') {
				k++
			}
			if k == j || !isUnit(str[j:k]) {
				return bad(fmt.Sprintf("has an unknown unit %q after %s", str[j:k], str[:j]))
			}
			units = append(units, unit{n, str[j:k]})
			str = str[k:]
		}
		return nil
	}
	if str[0] == 'P' || str[0] == 'p' {
		date, clock, hasT := strings.Cut(strings.ToUpper(str[1:]), "T")
		if date == "" && (!hasT || clock == "") {
			return 0, 0, 0, 0, bad("has no amount after P")
		}
		if err := scan(date, func(u string) bool { return u == "Y" || u == "M" || u == "W" || u == "D" }); err != nil {
			return 0, 0, 0, 0, err
		}
		for i := range units {
			units[i].name = strings.ToLower(units[i].name)
			if units[i].name == "m" {
				units[i].name = "mo"
			}
		}
		n := len(units)
		if err := scan(clock, func(u string) bool { return u == "H" || u == "M" || u == "S" }); err != nil {
			return 0, 0, 0, 0, err
		}
		for i := n; i < len(units); i++ {
			units[i].name = strings.ToLower(units[i].name)
		}
	} else if err := scan(str, func(u string) bool {
		switch u {
		case "ns", "us", "µs", "ms", "s", "m", "h", "d", "w":
			return true
		}
		return false
	}); err != nil {
		return 0, 0, 0, 0, err
	}
	for _, u := range units {
		switch u.name {
		case "y", "mo", "w", "d":
			if u.n != math.Trunc(u.n) {
				return 0, 0, 0, 0, bad("has a fraction of a calendar unit (years, months, weeks, days); use hours for parts of a day")
			}
		}
		if u.n > 1e6 {
			return 0, 0, 0, 0, bad("is too large")
		}
		n := int(u.n)
		switch u.name {
		case "y":
			years += n
		case "mo":
			months += n
		case "w":
			days += 7 * n
		case "d":
			days += n
		default:
			per := map[string]time.Duration{"h": time.Hour, "m": time.Minute, "s": time.Second, "ms": time.Millisecond, "us": time.Microsecond, "µs": time.Microsecond, "ns": time.Nanosecond}[u.name]
			if u.n*float64(per) > float64(math.MaxInt64/2) {
				return 0, 0, 0, 0, bad("is too large")
			}
			d += time.Duration(math.Round(u.n * float64(per)))
		}
	}
	return sign * years, sign * months, sign * days, time.Duration(sign) * d, nil
}

// dtDiff is other − value: the elapsed time, and the calendar difference
// (years, months, days, ...) as a person would count it, in the output zone.
func dtDiff(from, to time.Time) map[string]any {
	d := to.Sub(from)
	return map[string]any{
		"result":   dtFormatDuration(d),
		"seconds":  dtNumber(d.Seconds()),
		"minutes":  dtNumber(d.Minutes()),
		"hours":    dtNumber(d.Hours()),
		"days":     dtNumber(d.Hours() / 24),
		"iso":      dtISODuration(d),
		"calendar": dtCalendar(from, to),
	}
}

// dtNumber renders a float without float noise or a needless ".0".
func dtNumber(f float64) any {
	return calcFormat(f, 9)
}

// dtFormatDuration writes 36h, -15m, 1h30m5.5s or 0s: Go's form without
// its zero units, so the result can be passed back as a duration.
func dtFormatDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	var b strings.Builder
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	dtWriteHMS(&b, d, "hms")
	return b.String()
}

// dtISODuration writes an elapsed time in ISO 8601 (P1DT12H; days are 24
// hours here).
func dtISODuration(d time.Duration) string {
	if d == 0 {
		return "PT0S"
	}
	var b strings.Builder
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	b.WriteByte('P')
	if days := d / (24 * time.Hour); days > 0 {
		fmt.Fprintf(&b, "%dD", days)
		d -= days * 24 * time.Hour
	}
	if d > 0 {
		b.WriteByte('T')
		dtWriteHMS(&b, d, "HMS")
	}
	return b.String()
}

// dtWriteHMS writes the hours, minutes and seconds of a positive d, each
// followed by its letter in units, leaving out those that are zero.
func dtWriteHMS(b *strings.Builder, d time.Duration, units string) {
	if h := d / time.Hour; h > 0 {
		fmt.Fprintf(b, "%d%c", h, units[0])
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		fmt.Fprintf(b, "%d%c", m, units[1])
		d -= m * time.Minute
	}
	if d > 0 {
		b.WriteString(strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
		b.WriteByte(units[2])
	}
}

// dtCalendar counts whole months, then whole days, then the rest, from
// the earlier time to the later one; negative when to is before from.
func dtCalendar(from, to time.Time) map[string]any {
	sign := int64(1)
	if to.Before(from) {
		from, to, sign = to, from, -1
	}
	months := (to.Year()-from.Year())*12 + int(to.Month()-from.Month())
	for months > 0 && from.AddDate(0, months, 0).After(to) {
		months--
	}
	base := from.AddDate(0, months, 0)
	days := int(to.Sub(base).Hours() / 24)
	for days > 0 && base.AddDate(0, 0, days).After(to) {
		days--
	}
	for !base.AddDate(0, 0, days+1).After(to) {
		days++
	}
	rest := to.Sub(base.AddDate(0, 0, days))
	return map[string]any{
		"years":   sign * int64(months/12),
		"months":  sign * int64(months%12),
		"days":    sign * int64(days),
		"hours":   sign * int64(rest/time.Hour),
		"minutes": sign * int64(rest/time.Minute%60),
		"seconds": sign * int64(rest/time.Second%60),
	}
}
