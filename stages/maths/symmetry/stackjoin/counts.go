package stackjoin

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/stackcount"
)

// stackCounts keeps the stack counts E_{h,τ} computed in the process, by
// twist (ρ', κ', τ) and memo key: E is a function of those two alone,
// whatever the class, σ type, worker or part that meets it. So the parts
// of a class (the symmetry stage's local executor runs them one after
// another in one process) share its counts instead of each computing them
// again, and classes with the same twist share theirs: the plain count
// (every one the identity) is met by the stack exchanges of every class.
var stackCounts = &countCache{m: map[countKey]uint64{}, ids: map[string]int32{}}

// maxStackCounts bounds each of stackCounts' two generations (about 60
// bytes an entry with the map's overhead, 2 GB at most in all). When the
// current one is full it becomes the old one, whose counts are still
// found, and the older is dropped: a run of many parts keeps the counts
// it meets again. (With one table of 2^22 emptied when full, a part of
// 3×4 class 115, about 5·10^6 distinct counts, emptied it once and met
// its own counts again no faster; with room for two parts the second took
// 70 s instead of 100, and a part met again 15 s, 2026-11-28.)
const maxStackCounts = 1 << 24

type countKey struct {
	twist int32
	key   [16]uint16
}

type countCache struct {
	mu     sync.RWMutex
	m, old map[countKey]uint64
	ids    map[string]int32 // shape and twist, as bytes → id
}

