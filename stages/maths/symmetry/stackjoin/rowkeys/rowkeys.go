// Package rowkeys computes the memo keys of the stack counts of package
// stackjoin: images of a stack's row sets (a C-set of symbols for each of
// its N rows, N/R bands of R rows) under the symmetries that keep its
// count E_{h,τ}, so that stacks differing by one share a single count.
//
//   - RowNormal maps the row sets to an image P∘y⁻¹ under the row
//     permutations y (of S_R wr S_C) commuting with ρ' (by sorting a band's
//     sets where every permutation of its rows extends to such a y).
//   - RelabelKey is the key when τ is the identity: the sorted signatures
//     of the symbols (Σ_b i_b·R^b, i_b the position in band b of the row
//     holding the symbol), canonical up to every relabelling, and up to
//     every row permutation too when ρ' is the identity (for stacks of two
//     columns from the cycle sizes of the rows joined by the symbols).
//   - CycleKey is the key when τ is not the identity: per τ-cycle its
//     symbols' signatures from the least rotation, the cycles sorted, equal
//     for stacks that differ by a relabelling commuting with τ.
//
// Every key is exact: equal keys are stacks with equal counts. A key need
// not be canonical; where it is not, equal stacks are merely found less
// often. RelabelKeyRows and CycleKeyRows return a stack with a given key,
// which the tests of package stackjoin count to check the keys.
package rowkeys

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// RowNormal maps a stack's row sets to an image P∘y⁻¹ under row
// permutations y (of S_R wr S_C) commuting with ρ', which keep E:
// S'(y(r), j) = S(r, j) is a stack fixed by (ρ', κ') up to τ whenever S is.
// The image serves as E's memo key, so that configurations differing by
// such a y share one count. It need not be canonical (any image is exact);
// it takes, for each ρ'-orbit of bands, the least image under the y acting
// on that orbit alone, then sorts the bands that ρ' fixes with equal
// permutations of their rows.
type RowNormal struct {
	n, r int
	// per ρ'-orbit of bands: its rows, ascending, and the row maps y
	// acting on them (y[i] the image of rows[i])
	orbits []bandOrbit
	// groups of bands fixed by ρ' with equal permutations of their rows,
	// ascending; their R-row tuples may be sorted
	groups [][]int
}

type bandOrbit struct {
	rows []int
	maps [][]int
	// lines, when ρ'^L (L the orbit's length) keeps every row of its first
	// band a, so that every permutation of a's rows extends to a y:
	// lines[j][i] = ρ'^j(a·R+i), the rows that y moves together.
	lines [][]int
}

// NewRowNormal returns the normal form for a stack of n rows in bands of
// r, under the row permutations commuting with rho (ρ').
func NewRowNormal(n, r int, rho []int) *RowNormal {
	rn := &RowNormal{n: n, r: r}
	bands := n / r
	seen := make([]bool, bands)
	inner := map[string][]int{} // fixed bands by their relative permutation
	var keys []string
	for a := range bands {
		if seen[a] {
			continue
		}
		var orb []int
		for b := a; !seen[b]; b = rho[b*r] / r {
			seen[b] = true
			orb = append(orb, b)
		}
		var rows []int
		for _, b := range orb {
			for i := range r {
				rows = append(rows, b*r+i)
			}
		}
		slices.Sort(rows)
		bo := bandOrbit{rows: rows}
		// y on band a is ya; on ρ'^k(band a), ρ'^k(a·R+i) ↦ ρ'^k(a·R+ya(i)).
		for _, ya := range perm.All(r) {
			y := perm.Identity(n)
			for i := range r {
				x, z := a*r+i, a*r+ya[i]
				for range len(orb) {
					y[x] = z
					x, z = rho[x], rho[z]
				}
			}
			if !slices.Equal(perm.Compose(y, rho), perm.Compose(rho, y)) || perm.IsIdentity(y) {
				continue
			}
			m := make([]int, len(rows))
			for i, x := range rows {
				m[i] = y[x]
			}
			bo.maps = append(bo.maps, m)
		}
		free := true
		lines := make([][]int, len(orb))
		for i := range r {
			x := a*r + i
			for j := range orb {
				lines[j] = append(lines[j], x)
				x = rho[x]
			}
			free = free && x == a*r+i
		}
		if free {
			bo.lines = lines
		}
		rn.orbits = append(rn.orbits, bo)
		if len(orb) == 1 {
			rel := make([]byte, r)
			for i := range r {
				rel[i] = byte(rho[a*r+i] - a*r)
			}
			k := string(rel)
			if _, ok := inner[k]; !ok {
				keys = append(keys, k)
			}
			inner[k] = append(inner[k], a)
		}
	}
	for _, k := range keys {
		if len(inner[k]) > 1 {
			rn.groups = append(rn.groups, inner[k])
		}
	}
	return rn
}

