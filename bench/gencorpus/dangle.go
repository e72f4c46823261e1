package main

import (
	"math"
	"strings"
)

// Dangling references: big repositories always hold some related_tools
// names that name no tool of the set (a typo, a tool renamed or removed, a
// tool that lives in another repository). lint reports each one and looks
// for a "did you mean" among every tool name, so they matter to its speed.
//
// Only OpenAkita files have related_tools; the share is of all files, taken
// from those. Each chosen file gets one dangling name in place of its first
// related tool, of one of three kinds (in turns, so every kind occurs):
//
//   - typo: an existing name with two adjacent letters swapped or one letter
//     dropped (lint suggests the existing name);
//   - renamed: an existing name with a suffix the generator never uses, as
//     left behind by a rename (usually suggested too);
//   - foreign: a name from outside the set's vocabulary, as for a tool of
//     another repository (no suggestion: every tool name is compared).

// dangleKinds in the order they are dealt.
var dangleKinds = []string{"typo", "renamed", "foreign", "typo"}

// renameSuffixes are never among nameSuffixes.
var renameSuffixes = []string{"old", "deprecated", "v0", "tmp", "orig", "next"}

// foreignWords build names unlike the generated ones.
var foreignWords = []string{"quartz", "mango", "kestrel", "vortex", "zephyr", "lumen", "gazebo", "fjord", "nimbus", "pylon", "yonder", "ember", "thistle", "wombat", "quiver"}

type dangleStats struct {
	files                  int
	typo, renamed, foreign int
}

// chooseDangling marks share percent of all files (rounded, at most every
// OpenAkita file) to get a dangling reference.
func (p *plan) chooseDangling(share float64) {
	if share <= 0 {
		return
	}
	var pool []*tool
	for _, t := range p.tools {
		if t.dialect == openakita {
			pool = append(pool, t)
		}
	}
	k := min(len(pool), int(math.Round(float64(len(p.tools))*share/100)))
	for _, i := range p.dangleRNG.Perm(len(pool))[:k] {
		pool[i].dangle = true
	}
}

// danglingName returns a name that is not a tool of the set, for tool t.
func (p *plan) danglingName(t *tool) string {
	r := p.dangleRNG
	kind := dangleKinds[p.dangled.files%len(dangleKinds)]
	p.dangled.files++
	for {
		var name string
		switch kind {
		case "typo":
			name = typo(pick(r, p.tools).name, r.IntN)
		case "renamed":
			name = pick(r, p.tools).name + "_" + pick(r, renameSuffixes)
		default:
			name = strings.Join([]string{t.cat.prefix, pick(r, foreignWords), pick(r, foreignWords), pick(r, foreignWords)}, "_")
		}
		if name != "" && !p.names[name] {
			switch kind {
			case "typo":
				p.dangled.typo++
			case "renamed":
				p.dangled.renamed++
			default:
				p.dangled.foreign++
			}
			return name
		}
	}
}

// typo swaps two adjacent, different letters of name or drops a letter
// that has a letter on either side; "" when it found neither.
func typo(name string, intN func(int) int) string {
	b := []byte(name)
	for range 20 {
		i := 1 + intN(len(b)-2)
		isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' }
		if intN(2) == 0 {
			if isLetter(b[i]) && isLetter(b[i+1]) && b[i] != b[i+1] {
				b[i], b[i+1] = b[i+1], b[i]
				return string(b)
			}
		} else if isLetter(b[i-1]) && isLetter(b[i]) && isLetter(b[i+1]) {
			return string(b[:i]) + string(b[i+1:])
		}
	}
	return ""
}
