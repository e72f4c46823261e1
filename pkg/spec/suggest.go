package spec

import (
	"math"
	"math/bits"
	"unicode/utf8"
)

// Suggest returns the candidate closest to word when it is close enough to be
// a likely typo ("descripton" → "description"), else "": the first
// candidate, in order, at the smallest Damerau-Levenshtein (optimal string
// alignment) distance, when that distance is at most a third of word's
// length in runes (at least 1).
//
// For many words against one list, NewSuggester indexes the list once.
func Suggest(word string, candidates []string) string {
	var q suggestQuery
	q.init(word)
	best, bestIdx := q.limit, math.MaxInt
	for i, c := range candidates {
		k := best
		if i > bestIdx {
			k-- // a later candidate must be strictly closer
		}
		n := utf8.RuneCountInString(c)
		if k < 0 || absDiff(len(q.runes), n) > k {
			continue
		}
		if d := q.distanceWithin(c, n, k); d <= k {
			best, bestIdx = d, i
		}
	}
	if bestIdx == math.MaxInt {
		return ""
	}
	return candidates[bestIdx]
}

// Suggester answers Suggest(word, candidates) for many words and one list of
// candidates (every tool name of a large set, say) without computing a
// distance to every candidate: candidates are grouped by length, lengths
// nearest the word's are searched first, and a candidate's distance is
// computed only when two cheap lower bounds (the letters that differ,
// counted up to three then exactly, and the length difference) do not
// already put it beyond the best so far. The answers are Suggest's,
// exactly.
type Suggester struct {
	candidates []string
	// exact maps a candidate to its first index.
	exact map[string]int
	// byLen[n] holds the candidates of n runes, in order.
	byLen []suggestBucket
	total int
}

// suggestBucket holds candidates of one length, column by column.
type suggestBucket struct {
	offset int // of its first candidate among all buckets'
	index  []int
	small  []smallHist
	fine   []runeHist
}

// NewSuggester indexes candidates; the slice is kept, not copied.
func NewSuggester(candidates []string) *Suggester {
	s := &Suggester{candidates: candidates, exact: make(map[string]int, len(candidates))}
	for i, c := range candidates {
		if _, dup := s.exact[c]; dup {
			continue // never closer than its first occurrence
		}
		s.exact[c] = i
		n := utf8.RuneCountInString(c)
		for len(s.byLen) <= n {
			s.byLen = append(s.byLen, suggestBucket{})
		}
		b := &s.byLen[n]
		h := histOf(c)
		b.index = append(b.index, i)
		b.small = append(b.small, h.small())
		b.fine = append(b.fine, h)
	}
	for i := range s.byLen {
		s.byLen[i].offset = s.total
		s.total += len(s.byLen[i].index)
	}
	return s
}

// Suggest is spec.Suggest(word, candidates). It is safe for concurrent use.
func (s *Suggester) Suggest(word string) string {
	if i, ok := s.exact[word]; ok {
		return s.candidates[i]
	}
	var q suggestQuery
	q.init(word)
	fine := histOf(word)
	small := fine.small()
	n := len(q.runes)
	best, bestIdx := q.limit, math.MaxInt
	// A bound found early prunes every later candidate: look for close
	// candidates first (a typo is one or two edits), then up to the limit.
	// A later pass looks at the candidates of an earlier one again; their
	// first bound is kept here (plus one; 0 is not computed yet).
	smallL1 := make([]uint8, s.total)
	prev := -1
	for _, bound := range [...]int{min(2, q.limit), min(5, q.limit), q.limit} {
		if bound == prev || bestIdx != math.MaxInt {
			// A pass compares every candidate within its bound: the
			// best it found, within that bound, is the answer.
			break
		}
		prev = bound
		for delta := 0; delta <= min(best, bound); delta++ {
			lens := [2]int{n - delta, n + delta}
			for _, l := range lens[:min(2, 1+delta)] {
				if l < 0 || l >= len(s.byLen) {
					continue
				}
				b := &s.byLen[l]
				// An insertion or deletion changes the multiset of
				// (bucketed) runes by one and the length by one, a
				// substitution the multiset by two, a transposition
				// neither: the distance is at least half their sum, and
				// must be at most min(best, bound) here.
				room := 2*min(best, bound) - delta
				seen := smallL1[b.offset : b.offset+len(b.small)]
				for i, c := range b.small {
					d := int(seen[i]) - 1
					if d < 0 {
						d = small.l1(c)
						seen[i] = uint8(d + 1)
					}
					if d > room || fine.l1(&b.fine[i]) > room {
						continue
					}
					k := min(best, bound)
					if b.index[i] > bestIdx {
						k = min(k, best-1) // a later candidate must be strictly closer
					}
					if d := q.distanceWithin(s.candidates[b.index[i]], l, k); d <= k {
						best, bestIdx = d, b.index[i]
						room = 2*min(best, bound) - delta
					}
				}
			}
		}
	}
	if bestIdx == math.MaxInt {
		return ""
	}
	return s.candidates[bestIdx]
}

