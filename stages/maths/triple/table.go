package triple

import (
	"context"
	"fmt"
	"math"

	"github.com/sudoku-census/sudoku-census/stages/maths/triplestacks"
)

// Tables holds, for boxes 3 × C, the stack counts E of every configuration
// whose first two bands are the frame of a base, and the classes of first
// stacks (the work units).
//
// A configuration σ (one partition per band) whose bands 0 and 1 form the
// base b is relabelled so that they become the frame (Id, B_b) of b
// (triplestacks.Shape.Normalise); its other bands then become partitions
// with indices p_2, …, p_{C-1}, the key of σ in slice b. E[b][key] is E of the relabelled
// configuration, which equals E(σ) since relabelling maps stacks to stacks.
// Keys are p_2 for C = 3 and p_2·P + p_3 for C = 4 (P partitions); for
// C = 2 each slice has one key, 0.
type Tables struct {
	C         int
	s         *triplestacks.Shape
	E         [][]uint32 // by base, by key
	Gangsters []Gangster
	Orbits    int // orbits of keys (stack counts computed)
}

// Gangster is a class of first stacks: the multisets of C partitions (one
// per band) that relabelling maps onto each other. Its representative's
// bands 0 and 1 are the frame of Base and its others the partitions of Key;
// Weight is the number of labelled first stacks (bands, rows within bands
// and symbols all labelled) in the class, and E their stack count.
type Gangster struct {
	Base   int
	Key    int
	E      uint64
	Weight uint64
}

func (t *Tables) keysPerSlice() int {
	p := len(t.s.Parts())
	switch t.C {
	case 2:
		return 1
	case 3:
		return p
	default:
		return p * p
	}
}

// bands returns the C partitions of key in slice b (band order 0, 1, …).
func (t *Tables) bands(b, key int) [][3]uint16 {
	id, q := t.s.Frame(b)
	out := [][3]uint16{id, q}
	p := len(t.s.Parts())
	switch t.C {
	case 3:
		out = append(out, t.s.Parts()[key])
	case 4:
		out = append(out, t.s.Parts()[key/p], t.s.Parts()[key%p])
	}
	return out
}

// gangsterSplits returns the splits of each band of g's representative
// between the second and third stacks, and its last band.
func (t *Tables) gangsterSplits(g Gangster) (sp [][]triplestacks.Split, last *triplestacks.Partition) {
	bands := t.bands(g.Base, g.Key)
	sp = make([][]triplestacks.Split, t.C)
	for i := range t.C {
		sp[i] = t.s.SplitsOf(bands[i])
	}
	return sp, (*triplestacks.Partition)(&bands[t.C-1])
}

// BuildTables computes every slice's stack counts, one per orbit of keys
// under the slice's stabiliser (and the exchange of bands 2 and 3), and the
// gangsters: a class of first stacks is listed in the slice of the least
// base among its ordered pairs of bands, at the least key among the keys
// those pairs give.
func BuildTables(ctx context.Context, c int) (*Tables, error) {
	s := triplestacks.ShapeFor(c)
	t := &Tables{C: c, s: s, E: make([][]uint32, s.NumBases())}
	nk := t.keysPerSlice()
	p := len(s.Parts())
	orbit := make([]int32, nk) // orbit number within the slice, -1 unseen
	var sc triplestacks.StackCounter
	var queue []int
	for b := range s.NumBases() {
		g := s.StabOf(b)
		acts := g.Acts()
		e := make([]uint32, nk)
		for i := range orbit {
			orbit[i] = -1
		}
		// generators acting on keys
		step := func(key int, f func(int)) {
			switch c {
			case 2:
			case 3:
				for _, a := range acts {
					f(int(a[key]))
				}
			case 4:
				x, y := key/p, key%p
				for _, a := range acts {
					f(int(a[x])*p + int(a[y]))
				}
				f(y*p + x)
			}
		}
		n := int32(0)
		for key := range nk {
			if orbit[key] >= 0 {
				continue
			}
			if n&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			bands := t.bands(b, key)
			v := sc.Count(c, bands)
			if v > math.MaxUint32 {
				return nil, fmt.Errorf("triple: stack count %d does not fit 32 bits", v)
			}
			orbit[key] = n
			e[key] = uint32(v)
			queue = append(queue[:0], key)
			for len(queue) > 0 {
				k := queue[len(queue)-1]
				queue = queue[:len(queue)-1]
				step(k, func(k2 int) {
					if orbit[k2] < 0 {
						orbit[k2] = n
						e[k2] = uint32(v)
						queue = append(queue, k2)
					}
				})
			}
			if gw, ok := t.gangster(b, key, orbit, n, g); ok {
				t.Gangsters = append(t.Gangsters, Gangster{Base: b, Key: key, E: v, Weight: gw})
			}
			n++
		}
		t.E[b] = e
		t.Orbits += int(n)
	}
	return t, nil
}

