package breaking

import (
	"strconv"
	"strings"
)

// maxDiffWords bounds the word diff (LCS is quadratic); longer texts are
// summarised by their lengths.
const maxDiffWords = 1500

// wordDiff is a short word diff of two texts: "[-removed-] {+added+}"
// around a few words of context, at most a few changes shown.
func wordDiff(a, b string) string {
	aw, bw := strings.Fields(a), strings.Fields(b)
	if len(aw) > maxDiffWords || len(bw) > maxDiffWords {
		return "was " + wordCount(len(aw)) + ", is " + wordCount(len(bw))
	}
	// lcs[i][j] is the LCS length of aw[i:], bw[j:].
	lcs := make([][]int32, len(aw)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(bw)+1)
	}
	for i := len(aw) - 1; i >= 0; i-- {
		for j := len(bw) - 1; j >= 0; j-- {
			if aw[i] == bw[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		word string
	}
	var ops []op
	i, j := 0, 0
	for i < len(aw) || j < len(bw) {
		switch {
		case i < len(aw) && j < len(bw) && aw[i] == bw[j]:
			ops = append(ops, op{' ', aw[i]})
			i++
			j++
		case j < len(bw) && (i == len(aw) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', bw[j]})
			j++
		default:
			ops = append(ops, op{'-', aw[i]})
			i++
		}
	}
	const context, maxChanges, maxWords = 2, 3, 12
	var parts []string
	changes, shown := 0, 0 // shown: ops written up to
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		if changes == maxChanges {
			parts = append(parts, "…")
			shown = len(ops)
			break
		}
		changes++
		start := max(shown, k-context)
		if start > shown || (shown == 0 && start > 0) {
			parts = append(parts, "…")
		}
		for x := start; x < k; x++ {
			parts = append(parts, ops[x].word)
		}
		var del, ins []string
		for k < len(ops) && ops[k].kind != ' ' {
			if ops[k].kind == '-' {
				del = append(del, ops[k].word)
			} else {
				ins = append(ins, ops[k].word)
			}
			k++
		}
		if len(del) > 0 {
			parts = append(parts, "[-"+clip(del, maxWords)+"-]")
		}
		if len(ins) > 0 {
			parts = append(parts, "{+"+clip(ins, maxWords)+"+}")
		}
		// context after, unless the next change starts within it
		x := k
		for ; x < min(len(ops), k+context) && ops[x].kind == ' '; x++ {
			parts = append(parts, ops[x].word)
		}
		shown = x
		k = x
	}
	if shown < len(ops) {
		parts = append(parts, "…")
	}
	return strings.Join(parts, " ")
}

func clip(words []string, n int) string {
	if len(words) > n {
		return strings.Join(words[:n], " ") + " …"
	}
	return strings.Join(words, " ")
}

func wordCount(n int) string {
	if n == 1 {
		return "1 word"
	}
	return strconv.Itoa(n) + " words"
}
