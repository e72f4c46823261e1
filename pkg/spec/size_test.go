package spec

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"256MiB":    256 << 20,
		"256mib":    256 << 20,
		"256 MiB":   256 << 20,
		"1GiB":      1 << 30,
		"1.5GiB":    3 << 29,
		"512MB":     512e6,
		"64Mi":      64 << 20,
		"2Gi":       2 << 30,
		"16777216":  16 << 20,
		"20000KiB":  20000 << 10,
		"unlimited": MemoryUnlimited,
		"Unlimited": MemoryUnlimited,
		"1TB":       1e12,
	} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
		if got > 0 {
			if back, err := ParseSize(FormatSize(got)); err != nil || back != got {
				t.Errorf("FormatSize(%d) = %q reads back as %d, %v", got, FormatSize(got), back, err)
			}
		}
	}
	for _, in := range []string{"", "256M", "1g", "1 foo", "-1MiB", "1MiB", "15MiB", "2PiB", "MiB", "1.2.3GiB", "0x10MiB", "9999999TiB"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{256 << 20: "256MiB", 1 << 30: "1GiB", 512e6: "512MB", 3 << 29: "1536MiB", 16777217: "16777217", MemoryUnlimited: "unlimited"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{256 << 20: "256 MiB", 3 << 29: "1.5 GiB", 300 << 10: "300 KiB", 12: "12 bytes"} {
		if got := HumanSize(n); got != want {
			t.Errorf("HumanSize(%d) = %q, want %q", n, got, want)
		}
	}
}
