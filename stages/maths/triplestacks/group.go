package triplestacks

// Perm is a permutation of the symbols: p[x] is the image of x under p.
type Perm [maxN]uint8

// Identity returns the permutation that fixes every symbol.
func Identity() Perm {
	var p Perm
	for x := range p {
		p[x] = uint8(x)
	}
	return p
}

// Then returns the permutation "p, then q".
func (p Perm) Then(q Perm) Perm {
	var r Perm
	for x := range r {
		r[x] = q[p[x]]
	}
	return r
}

// Inverse returns p⁻¹.
func (p Perm) Inverse() Perm {
	var r Perm
	for x := range r {
		r[p[x]] = uint8(x)
	}
	return r
}

// Mask returns the image of the symbol set m under p.
func (p *Perm) Mask(m uint16) uint16 {
	var out uint16
	for ; m != 0; m &= m - 1 {
		out |= 1 << p[bitIndex(m)]
	}
	return out
}

// ApplyIndex returns the index of the image of partition i under p.
func (s *Shape) ApplyIndex(p *Perm, i int) int {
	q := &s.parts[i]
	return s.Index(p.Mask(q[0]), p.Mask(q[1]))
}

// Stab is the stabiliser of the frame of a base b: the relabellings that
// map Id onto Id and the frame's second partition onto itself (each as an
// unordered partition). An element moves the cells of the base's matrix by
// a pair of row and column permutations that keep the matrix (an
// automorphism) and the symbols of each cell onto the image cell in any
// order, so |Stab| = |Aut| · Π_ij b_ij!.
type Stab struct {
	s    *Shape
	b    int
	auts []Perm // the cell-moving part of each automorphism (slot k to slot k)
	// cells lists each cell's symbols.
	cells [][]uint8
	gens  []Perm // generators
}

// StabOf returns the stabiliser of the frame of base b.
func (s *Shape) StabOf(b int) *Stab {
	g := &Stab{s: s, b: b}
	m := s.bases[b]
	for i := range 3 {
		for j := range 3 {
			st := s.cellStart(b, i, j)
			var cell []uint8
			for k := range int(m[i][j]) {
				cell = append(cell, uint8(st+k))
			}
			g.cells = append(g.cells, cell)
		}
	}
	for _, rp := range perms3 {
		for _, cp := range perms3 {
			ok := true
			for i := range 3 {
				for j := range 3 {
					if m[rp[i]][cp[j]] != m[i][j] {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			p := Identity()
			for i := range 3 {
				for j := range 3 {
					from, to := s.cellStart(b, i, j), s.cellStart(b, int(rp[i]), int(cp[j]))
					for k := range int(m[i][j]) {
						p[from+k] = uint8(to + k)
					}
				}
			}
			g.auts = append(g.auts, p)
		}
	}
	for _, a := range g.auts[1:] { // auts[0] is the identity (rp = cp = id)
		g.gens = append(g.gens, a)
	}
	for _, cell := range g.cells {
		if len(cell) >= 2 {
			p := Identity()
			p[cell[0]], p[cell[1]] = cell[1], cell[0]
			g.gens = append(g.gens, p)
		}
		if len(cell) >= 3 {
			p := Identity()
			for k := range cell {
				p[cell[k]] = cell[(k+1)%len(cell)]
			}
			g.gens = append(g.gens, p)
		}
	}
	return g
}

// Order returns |Stab|.
func (g *Stab) Order() uint64 {
	o := uint64(len(g.auts))
	for _, cell := range g.cells {
		for k := 2; k <= len(cell); k++ {
			o *= uint64(k)
		}
	}
	return o
}

// Each calls f with every element of the stabiliser.
func (g *Stab) Each(f func(p Perm)) {
	var rec func(ci int, p Perm)
	rec = func(ci int, p Perm) {
		if ci == len(g.cells) {
			for _, a := range g.auts {
				f(p.Then(a))
			}
			return
		}
		cell := g.cells[ci]
		permuteSlice(cell, func(img []uint8) {
			q := p
			for k, x := range cell {
				q[x] = img[k]
			}
			rec(ci+1, q)
		})
	}
	rec(0, Identity())
}

// permuteSlice calls f with every arrangement of xs.
func permuteSlice(xs []uint8, f func([]uint8)) {
	a := append([]uint8(nil), xs...)
	var rec func(k int)
	rec = func(k int) {
		if k == len(a) {
			f(a)
			return
		}
		for i := k; i < len(a); i++ {
			a[k], a[i] = a[i], a[k]
			rec(k + 1)
			a[k], a[i] = a[i], a[k]
		}
	}
	rec(0)
}

// Acts returns, for each generator, its action on the partition indices.
func (g *Stab) Acts() [][]uint16 {
	out := make([][]uint16, len(g.gens))
	for k, p := range g.gens {
		a := make([]uint16, len(g.s.parts))
		for i := range a {
			a[i] = uint16(g.s.ApplyIndex(&p, i))
		}
		out[k] = a
	}
	return out
}

// PartOrbits returns, for every partition index, the least index of its
// orbit under the stabiliser (its representative) and a stabiliser element
// that maps the partition to it.
func (g *Stab) PartOrbits() (rep []uint16, to []Perm) {
	n := len(g.s.parts)
	rep = make([]uint16, n)
	to = make([]Perm, n)
	seen := make([]bool, n)
	acts := g.Acts()
	var queue []int
	for r := range n {
		if seen[r] {
			continue
		}
		seen[r] = true
		rep[r], to[r] = uint16(r), Identity()
		queue = append(queue[:0], r)
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for k, a := range acts {
				w := int(a[v])
				if seen[w] {
					continue
				}
				seen[w] = true
				rep[w] = uint16(r)
				// w = gen_k(v), so gen_k⁻¹ then to[v] maps w to r.
				to[w] = g.gens[k].Inverse().Then(to[v])
				queue = append(queue, w)
			}
		}
	}
	return rep, to
}
