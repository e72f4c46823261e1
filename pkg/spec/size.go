package spec

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// MemoryUnlimited is Runtime.Memory for `memory: unlimited`.
const MemoryUnlimited int64 = -1

// MinMemory is the smallest memory limit accepted: less leaves no room for
// an interpreter to start.
const MinMemory int64 = 16 << 20

// maxMemory bounds a limit to what every platform can represent (1 PiB).
const maxMemory int64 = 1 << 50

var sizeRE = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)$`)

var sizeUnits = map[string]float64{
	"":    1,
	"b":   1,
	"kb":  1e3,
	"mb":  1e6,
	"gb":  1e9,
	"tb":  1e12,
	"kib": 1 << 10,
	"mib": 1 << 20,
	"gib": 1 << 30,
	"tib": 1 << 40,
	"ki":  1 << 10,
	"mi":  1 << 20,
	"gi":  1 << 30,
	"ti":  1 << 40,
}

// ParseSize reads a memory size: a number of bytes, or a number with a
// unit: KiB, MiB, GiB, TiB (powers of 1024; Ki, Mi, Gi, Ti as Kubernetes
// writes them) or KB, MB, GB, TB (powers of 1000), in any case; "unlimited"
// is MemoryUnlimited. Single-letter units (256M, 1g) are refused: they mean
// 1000s to some tools and 1024s to others.
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "unlimited") {
		return MemoryUnlimited, nil
	}
	m := sizeRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("write a size like 256MiB, 1GiB or 512MB, or unlimited")
	}
	unit := strings.ToLower(m[2])
	mult, ok := sizeUnits[unit]
	if !ok {
		if len(unit) == 1 && strings.ContainsAny(unit, "kmgt") {
			return 0, fmt.Errorf("the unit %q is ambiguous; write %s%siB (powers of 1024) or %s%sB (powers of 1000)", m[2], m[1], strings.ToUpper(unit), m[1], strings.ToUpper(unit))
		}
		return 0, fmt.Errorf("%q is not a size unit; use KiB, MiB, GiB (or KB, MB, GB)", m[2])
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, fmt.Errorf("write a size like 256MiB, 1GiB or 512MB, or unlimited")
	}
	return checkSize(v * mult)
}

func checkSize(b float64) (int64, error) {
	switch {
	case math.IsNaN(b) || b > float64(maxMemory):
		return 0, fmt.Errorf("more than 1 PiB; write unlimited for no limit")
	case b < float64(MinMemory):
		return 0, fmt.Errorf("less than the smallest limit, %s", FormatSize(MinMemory))
	}
	return int64(math.Round(b)), nil
}

// FormatSize writes a size the way ParseSize reads it, exactly: in the
// largest unit that divides it (256MiB, 512MB), else in bytes;
// MemoryUnlimited is "unlimited".
func FormatSize(n int64) string {
	if n == MemoryUnlimited {
		return "unlimited"
	}
	if n <= 0 {
		return strconv.FormatInt(n, 10)
	}
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 40, "TiB"}, {1e12, "TB"}, {1 << 30, "GiB"}, {1e9, "GB"}, {1 << 20, "MiB"}, {1e6, "MB"}, {1 << 10, "KiB"}, {1e3, "KB"}} {
		if n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// HumanSize writes a size for a message: 256 MiB, 1.5 GiB, 300 KiB.
func HumanSize(n int64) string {
	if n == MemoryUnlimited {
		return "unlimited"
	}
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			s := strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64)
			return strings.TrimSuffix(s, ".0") + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
