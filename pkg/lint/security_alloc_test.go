package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// TestSecurityPackAllocations: the security pack costs about no
// allocation per tool (its cost on the 10k benchmark corpus was GC as
// much as work): with and without it, Run allocates nearly as often.
// The tools' texts have upper-case letters and the words the pattern
// rules start at (must, never call, token), and match no pattern.
func TestSecurityPackAllocations(t *testing.T) {
	dir := t.TempDir()
	const n = 120
	for i := range n {
		body := fmt.Sprintf(`name: get_item_%d
description: >-
  Returns Item %d of the Inventory. Use when the User must choose an item.
  Never Call it twice for the same ID; the Token field is refreshed by the Server.
category: data
input_schema:
  type: object
  properties:
    item_id:
      type: string
      description: The ID of the Item, as listed by the Inventory.
      examples: ["Item-0001 of the Store"]
  required: [item_id]
`, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("get_item_%d.yaml", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	off := map[string]Severity{}
	for _, r := range Rules() {
		if r.Pack == PackSecurity {
			off[r.ID] = Off
		}
	}
	// extra is what the pack allocates on the first k tools; the
	// difference between two sizes leaves out what it allocates per run.
	extra := func(k int) float64 {
		var paths []string
		for i := range k {
			paths = append(paths, filepath.Join(dir, fmt.Sprintf("get_item_%d.yaml", i)))
		}
		set, err := spec.Load(paths)
		if err != nil {
			t.Fatal(err)
		}
		if fs := Run(set, Config{}); len(fs) != 0 {
			t.Fatalf("the tools should be clean, got %d findings, the first: %v", len(fs), fs[0])
		}
		with := testing.AllocsPerRun(5, func() { Run(set, Config{}) })
		without := testing.AllocsPerRun(5, func() { Run(set, Config{Severities: off}) })
		return with - without
	}
	small, large := extra(n/2), extra(n)
	// One allocation per tool is expected: the lower-cased copy of the
	// description (upper-case letters and trigger words), which the
	// pattern matchers read. It was 19 before the rules shared one
	// Reporter per tool and the texts' hits one arena.
	if perTool := (large - small) / (n - n/2); perTool > 1.5 {
		t.Errorf("the security pack allocates %.1f times per tool (%.0f on %d tools, %.0f on %d); walk the texts without building strings or slices per text", perTool, large, n, small, n/2)
	}
}

// skeletonHash is the hash of skeleton(s) (its ASCII path makes no
// skeleton string), so confusableNameSet groups names as skeletons do.
func TestSkeletonHashIsHashOfSkeleton(t *testing.T) {
	fnv := func(s string) uint64 {
		h := uint64(14695981039346656037)
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		return h
	}
	for _, name := range []string{"get_item_1", "get_item_l", "list_fiIes", "list_files", "rn_modern", "O0_ok", "read_file", "rеad_file", "ｒｅａｄ", "名前_get", ""} {
		if got, want := skeletonHash(name), fnv(skeleton(name)); got != want {
			t.Errorf("skeletonHash(%q) = %x, the hash of its skeleton %q is %x", name, got, skeleton(name), want)
		}
	}
	if skeletonHash("get_item_1") != skeletonHash("get_item_l") || skeletonHash("read_file") == skeletonHash("read_files") {
		t.Error("look-alike names must hash alike, others not")
	}
}