// runeHist counts a string's runes in 32 buckets of one byte each (at most
// 127). Mapping runes onto buckets and clamping the counts keep the L1
// distance of two histograms a lower bound of the strings' (an edit of a
// string is an edit of its image); the usual name alphabet (a-z, '_', '-',
// '.', digits) gets a bucket per letter.
type runeHist [4]uint64

// smallHist is a runeHist with every count clamped to 3, in two bits: the
// high bits of the 32 buckets in the upper half, the low bits in the
// lower. Its L1 distance is a weaker bound, at a third of the cost.
type smallHist uint64

func histOf(s string) runeHist {
	var counts [32]byte
	for _, r := range s {
		var b byte
		switch {
		case r >= 'a' && r <= 'z':
			b = byte(r - 'a')
		case r >= 'A' && r <= 'Z':
			b = byte(r - 'A')
		case r == '_':
			b = 26
		case r >= '0' && r <= '9':
			b = 27
		case r == '-':
			b = 28
		case r == '.':
			b = 29
		default:
			b = 30 + byte(r&1)
		}
		if counts[b] < 127 {
			counts[b]++
		}
	}
	var h runeHist
	for i, c := range counts {
		h[i/8] |= uint64(c) << (8 * (i % 8))
	}
	return h
}

func (h *runeHist) small() smallHist {
	var hi, lo uint32
	for b := range 32 {
		c := min(h.count(b), 3)
		hi |= uint32(c>>1) << b
		lo |= uint32(c&1) << b
	}
	return smallHist(uint64(hi)<<32 | uint64(lo))
}

// l1 sums |a-b| over the two-bit lanes: where the high bits agree, the
// low bits' difference; where they differ, 2, plus 1 when the larger
// count's low bit is set and the smaller's is not, minus 1 in the
// opposite case.
func (h smallHist) l1(o smallHist) int {
	ahi, alo, bhi, blo := uint32(h>>32), uint32(h), uint32(o>>32), uint32(o)
	hd, ld := ahi^bhi, alo^blo
	w := ahi&alo | bhi&blo // where hd is set: the larger count's low bit
	// 2+1 = 1 + [not (low bits differ and w unset)] + [low bits differ
	// and w set], two 32-bit counts in each 64-bit one.
	return bits.OnesCount64(uint64(ld&^hd)<<32|uint64(hd)) + bits.OnesCount64(uint64(hd&^(ld&^w))<<32|uint64(hd&ld&w))
}

// count returns bucket b's count.
func (h *runeHist) count(b int) int { return int(h[b/8] >> (8 * (b % 8)) & 0xFF) }

// l1 is the sum over the buckets of the counts' differences.
func (h *runeHist) l1(o *runeHist) int {
	// Lanes of one absolute difference are below 128, of two below 256.
	a := absDiffBytes(h[0], o[0]) + absDiffBytes(h[1], o[1])
	b := absDiffBytes(h[2], o[2]) + absDiffBytes(h[3], o[3])
	return laneSum(a, b)
}

const (
	highBits = 0x8080808080808080
	lowBytes = 0x00FF00FF00FF00FF
)

// absDiffBytes returns |x-y| per byte lane, for lanes below 128.
func absDiffBytes(x, y uint64) uint64 {
	dxy := (x | highBits) - y // per lane 128+x-y: no borrow crosses lanes
	dyx := (y | highBits) - x
	ge := (dxy & highBits) >> 7 * 0xFF // lanes where x >= y
	return (dxy&^highBits)&ge | (dyx&^highBits)&^ge
}

// laneSum adds the byte lanes of a and b.
func laneSum(a, b uint64) int {
	v := a&lowBytes + (a>>8)&lowBytes + b&lowBytes + (b>>8)&lowBytes
	return int(v * 0x0001000100010001 >> 48)
}

