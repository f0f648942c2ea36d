package symmetry

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// Power returns e^k (k ≥ 0), e applied k times.
func (e Element) Power(k int) Element {
	n := len(e.Rows)
	p := e.CellPerm(n)
	q := perm.Identity(n * n)
	for range k {
		q = perm.Compose(p, q)
	}
	// Read the rows and columns back from the images of the first column
	// and the first row: a transposed image sends row 0 into a column.
	out := Element{Rows: make([]int, n), Cols: make([]int, n)}
	out.Transpose = n > 1 && q[0]%n == q[1]%n
	for i := range n {
		ri, ci := q[i*n], q[i]
		if out.Transpose {
			out.Rows[i], out.Cols[i] = ri%n, ci/n
		} else {
			out.Rows[i], out.Cols[i] = ri/n, ci%n
		}
	}
	return out
}

// ClassOf returns the index of the class of g that holds e.
func (g *Group) ClassOf(e Element) (int, error) {
	if err := e.Check(g.Shape); err != nil {
		return 0, err
	}
	if e.Transpose && !g.Transpose {
		return 0, fmt.Errorf("symmetry: %v has no transposition, the element has", g.Shape)
	}
	i, ok := g.byKey[g.classKey(e)]
	if !ok {
		return 0, fmt.Errorf("symmetry: internal error: no class of %v for %s", g.Shape, e.Describe(g.Shape))
	}
	return i, nil
}

// classKey names the class of e by its invariants (see the package
// comment): the wreath types of its row and column parts, unordered when
// transposition is in the group, or "transposed" and the type of ρ∘κ.
func (g *Group) classKey(e Element) string {
	if e.Transpose {
		return "transposed " + g.rows.typeLabel(perm.Compose(e.Rows, e.Cols))
	}
	a, b := g.rows.typeLabel(e.Rows), g.cols.typeLabel(e.Cols)
	if g.Transpose && b < a {
		a, b = b, a // (ρ, κ) and (κ, ρ) are conjugate by the transposition
	}
	return a + " | " + b
}

// typeLabel returns the label of the type of p, an element of the wreath
// product: for each cycle of the block permutation, its length and the
// cycle type of its cycle product, the p^ℓ of its first block on itself.
func (w *wreath) typeLabel(p []int) string {
	top := make([]int, w.k)
	for i := range w.k {
		top[i] = p[i*w.m] / w.m
	}
	seen := make([]bool, w.k)
	var t wreathTyp
	for i := range w.k {
		if seen[i] {
			continue
		}
		l := 0
		for j := i; !seen[j]; j = top[j] {
			seen[j] = true
			l++
		}
		h := make([]int, w.m)
		for x := range w.m {
			y := i*w.m + x
			for range l {
				y = p[y]
			}
			h[x] = y - i*w.m
		}
		mu := slices.IndexFunc(w.parts, func(q []int) bool { return slices.Equal(q, perm.CycleType(h)) })
		t = append(t, wreathPart{l, mu})
	}
	slices.SortFunc(t, func(a, b wreathPart) int {
		if a.l != b.l {
			return a.l - b.l
		}
		return a.mu - b.mu
	})
	return w.label(t)
}

// CheckPowers checks fixed counts against the cyclic subgroups: for every
// class g, ⟨g⟩ × S_N acts on the grids, and by Burnside's lemma its number
// of orbits is Σ_{k < ord(g)} F(g^k) / ord(g), an integer. fixed[i] is F of
// class i. An error in one F(g) that is not a multiple of ord(g) fails the
// check of g itself.
func (g *Group) CheckPowers(fixed []*big.Int) error {
	if len(fixed) != len(g.Classes) {
		return fmt.Errorf("symmetry: %d fixed counts for the %d classes of %v", len(fixed), len(g.Classes), g.Shape)
	}
	for _, c := range g.Classes {
		sum := new(big.Int)
		for k := range c.Order {
			i, err := g.ClassOf(c.Rep.Power(k))
			if err != nil {
				return err
			}
			sum.Add(sum, fixed[i])
		}
		if new(big.Int).Mod(sum, big.NewInt(int64(c.Order))).Sign() != 0 {
			return fmt.Errorf("symmetry: %v class %d (%s): the fixed counts of its powers sum to %v, not a multiple of its order %d, so some fixed count is wrong",
				g.Shape, c.Index, c.Desc, sum, c.Order)
		}
	}
	return nil
}
