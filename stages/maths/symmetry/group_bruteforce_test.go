package symmetry_test

import (
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// This file checks NewGroup's classes against groups built element by
// element, by code that shares nothing with group.go or package perm:
// every method of the symmetry stage takes its g and |class| from
// NewGroup, so an error there would pass two counts that agree. NewGroup
// derives the classes from the wreath products' type formula; here each
// group is generated from a few generators, its conjugacy classes found
// by conjugating with the generators until nothing new appears, and each
// representative looked up. A missing class, two representatives of one
// class, a wrong size or order all fail.

// bruteGroup is a finite permutation group listed in full, with its
// conjugacy classes.
type bruteGroup struct {
	classOf map[string]int // element (one byte per point) → class
	sizes   []int          // class sizes
}

func composeBytes(p, q []byte) []byte { // p∘q: first q, then p
	out := make([]byte, len(q))
	for i, x := range q {
		out[i] = p[x]
	}
	return out
}

func inverseBytes(p []byte) []byte {
	out := make([]byte, len(p))
	for i, x := range p {
		out[x] = byte(i)
	}
	return out
}

// newBruteGroup lists the group the generators generate (breadth first
// from the identity) and splits it into conjugacy classes: since the
// generators generate the group, a set closed under conjugation by each
// of them is closed under conjugation by all.
func newBruteGroup(n int, gens [][]byte) *bruteGroup {
	id := make([]byte, n)
	for i := range id {
		id[i] = byte(i)
	}
	elems := [][]byte{id}
	seen := map[string]bool{string(id): true}
	for i := 0; i < len(elems); i++ {
		for _, g := range gens {
			if y := composeBytes(g, elems[i]); !seen[string(y)] {
				seen[string(y)] = true
				elems = append(elems, y)
			}
		}
	}
	inv := make([][]byte, len(gens))
	for i, g := range gens {
		inv[i] = inverseBytes(g)
	}
	b := &bruteGroup{classOf: make(map[string]int, len(elems))}
	for _, x := range elems {
		if _, done := b.classOf[string(x)]; done {
			continue
		}
		c := len(b.sizes)
		b.classOf[string(x)] = c
		queue := [][]byte{x}
		for j := 0; j < len(queue); j++ {
			for i, g := range gens {
				y := composeBytes(composeBytes(g, queue[j]), inv[i])
				if _, done := b.classOf[string(y)]; !done {
					b.classOf[string(y)] = c
					queue = append(queue, y)
				}
			}
		}
		b.sizes = append(b.sizes, len(queue))
	}
	return b
}

func (b *bruteGroup) order() int { return len(b.classOf) }

// blockGenerators generates the permutations of m·k points that map
// blocks of m consecutive points onto blocks: a transposition and an
// m-cycle inside block 0, a transposition and a k-cycle of whole blocks.
func blockGenerators(m, k int) [][]byte {
	n := m * k
	ident := func() []byte {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(i)
		}
		return p
	}
	var gens [][]byte
	if m > 1 {
		swap, cycle := ident(), ident()
		swap[0], swap[1] = 1, 0
		for j := range m {
			cycle[j] = byte((j + 1) % m)
		}
		gens = append(gens, swap, cycle)
	}
	if k > 1 {
		swap, cycle := ident(), ident()
		for j := range m {
			swap[j], swap[m+j] = byte(m+j), byte(j)
		}
		for i := range n {
			cycle[i] = byte((i/m+1)%k*m + i%m)
		}
		gens = append(gens, swap, cycle)
	}
	return gens
}

func intsToBytes(p []int) []byte {
	out := make([]byte, len(p))
	for i, x := range p {
		out[i] = byte(x)
	}
	return out
}

// orderOf is the least k ≥ 1 with p^k = id.
func orderOf(p []byte) int {
	q := p
	for k := 1; ; k++ {
		fixed := true
		for i, x := range q {
			if int(x) != i {
				fixed = false
				break
			}
		}
		if fixed {
			return k
		}
		q = composeBytes(p, q)
	}
}

func factorialInt(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}

