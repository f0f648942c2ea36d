package triple

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/stages/maths/triplestacks"
)

// # Symmetries of a gangster
//
// A relabelling μ that maps the representative's bands 0 and 1 each onto
// itself (as partitions; it may permute their rows) and bands 2, … among
// themselves maps completions of the first stack to completions: the second
// and third stacks of a completion go to those of another, with the same
// stack counts. So does exchanging the second and third stacks (a split X ↦
// A − X in every band). The group these generate acts on the pairs (b₀, b₁)
// of splits of bands 0 and 1, and the sum over the splits of the other
// bands is the same along an orbit:
//
//	F(g) = Σ over orbits O of pairs: |O| · Σ_{b₂,…} E(σ₂)·E(σ₃) at a member of O.
//
// Plan lists the orbits' least members and sizes. The exchange alone halves
// the pairs (it has no fixed pair); μ saves more for the 53% of the 3×4
// gangsters whose group is larger (Σ 1/|group| = 99,245 gangsters' worth of
// pairs instead of 144,578).

// Plan is the list of orbit representatives of one gangster's pairs.
type Plan struct {
	Pairs []PairRep
}

// PairRep is an orbit of pairs (splits b0 of band 0 and b1 of band 1) with
// its size.
type PairRep struct {
	B0, B1 int16
	Mult   uint32
}

// NewPlan computes the plan of g.
func (t *Tables) NewPlan(g Gangster) (*Plan, error) {
	s := t.s
	c := t.C
	bands := t.bands(g.Base, g.Key)
	sp0, sp1 := s.SplitsOf(bands[0]), s.SplitsOf(bands[1])
	n0, n1 := len(sp0), len(sp1)
	index := func(sp []triplestacks.Split) map[[3]uint16]int {
		m := make(map[[3]uint16]int, len(sp))
		for i, q := range sp {
			m[q.S] = i
		}
		return m
	}
	ix0, ix1 := index(sp0), index(sp1)
	// The generators as maps on the split indices of bands 0 and 1.
	type gen struct{ m0, m1 []int16 }
	var gens []gen
	cmp := gen{make([]int16, n0), make([]int16, n1)}
	for i, q := range sp0 {
		cmp.m0[i] = int16(ix0[q.B])
	}
	for i, q := range sp1 {
		cmp.m1[i] = int16(ix1[q.B])
	}
	gens = append(gens, cmp)
	act := func(mu *triplestacks.Perm, a [3]uint16, sp []triplestacks.Split, ix map[[3]uint16]int) ([]int16, error) {
		// μ maps row v of the band to row π(v).
		var pi [3]int
		for v := range 3 {
			img := mu.Mask(a[v])
			pi[v] = -1
			for w := range 3 {
				if a[w] == img {
					pi[v] = w
				}
			}
			if pi[v] < 0 {
				return nil, fmt.Errorf("triple: plan: a symmetry moves a band")
			}
		}
		m := make([]int16, len(sp))
		for i, q := range sp {
			var img [3]uint16
			for v := range 3 {
				img[pi[v]] = mu.Mask(q.S[v])
			}
			j, ok := ix[img]
			if !ok {
				return nil, fmt.Errorf("triple: plan: the image of a split is not a split")
			}
			m[i] = int16(j)
		}
		return m, nil
	}
	if c >= 3 {
		p := len(s.Parts())
		st := s.StabOf(g.Base)
		var perr error
		st.Each(func(mu triplestacks.Perm) {
			if perr != nil {
				return
			}
			fixes := false
			switch c {
			case 3:
				fixes = s.ApplyIndex(&mu, g.Key) == g.Key
			case 4:
				x, y := g.Key/p, g.Key%p
				mx, my := s.ApplyIndex(&mu, x), s.ApplyIndex(&mu, y)
				fixes = (mx == x && my == y) || (mx == y && my == x)
			}
			if !fixes || mu == triplestacks.Identity() {
				return
			}
			m0, err := act(&mu, bands[0], sp0, ix0)
			if err != nil {
				perr = err
				return
			}
			m1, err := act(&mu, bands[1], sp1, ix1)
			if err != nil {
				perr = err
				return
			}
			gens = append(gens, gen{m0, m1})
		})
		if perr != nil {
			return nil, perr
		}
	}
	seen := make([]bool, n0*n1)
	var queue []int
	pl := &Plan{}
	for start := range n0 * n1 {
		if seen[start] {
			continue
		}
		seen[start] = true
		queue = append(queue[:0], start)
		size := 0
		for len(queue) > 0 {
			v := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			size++
			b0, b1 := v/n1, v%n1
			for _, gn := range gens {
				w := int(gn.m0[b0])*n1 + int(gn.m1[b1])
				if !seen[w] {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
		pl.Pairs = append(pl.Pairs, PairRep{B0: int16(start / n1), B1: int16(start % n1), Mult: uint32(size)})
	}
	return pl, nil
}

// Part returns the part-th of parts equal slices of the plan's pairs (all of
// them for part < 0): the sub-units of a gangster.
func (pl *Plan) Part(part, parts int) []PairRep {
	if part < 0 {
		return pl.Pairs
	}
	n := len(pl.Pairs)
	return pl.Pairs[part*n/parts : (part+1)*n/parts]
}