// Key returns the normal image of rows.
func (rn *RowNormal) Key(rows []uint16) [16]uint16 {
	var k [16]uint16
	copy(k[:], rows)
	var img [16]uint16
	for _, bo := range rn.orbits {
		if bo.lines != nil && sortLines(&k, bo.lines) {
			continue
		}
		for _, m := range bo.maps {
			for i, x := range bo.rows {
				img[m[i]] = k[x]
			}
			for _, x := range bo.rows {
				if img[x] != k[x] {
					if img[x] < k[x] {
						for _, x := range bo.rows {
							k[x] = img[x]
						}
					}
					break
				}
			}
		}
	}
	r := rn.r
	for _, g := range rn.groups {
		// insertion sort of the bands' R-row tuples
		for i := 1; i < len(g); i++ {
			for j := i; j > 0 && slices.Compare(k[g[j-1]*r:g[j-1]*r+r], k[g[j]*r:g[j]*r+r]) > 0; j-- {
				a, b := g[j-1]*r, g[j]*r
				for t := range r {
					k[a+t], k[b+t] = k[b+t], k[a+t]
				}
			}
		}
	}
	return k
}

// sortLines takes k to the least image of its rows on one orbit of bands
// whose y are every permutation of the first band's rows (bandOrbit.lines;
// its first band a is the orbit's lowest, read first): y sorts a's sets,
// carrying each line of rows along, and no other y reads as low on a's
// rows when those are distinct. It reports false, changing nothing, when
// two of a's sets are equal (then Key tries the maps one by one). On 5×2
// with the bands exchanged (119 maps) it cut a check part's time (class
// 81 part 3 of 64) from 55 to 19 CPU-s.
func sortLines(k *[16]uint16, lines [][]int) bool {
	first := lines[0]
	r := len(first)
	// rank[i]: the place of row a·R+i's set among a's sets
	var rank [16]int
	for i := range r {
		for j := range i {
			switch a, b := k[first[j]], k[first[i]]; {
			case a == b:
				return false
			case a < b:
				rank[i]++
			default:
				rank[j]++
			}
		}
	}
	for _, line := range lines {
		var moved [16]uint16
		for i, x := range line {
			moved[rank[i]] = k[x]
		}
		for i, x := range line {
			k[x] = moved[i]
		}
	}
	return true
}