// gangster reports whether the orbit n of key in slice b is where its class
// of first stacks is listed (see BuildTables), and if so the class's
// weight.
func (t *Tables) gangster(b, key int, orbit []int32, n int32, g *triplestacks.Stab) (uint64, bool) {
	s := t.s
	c := t.C
	bands := t.bands(b, key)
	var r triplestacks.Relabel
	var auts uint64
	p := len(s.Parts())
	for _, ord := range orderings(c) {
		i, j := ord[0], ord[1]
		bb := s.BaseOf(&bands[i], &bands[j])
		if bb < b {
			return 0, false
		}
		if bb > b {
			continue
		}
		s.Normalise(&bands[i], &bands[j], &r)
		k2 := 0
		switch c {
		case 3:
			k2 = s.Apply(&r, (*triplestacks.Partition)(&bands[ord[2]]))
		case 4:
			k2 = s.Apply(&r, (*triplestacks.Partition)(&bands[ord[2]]))*p + s.Apply(&r, (*triplestacks.Partition)(&bands[ord[3]]))
		}
		if orbit[k2] >= 0 && orbit[k2] < n {
			return 0, false // listed at an earlier orbit of the slice
		}
		// Count the relabellings mapping band ord[k] to band k for all k:
		// r⁻¹ maps (Id, B_b) to (bands[i], bands[j]); the others must follow.
		auts += t.countMaps(g, &r, key, k2)
	}
	if auts == 0 {
		panic("triple: a class without its identity")
	}
	w := uint64(1)
	for range c {
		w *= 6 // row orders of each band
	}
	for k := 2; k <= c; k++ {
		w *= uint64(k) // band orders
	}
	for k := 2; k <= 3*c; k++ {
		w *= uint64(k) // relabellings
	}
	if w%auts != 0 {
		panic("triple: automorphisms do not divide the group")
	}
	return w / auts, true
}

// countMaps returns the number of elements μ of the slice's stabiliser that
// map key (the partitions of bands 2, … of the frame configuration) onto k2
// band by band: each gives one relabelling of the class's automorphism group
// with the band permutation in hand.
func (t *Tables) countMaps(g *triplestacks.Stab, r *triplestacks.Relabel, key, k2 int) uint64 {
	s := t.s
	p := len(s.Parts())
	switch t.C {
	case 2:
		return g.Order()
	case 3:
		var n uint64
		g.Each(func(mu triplestacks.Perm) {
			if s.ApplyIndex(&mu, key) == k2 {
				n++
			}
		})
		return n
	default:
		x, y := key/p, key%p
		x2, y2 := k2/p, k2%p
		var n uint64
		g.Each(func(mu triplestacks.Perm) {
			if s.ApplyIndex(&mu, x) == x2 && s.ApplyIndex(&mu, y) == y2 {
				n++
			}
		})
		return n
	}
}

// orderings lists the permutations of the c bands.
func orderings(c int) [][]int {
	var out [][]int
	var rec func(cur []int, used int)
	rec = func(cur []int, used int) {
		if len(cur) == c {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := range c {
			if used>>i&1 == 0 {
				rec(append(cur, i), used|1<<i)
			}
		}
	}
	rec(nil, 0)
	return out
}