// twistID returns the id of the twist (ρ', κ', τ) of shape s.
func (c *countCache) twistID(s symmetry.Shape, rho, kap, tau []int) int32 {
	b := []byte{byte(s.R), byte(s.C)}
	for _, p := range [][]int{rho, kap, tau} {
		b = append(b, byte(len(p)))
		for _, x := range p {
			b = append(b, byte(x))
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.ids[string(b)]
	if !ok {
		id = int32(len(c.ids))
		c.ids[string(b)] = id
	}
	return id
}

func (c *countCache) get(twist int32, key [16]uint16) (uint64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	k := countKey{twist, key}
	if e, ok := c.m[k]; ok {
		return e, true
	}
	e, ok := c.old[k]
	return e, ok
}

func (c *countCache) put(twist int32, key [16]uint16, e uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxStackCounts {
		c.old, c.m = c.m, make(map[countKey]uint64, len(c.m))
	}
	c.m[countKey{twist, key}] = e
}

// maxPrefixSymmetries bounds the symmetries prefixLeast tries at every
// node of the first cycle: beyond it they would cost more than they save.
const maxPrefixSymmetries = 1 << 16

// prefixLeast reports whether the first cycle's partial configuration can
// still complete to one that canonical keeps: false when some symmetry of
// canonical's group maps it below itself in the rows already set. The
// image's row i is z(P(y⁻¹(i))); read in order, as long as both it and
// row i are set the comparison is decided by them whatever the rows left
// become, so a smaller image there stays smaller in every completion. It
// tries the row permutations with the relabellings when there are at most
// maxPrefixSymmetries of them, else the row permutations alone when few
// enough, else none (any subset of the group prunes only what canonical
// would reject).
func (w *walker) prefixLeast() bool {
	rows := w.config[w.p.cycles[0][0]]
	sw := &w.p.symWalk
	ys := len(sw.inv)
	if ys > maxPrefixSymmetries {
		return true
	}
	symQ := w.relabellings()
	withZ := ys*(len(symQ)+1) <= maxPrefixSymmetries
	for zi := -1; zi < len(symQ); zi++ {
		if zi >= 0 && !withZ {
			break
		}
		for k := 0; k < ys; {
			inv := sw.inv[k]
			r := 0
			for ; r < w.n; r++ {
				src, dst := rows[inv[r]], rows[r]
				if src == 0 || dst == 0 {
					break
				}
				if zi >= 0 {
					src = symQ[zi][0][src&0xff] | symQ[zi][1][src>>8]
				}
				if src != dst {
					if src < dst {
						return false
					}
					break
				}
			}
			if r < w.n {
				k = int(sw.next[k*w.n+r])
			} else {
				k++
			}
		}
	}
	return true
}

// symmetryPair is a symmetry X ↦ z∘X∘y⁻¹ of canonical's group: y a row
// permutation, z a relabelling as byte tables (nil: the identity).
type symmetryPair struct {
	y []int
	z *[2][256]uint16
}

// secondCanonical is canonical for the second stack cycle's configuration
// (its representative's row sets) under stab0, the symmetries that fix the
// first cycle's: whether it is the least of its images, and the size of
// its orbit. They carry the grids counted under the pair of
// configurations onto those under the image pair, so the sum over the
// second cycle's configurations is the sum over the least ones weighted
// by their orbits (the first cycle's weight counts the orbit of the
// first alone).
func (w *walker) secondCanonical(rows []uint16) (uint64, bool) {
	if w.charge(uint64(len(w.stab0)) / 8) {
		return 0, false
	}
	if len(w.symRows) != w.n {
		w.symRows = make([]uint16, w.n)
	}
	img := w.symRows
	var stab uint64
	for _, sp := range w.stab0 {
		for r, m := range rows {
			if sp.z != nil {
				m = sp.z[0][m&0xff] | sp.z[1][m>>8]
			}
			img[sp.y[r]] = m
		}
		for r := range w.n {
			if img[r] != rows[r] {
				if img[r] < rows[r] {
					return 0, false
				}
				break
			}
			if r == w.n-1 {
				stab++
			}
		}
	}
	group := uint64(len(w.stab0))
	if stab == 0 || group%stab != 0 {
		w.err = fmt.Errorf("stackjoin: a stabiliser of order %d in a group of order %d", stab, group)
		return 0, false
	}
	return group / stab, true
}

// stackCount returns E_{h,τ}(rows) for the representative of stack cycle ci
// (h = (ρ^ℓ, κ^ℓ), τ = σ^ℓ) by package stackcount; false when the work passed the
// budget, the context ended or a count overflowed (w.err says which).
func (w *walker) stackCount(ci int, rows []uint16) (uint64, bool) {
	if w.opt.plainE {
		return w.stackCountPlain(ci, rows)
	}
	if w.twists[ci] == nil {
		p := w.p
		w.twists[ci] = stackcount.New(w.n, w.c, p.twistRho[ci], p.twistKap[ci], w.tauCycles[ci])
	}
	e, err := w.twists[ci].Count(rows, func(states int) error {
		w.st.DPStates += uint64(states)
		w.charge(0)
		return w.err
	})
	if err != nil {
		w.err = err
		return 0, false
	}
	if w.opt.checkE {
		if e2, ok2 := w.stackCountPlain(ci, rows); ok2 && e2 != e {
			w.err = fmt.Errorf("stackjoin: stack cycle %d, rows %x: E = %d, the plain programme %d", ci, rows, e, e2)
			return 0, false
		}
	}
	return e, true
}

// stackCountPlain is stackCount by the dynamic programme of the package
// documentation without reductions: the states in Go maps, the τ-cycles in
// symbol order. The tests compare it with stackcount.Twist.Count.
func (w *walker) stackCountPlain(ci int, rows []uint16) (uint64, bool) {
	n, c := w.n, w.c
	rho, kap := w.p.twistRho[ci], w.p.twistKap[ci]
	l := w.p.twistPow[ci]
	tau := make([]int, n)
	for v := range n {
		x := v
		for range l {
			x = w.sigma[x]
		}
		tau[v] = x
	}
	perms := perm.All(c)
	states := map[uint64]uint64{0: 1}
	seen := make([]bool, n)
	for x0 := range n {
		if seen[x0] {
			continue
		}
		var cyc []int
		for x := x0; !seen[x]; x = tau[x] {
			seen[x] = true
			cyc = append(cyc, x)
		}
		m := len(cyc)
		var rx []int
		for r := range n {
			if rows[r]>>x0&1 != 0 {
				rx = append(rx, r)
			}
		}
		if len(rx) != c {
			return 0, true
		}
		// after[i]: the index of ρ'^m(rx[i]) in rx.
		after := make([]int, c)
		for i, r := range rx {
			y := r
			for range m {
				y = rho[y]
			}
			after[i] = -1
			for j, r2 := range rx {
				if r2 == y {
					after[i] = j
				}
			}
			if after[i] < 0 {
				return 0, true
			}
		}
		var moves []uint64
	perms:
		for _, b := range perms {
			for i := range c {
				y := b[i]
				for range m {
					y = kap[y]
				}
				if b[after[i]] != y {
					continue perms
				}
			}
			var pm uint64
			for i := range c {
				r, col := rx[i], b[i]
				for range m {
					bit := uint64(1) << (col*n + r)
					if pm&bit != 0 {
						continue perms
					}
					pm |= bit
					r, col = rho[r], kap[col]
				}
			}
			moves = append(moves, pm)
		}
		next := make(map[uint64]uint64, len(states))
		for st, cnt := range states {
			for _, pm := range moves {
				if st&pm != 0 {
					continue
				}
				v, carry := bits.Add64(next[st|pm], cnt, 0)
				if carry != 0 {
					w.err = fmt.Errorf("stackjoin: a stack count passed 64 bits")
					return 0, false
				}
				next[st|pm] = v
			}
		}
		w.st.DPStates += uint64(len(states))
		if w.charge(0) {
			return 0, false
		}
		states = next
		if len(states) == 0 {
			return 0, true
		}
	}
	var e uint64
	for _, cnt := range states {
		e += cnt // one state: every cell placed
	}
	return e, true
}