// RelabelKey returns a memo key for E_{h,τ} of a stack cycle whose τ is
// the identity, from the row sets rows (already in RowNormal's order).
// Such an E is kept by every relabelling z of the symbols (col'(x, r) =
// col(z⁻¹(x), r) satisfies the same equations), so the stack matters only
// up to relabelling: the key is the sorted list of the symbols'
// signatures, Σ_b i_b·R^b with i_b the position in band b of the row
// holding the symbol, and equal keys are stacks that differ by a
// relabelling (any order of the rows gives an exact key).
//
// With anyRows (ρ' = id, so every permutation of the rows within bands
// and of the bands keeps E too) the key is canonical: the least list over
// the orders of the rows that sort each band's rows by a profile (their
// intersection sizes with the other bands' rows, refined once by those
// rows' profiles) and the bands by their
// rows' profiles, which no relabelling or row permutation changes, every
// order of tied rows or bands tried. Beyond maxRelabelOrders such orders
// (a stack with many ties) it takes the first: still exact, found equal
// less often. On 3×4 class 12 the canonical key cut the distinct stack
// counts of a sample from 4,542 (RowNormal) to 547.
func RelabelKey(rows []uint16, r int, anyRows bool) [16]uint16 {
	n := len(rows)
	bands := n / r
	if anyRows && bands == 2 {
		if k, ok := twoBandKey(rows, r); ok {
			return k
		}
	}
	if !anyRows {
		var pos [16]int
		for i := range n {
			pos[i] = i % r
		}
		return signatures(rows, r, pos[:n], identityOrder[:bands])
	}
	// The intersection sizes of rows in different bands, computed once:
	// both profiles below read them.
	var inter [16][16]uint64
	for i := range n {
		for j := (i/r + 1) * r; j < n; j++ {
			c := uint64(bits.OnesCount16(rows[i] & rows[j]))
			inter[i][j], inter[j][i] = c, c
		}
	}
	// Row profiles: any function of a row that relabellings and row
	// permutations keep will do (it only orders the rows; equal profiles
	// are tried in every order), so multisets are hashed by sums of mixed
	// words, which need no sorting.
	var profile [16]uint64
	for i := range n {
		var p uint64
		for b := range bands {
			if b*r <= i && i < b*r+r {
				continue
			}
			var code uint64
			for _, c := range inter[i][b*r : b*r+r] {
				code += mixSmall[c]
			}
			p += mix64(code)
		}
		profile[i] = p
	}
	// One round of refinement: a row's profile with the multiset of its
	// intersection sizes paired with the other rows' profiles, which
	// parts rows that tie by sizes alone (fewer orders to try below).
	var refined [16]uint64
	for i := range n {
		sum := mix64(profile[i] ^ 0x5bd1e995)
		own := i / r * r
		for j := 0; j < n; j++ {
			if j == own {
				j += r - 1 // i's own band
				continue
			}
			sum += mix64(profile[j] + inter[i][j]*0x9E3779B97F4A7C15)
		}
		refined[i] = sum
	}
	profile = refined
	// Each band's rows by profile (stably), and the bands by their rows'
	// profiles; when nothing ties, that one order gives the key.
	var sorted [16]int // band b's rows in order at sorted[b·R…]
	var bandKey [16]uint64
	tied := false
	for b := range bands {
		o := sorted[b*r : b*r+r]
		for j := range r {
			x := b*r + j
			k := j
			for ; k > 0 && profile[o[k-1]] > profile[x]; k-- {
				o[k] = o[k-1]
			}
			o[k] = x
		}
		var ps [16]uint64
		for j, x := range o {
			ps[j] = profile[x]
			tied = tied || j > 0 && ps[j] == ps[j-1]
		}
		bandKey[b] = fnv(ps[:r])
	}
	var bandsOf [16]int
	for b := range bands {
		k := b
		for ; k > 0 && bandKey[bandsOf[k-1]] > bandKey[b]; k-- {
			bandsOf[k] = bandsOf[k-1]
		}
		bandsOf[k] = b
	}
	for k := 1; k < bands; k++ {
		tied = tied || bandKey[bandsOf[k]] == bandKey[bandsOf[k-1]]
	}
	if !tied {
		var pos [16]int
		for i, x := range sorted[:n] {
			pos[x] = i % r
		}
		return signatures(rows, r, pos[:n], bandsOf[:bands])
	}
	// The orders of the tied rows and bands, every one tried.
	rowOrders := make([][][]int, bands)
	orders := 1
	for b := range bands {
		rowOrders[b] = tiedOrders(slices.Clone(sorted[b*r:b*r+r]), func(x, y int) bool { return profile[x] == profile[y] })
		orders *= len(rowOrders[b])
	}
	bandOrders := tiedOrders(slices.Clone(bandsOf[:bands]), func(x, y int) bool { return bandKey[x] == bandKey[y] })
	orders *= len(bandOrders)
	if orders > maxRelabelOrders {
		bandOrders = bandOrders[:1]
		for b := range rowOrders {
			rowOrders[b] = rowOrders[b][:1]
		}
	}
	var best [16]uint16
	first := true
	var pos [16]int
	var try func(b int, bandOrder []int)
	try = func(b int, bandOrder []int) {
		if b == bands {
			k := signatures(rows, r, pos[:n], bandOrder)
			if first || slices.Compare(k[:n], best[:n]) < 0 {
				best, first = k, false
			}
			return
		}
		for _, o := range rowOrders[b] {
			for j, x := range o {
				pos[x] = j
			}
			try(b+1, bandOrder)
		}
	}
	for _, bo := range bandOrders {
		try(0, bo)
	}
	return best
}