// TestGroupClassesOfNewShapesByElements checks the classes of the shapes
// whose counts are new (2×5, 2×6, 3×4 and transposes) factor by factor: G
// is the row group S_R wr S_C times the column group S_C wr S_R, so its
// classes are the pairs of the factors' classes, each of size the product.
func TestGroupClassesOfNewShapesByElements(t *testing.T) {
	wreaths := map[[2]int]*bruteGroup{}
	wreath := func(m, k int) *bruteGroup {
		if w, ok := wreaths[[2]int{m, k}]; ok {
			return w
		}
		w := newBruteGroup(m*k, blockGenerators(m, k))
		want := factorialInt(k)
		for range k {
			want *= factorialInt(m)
		}
		if w.order() != want {
			t.Fatalf("S_%d wr S_%d: the generators give %d elements, want m!^k·k! = %d", m, k, w.order(), want)
		}
		wreaths[[2]int{m, k}] = w
		return w
	}
	for _, s := range []symmetry.Shape{{R: 2, C: 5}, {R: 5, C: 2}, {R: 2, C: 6}, {R: 6, C: 2}, {R: 3, C: 4}, {R: 4, C: 3}} {
		rows, cols := wreath(s.R, s.C), wreath(s.C, s.R)
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(rows.sizes) * len(cols.sizes); len(g.Classes) != want {
			t.Errorf("%v: %d classes, want %d·%d = %d", s, len(g.Classes), len(rows.sizes), len(cols.sizes), want)
		}
		if want := big.NewInt(int64(rows.order()) * int64(cols.order())); g.Order.Cmp(want) != 0 {
			t.Errorf("%v: |G| = %v, want %v", s, g.Order, want)
		}
		met := map[[2]int]int{}
		for _, c := range g.Classes {
			r, c1 := intsToBytes(c.Rep.Rows), intsToBytes(c.Rep.Cols)
			i, okR := rows.classOf[string(r)]
			j, okC := cols.classOf[string(c1)]
			if !okR || !okC || c.Rep.Transpose {
				t.Fatalf("%v class %d: representative %s is not in G", s, c.Index, c.Desc)
			}
			if prev, dup := met[[2]int{i, j}]; dup {
				t.Errorf("%v: classes %d and %d are one class", s, prev, c.Index)
			}
			met[[2]int{i, j}] = c.Index
			if want := big.NewInt(int64(rows.sizes[i]) * int64(cols.sizes[j])); c.Size.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): size %v, counted %v", s, c.Index, c.Desc, c.Size, want)
			}
			if a, b := orderOf(r), orderOf(c1); c.Order != a/gcd(a, b)*b {
				t.Errorf("%v class %d: order %d, counted lcm(%d, %d)", s, c.Index, c.Order, a, b)
			}
		}
	}
}

// TestGroupClassesByCellPermutations checks whole groups, transposition
// included, on the cells of small grids: there G is generated as
// permutations of the N² cells, so the product structure NewGroup assumes
// is checked too.
func TestGroupClassesByCellPermutations(t *testing.T) {
	for _, c := range []struct {
		s         symmetry.Shape
		transpose bool
	}{{symmetry.Shape{R: 2, C: 2}, true}, {symmetry.Shape{R: 2, C: 3}, false}, {symmetry.Shape{R: 2, C: 4}, false}} {
		s, n := c.s, c.s.N()
		cellPerm := func(e symmetry.Element) []byte {
			p := make([]byte, n*n)
			for r := range n {
				for col := range n {
					to := e.Rows[r]*n + e.Cols[col]
					if e.Transpose {
						to = e.Cols[col]*n + e.Rows[r]
					}
					p[r*n+col] = byte(to)
				}
			}
			return p
		}
		ident := make([]int, n)
		for i := range ident {
			ident[i] = i
		}
		var gens [][]byte
		for _, p := range blockGenerators(s.R, s.C) {
			gens = append(gens, cellPerm(symmetry.Element{Rows: bytesToInts(p), Cols: ident}))
		}
		for _, p := range blockGenerators(s.C, s.R) {
			gens = append(gens, cellPerm(symmetry.Element{Rows: ident, Cols: bytesToInts(p)}))
		}
		if c.transpose {
			gens = append(gens, cellPerm(symmetry.Element{Rows: ident, Cols: ident, Transpose: true}))
		}
		b := newBruteGroup(n*n, gens)
		g, err := symmetry.NewGroup(s, c.transpose)
		if err != nil {
			t.Fatal(err)
		}
		if g.Order.Cmp(big.NewInt(int64(b.order()))) != 0 || len(g.Classes) != len(b.sizes) {
			t.Fatalf("%v: |G| = %v in %d classes, generated %d in %d", s, g.Order, len(g.Classes), b.order(), len(b.sizes))
		}
		met := map[int]int{}
		for _, cl := range g.Classes {
			p := cellPerm(cl.Rep)
			i, ok := b.classOf[string(p)]
			if !ok {
				t.Fatalf("%v class %d: %s is not in G", s, cl.Index, cl.Desc)
			}
			if prev, dup := met[i]; dup {
				t.Errorf("%v: classes %d and %d are one class", s, prev, cl.Index)
			}
			met[i] = cl.Index
			if cl.Size.Cmp(big.NewInt(int64(b.sizes[i]))) != 0 || cl.Order != orderOf(p) {
				t.Errorf("%v class %d (%s): size %v, order %d; generated %d, %d", s, cl.Index, cl.Desc, cl.Size, cl.Order, b.sizes[i], orderOf(p))
			}
		}
		t.Logf("%v: %d elements, %d classes", s, b.order(), len(b.sizes))
	}
}

func bytesToInts(p []byte) []int {
	out := make([]int, len(p))
	for i, x := range p {
		out[i] = int(x)
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