// suggestQuery is one word being matched: its runes, limit, and the
// buffers of the distance computations.
type suggestQuery struct {
	runes []rune
	limit int
	// peq: for the bit-parallel distance (words of at most 64 runes), the
	// positions of each rune in the word.
	peqASCII [128]uint64
	peqOther []runeMask
	// rows and cand: for the dynamic-programming distance (longer words).
	rows []int
	cand []rune
}

type runeMask struct {
	r    rune
	mask uint64
}

func (q *suggestQuery) init(word string) {
	// As []rune(word): U+FFFD for an invalid byte.
	for _, r := range word {
		q.runes = append(q.runes, r)
	}
	q.limit = max(1, len(q.runes)/3)
	if len(q.runes) > 64 {
		return
	}
	for i, r := range q.runes {
		bit := uint64(1) << i
		if r < 128 {
			q.peqASCII[r] |= bit
			continue
		}
		found := false
		for j := range q.peqOther {
			if q.peqOther[j].r == r {
				q.peqOther[j].mask |= bit
				found = true
			}
		}
		if !found {
			q.peqOther = append(q.peqOther, runeMask{r, bit})
		}
	}
}

func (q *suggestQuery) peq(r rune) uint64 {
	if r < 128 {
		return q.peqASCII[r]
	}
	for _, p := range q.peqOther {
		if p.r == r {
			return p.mask
		}
	}
	return 0
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// distanceWithin returns the optimal string alignment distance between the
// word and c when it is at most k, else a number greater than k.
// n is c's length in runes.
func (q *suggestQuery) distanceWithin(c string, n, k int) int {
	m := len(q.runes)
	if m == 0 || n == 0 {
		return max(m, n)
	}
	if m > 64 {
		q.cand = q.cand[:0]
		for _, r := range c {
			q.cand = append(q.cand, r)
		}
		return q.osaWithin(q.runes, q.cand, k)
	}
	return q.osaBits(c, n, k)
}

// osaBits is Hyyrö's bit-parallel optimal string alignment distance ("A
// bit-vector algorithm for computing Levenshtein and Damerau edit
// distances", 2003): one column of the distance matrix per rune of c, the
// word's rows as the bits of a machine word. It stops once the last row
// cannot come back within k.
func (q *suggestQuery) osaBits(c string, left, k int) int {
	m := len(q.runes)
	last := uint64(1) << (m - 1)
	vp, vn := ^uint64(0), uint64(0)
	d0, pmPrev := uint64(0), uint64(0)
	score := m
	for _, r := range c {
		pm := q.peq(r)
		tr := ((^d0 & pm) << 1) & pmPrev
		d0 = (((pm & vp) + vp) ^ vp) | pm | vn | tr
		hp := vn | ^(d0 | vp)
		hn := vp & d0
		if hp&last != 0 {
			score++
		} else if hn&last != 0 {
			score--
		}
		left--
		// Each rune left lowers the last row by at most one.
		if score-left > k {
			return k + 1
		}
		hp = hp<<1 | 1
		hn <<= 1
		vp = hn | ^(d0 | hp)
		vn = hp & d0
		pmPrev = pm
	}
	return score
}

// osaWithin is the same distance by dynamic programming, for words too
// long for osaBits: only the cells within k of the diagonal are computed,
// and it stops as soon as a row has no cell within k (a row's minimum
// never decreases).
func (q *suggestQuery) osaWithin(a, b []rune, k int) int {
	if absDiff(len(a), len(b)) > k {
		return k + 1
	}
	inf := k + 1
	n := len(b) + 1
	if cap(q.rows) < 3*n {
		q.rows = make([]int, 3*n)
	}
	prev2, prev, cur := q.rows[:n], q.rows[n:2*n], q.rows[2*n:3*n]
	for j := range prev {
		prev[j] = min(j, inf)
		prev2[j] = inf
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		// The cell just left of the band is read below; it is beyond k
		// unless it is the first column.
		if lo == 1 {
			cur[0] = min(i, inf)
		} else {
			cur[lo-1] = inf
		}
		rowMin := cur[lo-1]
		ai := a[i-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if ai == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ai == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			v = min(v, inf)
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if hi < len(b) {
			cur[hi+1] = inf
		}
		if rowMin > k {
			return inf
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