// twoBandKey is RelabelKey's canonical key for a stack of two columns
// (two bands, every row a 2-set), where the general search of tied row
// orders is both costly and, past maxRelabelOrders, not canonical. Each
// symbol joins its row in band 0 to its row in band 1, each row lies on
// two symbols, so the rows and symbols form disjoint cycles, k rows of
// each band on a cycle of 2k symbols (k = 1: two symbols sharing both
// rows). A relabelling and a permutation of the rows within bands and of
// the bands carry a stack onto any other with the same multiset of k:
// the key is the sorted signatures of one fixed stack of that multiset,
// the cycles by decreasing k on consecutive rows of both bands (so
// RelabelKeyRows gives a stack of the key). ok is false when a row is not
// a 2-set or a band not a partition of the symbols (the general path).
// On 5×2 the general key took 94% of a check part's time (class 22, whose
// exchanged pair has τ = σ² = id: part 3 of 64 from 18.2 to 0.45 CPU-s).
func twoBandKey(rows []uint16, r int) (key [16]uint16, ok bool) {
	n := len(rows)
	// rowOf[b][x]: the position in band b of the row holding symbol x
	var rowOf [2][16]uint8
	for b := range 2 {
		var all uint16
		for j := range r {
			m := rows[b*r+j]
			if bits.OnesCount16(m) != 2 || all&m != 0 {
				return key, false
			}
			all |= m
			for ; m != 0; m &= m - 1 {
				rowOf[b][bits.TrailingZeros16(m)] = uint8(j)
			}
		}
		if all != uint16(1<<n-1) {
			return key, false
		}
	}
	// The cycle sizes k, walking from each band-0 row not yet met: out by
	// one of its symbols to band 1, back by that row's other symbol.
	var sizes [16]int
	cycles := 0
	var seen uint16 // band-0 rows met
	for start := range r {
		if seen>>start&1 != 0 {
			continue
		}
		k := 0
		out := bits.TrailingZeros16(rows[start])
		for row := start; seen>>row&1 == 0; {
			seen |= 1 << row
			k++
			back := bits.TrailingZeros16(rows[r+int(rowOf[1][out])] &^ (1 << out))
			row = int(rowOf[0][back])
			out = bits.TrailingZeros16(rows[row] &^ (1 << back))
		}
		j := cycles
		for ; j > 0 && sizes[j-1] < k; j-- {
			sizes[j] = sizes[j-1]
		}
		sizes[j] = k
		cycles++
	}
	// The fixed stack: a cycle of k on rows a…a+k-1 of both bands, its
	// symbols joining row a+i of band 0 to rows a+i and a+(i+1) mod k of
	// band 1 (signature: band 0's position + R·band 1's).
	x, a := 0, 0
	for _, k := range sizes[:cycles] {
		for i := range k {
			key[x] = uint16(a + i + r*(a+i))
			key[x+1] = uint16(a + i + r*(a+(i+1)%k))
			x += 2
		}
		a += k
	}
	sortSmall(key[:n])
	return key, true
}

// mixSmall[c] is mix64(c+1), the words of the intersection sizes c ≤ 16
// that RelabelKey's profiles add.
var mixSmall = func() (t [17]uint64) {
	for c := range t {
		t[c] = mix64(uint64(c) + 1)
	}
	return t
}()

// maxRelabelOrders bounds the row orders RelabelKey tries.
const maxRelabelOrders = 1 << 11

// identityOrder is 0, 1, …, 15.
var identityOrder = [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// signatures returns the sorted signatures of the symbols of the stack
// with row sets rows, pos[i] the position of row i in its band and
// bandOrder the bands in order.
func signatures(rows []uint16, r int, pos []int, bandOrder []int) [16]uint16 {
	sig := symbolSignatures(rows, r, pos, bandOrder)
	sortSmall(sig[:len(rows)])
	return sig
}

// symbolSignatures returns each symbol's signature Σ_b pos(its row in
// band b)·R^(b's place in bandOrder), by symbol.
func symbolSignatures(rows []uint16, r int, pos []int, bandOrder []int) [16]uint16 {
	var weight [16]uint16 // per band, R^(its place in bandOrder)
	w := uint16(1)
	for _, b := range bandOrder {
		weight[b] = w
		w *= uint16(r)
	}
	var sig [16]uint16
	for i, m := range rows {
		add := uint16(pos[i]) * weight[i/r]
		for m != 0 {
			x := bits.TrailingZeros16(m)
			sig[x] += add
			m &= m - 1
		}
	}
	return sig
}

// sortSmall sorts a short list in place (insertion sort: the lists here
// have at most 16 elements, where slices.Sort's dispatch costs more than
// the sorting).
func sortSmall[T uint16 | uint64](a []T) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && a[j-1] > x; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

// tiedOrders returns the orders of sorted (a sorted list) that keep it
// sorted: every permutation of each run of tied elements.
func tiedOrders(sorted []int, tied func(x, y int) bool) [][]int {
	anyTie := false
	for i := 1; i < len(sorted) && !anyTie; i++ {
		anyTie = tied(sorted[i-1], sorted[i])
	}
	if !anyTie {
		return [][]int{sorted} // most lists: one order, no copy
	}
	out := [][]int{slices.Clone(sorted)}
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && tied(sorted[start], sorted[end]) {
			end++
		}
		if end-start > 1 {
			var next [][]int
			for _, o := range out {
				for _, p := range permsOf(end - start) {
					q := slices.Clone(o)
					for k, pk := range p {
						q[start+k] = o[start+pk]
					}
					next = append(next, q)
				}
			}
			out = next
		}
		start = end
	}
	return out
}

// smallPerms[k] is perm.All(k), listed once: RelabelKey meets ties of a
// few rows or bands in most stacks of a stack exchange.
var smallPerms = func() (t [7][][]int) {
	for k := range t {
		t[k] = perm.All(k)
	}
	return t
}()

// permsOf returns perm.All(k), from smallPerms when k is small.
func permsOf(k int) [][]int {
	if k < len(smallPerms) {
		return smallPerms[k]
	}
	return perm.All(k)
}

// mix64 is SplitMix64's finaliser, a bijection that scatters the bits of
// x (the sums of mixed words hash multisets).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// fnv hashes a list of words (FNV-1a over the words).
func fnv(words []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, w := range words {
		h = (h ^ w) * 1099511628211
	}
	return h
}

// RelabelKeyRows returns a stack's row sets with RelabelKey's key: symbol
// i (in key order) in the row of each band that its signature names; its
// E is the E of every stack with that key.
func RelabelKeyRows(key [16]uint16, n, r int) []uint16 {
	rows := make([]uint16, n)
	for x := range n {
		s := int(key[x])
		for b := range n / r {
			rows[b*r+s%r] |= 1 << x
			s /= r
		}
	}
	return rows
}

// CycleKey returns a memo key for E_{h,τ} when τ is not the identity, from
// the row sets rows (already in RowNormal's order) and τ's cycles. A
// relabelling z that commutes with τ keeps E (col'(x, r) = col(z⁻¹(x), r)
// satisfies the same equations, as z⁻¹τ = τz⁻¹), and such a z maps each
// τ-cycle (x, τ(x), …) onto one of the same length, in order up to a
// rotation. So the key lists, per cycle, the signatures of its symbols
// (as in RelabelKey, row positions as they stand) from the rotation that
// reads least, the cycles sorted by length and then by that list: equal
// keys are stacks that differ by such a z, and a key is exact. On 3×4
// class 115 (σ of type 2⁶ and the like, τ = σ) the stack counts computed
// for part 255 of 256 fell from 4.9·10⁶ (RowNormal alone) to 1.5·10⁵
// and its time from 100 to 35 s (TestReducedEMatchesPlain checks E at a
// key's own stack, CycleKeyRows).
func CycleKey(rows []uint16, r int, tauCycles [][]int) [16]uint16 {
	var pos [16]int
	for i := range rows {
		pos[i] = i % r
	}
	sig := symbolSignatures(rows, r, pos[:len(rows)], identityOrder[:len(rows)/r])
	// Each cycle's least rotation, packed in a word with its length above
	// (7 bits a signature, so words order by length, then rotation); the
	// words sorted. Signatures below 128 (R^C ≤ 128) and cycles of at most
	// 8 symbols fit, as on every shape the package takes but 2×6 and 6×2.
	if pow(r, len(rows)/r) <= 128 {
		var words [16]uint64
		fits := true
		for i, cyc := range tauCycles {
			l := len(cyc)
			if l > 8 {
				fits = false
				break
			}
			var best uint64
			for k := range l {
				var w uint64
				for j := range l {
					w = w<<7 | uint64(sig[cyc[(j+k)%l]])
				}
				if k == 0 || w < best {
					best = w
				}
			}
			w := uint64(l)<<56 | best<<(7*(8-l))
			j := i
			for ; j > 0 && words[j-1] > w; j-- {
				words[j] = words[j-1]
			}
			words[j] = w
		}
		if fits {
			var key [16]uint16
			k := 0
			for _, w := range words[:len(tauCycles)] {
				l := int(w >> 56)
				for j := range l {
					key[k] = uint16(w >> (7 * (7 - j)) & 127)
					k++
				}
			}
			return key
		}
	}
	return cycleKeyLists(sig, tauCycles)
}

// cycleKeyLists is CycleKey's order on lists of signatures sig (per
// symbol), for any signatures and cycle lengths.
func cycleKeyLists(sig [16]uint16, tauCycles [][]int) [16]uint16 {
	type word struct {
		l   int
		sig [16]uint16
	}
	var words [16]word
	for i, cyc := range tauCycles {
		l := len(cyc)
		best := word{l: l}
		for k := range l {
			var cand [16]uint16
			for j := range l {
				cand[j] = sig[cyc[(j+k)%l]]
			}
			if k == 0 || slices.Compare(cand[:l], best.sig[:l]) < 0 {
				best.sig = cand
			}
		}
		words[i] = best
	}
	ws := words[:len(tauCycles)]
	slices.SortFunc(ws, func(a, b word) int {
		if a.l != b.l {
			return cmp.Compare(a.l, b.l)
		}
		return slices.Compare(a.sig[:a.l], b.sig[:b.l])
	})
	var key [16]uint16
	k := 0
	for _, wd := range ws {
		k += copy(key[k:k+wd.l], wd.sig[:wd.l])
	}
	return key
}

// pow returns b^e.
func pow(b, e int) int {
	x := 1
	for range e {
		x *= b
	}
	return x
}

// CycleKeyRows returns a stack's row sets with CycleKey's key: the key's
// cycles given, in order, to τ's cycles of the same length in the order
// of tauCycles, and each symbol in the row of each band that its
// signature names; its E is the E of every stack with that key.
func CycleKeyRows(key [16]uint16, n, r int, tauCycles [][]int) []uint16 {
	rows := make([]uint16, n)
	used := make([]bool, len(tauCycles))
	k := 0
	for k < n {
		// the next key cycle's length: the least length not yet used up
		// (the key lists cycles by increasing length)
		ci := -1
		for i, cyc := range tauCycles {
			if !used[i] && (ci < 0 || len(cyc) < len(tauCycles[ci])) {
				ci = i
			}
		}
		used[ci] = true
		for _, x := range tauCycles[ci] {
			s := int(key[k])
			k++
			for b := range n / r {
				rows[b*r+s%r] |= 1 << x
				s /= r
			}
		}
	}
	return rows
}
