package symmetry

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// Class is one conjugacy class of G.
type Class struct {
	Index int      `json:"index"` // position in Group.Classes; 0 is the identity
	Size  *big.Int `json:"size"`  // number of elements, exact
	Rep   Element  `json:"rep"`   // a representative
	Order int      `json:"order"` // order of the elements of the class
	// Type names the class by its invariants: for an element without
	// transposition, the types of its row part (in S_R wr S_C) and its column
	// part (in S_C wr S_R); for a transposed element (ρ, κ, t), the type of
	// ρ∘κ. A wreath type lists the cycles of the block permutation as
	// ℓ[μ]: cycle length ℓ and cycle type μ of the cycle product, with ^a for
	// a cycles alike.
	Type string `json:"type"`
	Desc string `json:"desc"` // Rep.Describe(shape)
}

// Group is G for one shape, with its conjugacy classes.
type Group struct {
	Shape     Shape    `json:"shape"`
	Transpose bool     `json:"transpose"` // transposition included (R = C only)
	Order     *big.Int `json:"order"`     // |G|
	Classes   []Class  `json:"classes"`   // Σ sizes = Order
}

// NewGroup builds G for shape s, with transposition if transpose is set
// (which needs R = C), and its conjugacy classes, computed from the wreath
// product types (see the package comment). The classes are ordered by
// transposition (without first), then element order, then type, so the
// identity is class 0; the order is the same on every run.
func NewGroup(s Shape, transpose bool) (*Group, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if transpose && s.R != s.C {
		return nil, fmt.Errorf("symmetry: transposition needs square boxes, shape is %v", s)
	}
	n := s.N()
	rows := newWreath(s.R, s.C) // S_R wr S_C on the rows
	cols := newWreath(s.C, s.R) // S_C wr S_R on the columns
	g := &Group{Shape: s, Transpose: transpose, Order: new(big.Int).Mul(rows.order, cols.order)}
	if transpose {
		g.Order.Lsh(g.Order, 1)
	}
	var classes []Class
	add := func(size *big.Int, rep Element, typ string) {
		classes = append(classes, Class{Size: size, Rep: rep, Order: rep.Order(), Type: typ, Desc: rep.Describe(s)})
	}
	for i, a := range rows.types {
		for j, b := range cols.types {
			if transpose && j < i {
				continue // {a, b} and {b, a} are one class
			}
			size := new(big.Int).Mul(rows.sizes[i], cols.sizes[j])
			if transpose && i != j {
				size.Lsh(size, 1)
			}
			add(size, Element{Rows: rows.rep(a), Cols: cols.rep(b)},
				"rows "+rows.label(a)+" | columns "+cols.label(b))
		}
	}
	if transpose {
		for i, k := range rows.types {
			add(new(big.Int).Mul(rows.order, rows.sizes[i]),
				Element{Rows: rows.rep(k), Cols: perm.Identity(n), Transpose: true},
				"transpose, rows∘columns "+rows.label(k))
		}
	}
	slices.SortStableFunc(classes, func(x, y Class) int {
		if x.Rep.Transpose != y.Rep.Transpose {
			if x.Rep.Transpose {
				return 1
			}
			return -1
		}
		return cmp.Compare(x.Order, y.Order)
	})
	for i := range classes {
		classes[i].Index = i
	}
	g.Classes = classes
	sum := new(big.Int)
	for _, c := range classes {
		sum.Add(sum, c.Size)
	}
	if sum.Cmp(g.Order) != 0 || !classes[0].Rep.IsIdentity() {
		return nil, fmt.Errorf("symmetry: internal error: classes of %v sum to %v, not |G| = %v", s, sum, g.Order)
	}
	return g, nil
}

// Class returns class i, with an error when i is out of range.
func (g *Group) Class(i int) (Class, error) {
	if i < 0 || i >= len(g.Classes) {
		return Class{}, fmt.Errorf("symmetry: class %d of %v: there are %d", i, g.Shape, len(g.Classes))
	}
	return g.Classes[i], nil
}

// wreath is S_m wr S_k acting on m·k points, block i being the points
// i·m … i·m+m-1, with its conjugacy class types.
type wreath struct {
	m, k  int
	parts [][]int     // partitions of m: the classes of S_m
	types []wreathTyp // the classes of the wreath product
	sizes []*big.Int  // their sizes
	order *big.Int    // (m!)^k·k!
}

// wreathPart is one cycle of the block permutation: length l, and the index
// into parts of the class of its cycle product.
type wreathPart struct{ l, mu int }

// wreathTyp is a class type: its parts in increasing (l, mu) order.
type wreathTyp []wreathPart

func newWreath(m, k int) *wreath {
	w := &wreath{m: m, k: k, parts: perm.Partitions(m)}
	w.order = new(big.Int).Exp(perm.Factorial(m), big.NewInt(int64(k)), nil)
	w.order.Mul(w.order, perm.Factorial(k))
	var rec func(t wreathTyp, left int, min wreathPart)
	rec = func(t wreathTyp, left int, min wreathPart) {
		if left == 0 {
			w.types = append(w.types, slices.Clone(t))
			return
		}
		for l := min.l; l <= left; l++ {
			mu0 := 0
			if l == min.l {
				mu0 = min.mu
			}
			for mu := mu0; mu < len(w.parts); mu++ {
				p := wreathPart{l, mu}
				rec(append(t, p), left-l, p)
			}
		}
	}
	rec(nil, k, wreathPart{1, 0})
	for _, t := range w.types {
		w.sizes = append(w.sizes, new(big.Int).Quo(w.order, w.centralizer(t)))
	}
	return w
}

// centralizer is the order of the centralizer of an element of type t:
// Π over distinct parts (l, μ) occurring a times of a!·(l·z_μ)^a.
func (w *wreath) centralizer(t wreathTyp) *big.Int {
	z := big.NewInt(1)
	for i := 0; i < len(t); {
		j := i
		for j < len(t) && t[j] == t[i] {
			j++
		}
		a := j - i
		f := new(big.Int).Mul(big.NewInt(int64(t[i].l)), perm.Centralizer(w.parts[t[i].mu]))
		z.Mul(z, f.Exp(f, big.NewInt(int64(a)), nil))
		z.Mul(z, perm.Factorial(a))
		i = j
	}
	return z
}

// rep returns a permutation of type t of the m·k points: the parts take
// consecutive blocks; a part (l, μ) on blocks b … b+l-1 sends block b+i to
// block b+i+1 identically for i < l-1, and block b+l-1 back to block b by
// the permutation of cycle type μ whose cycles are runs of consecutive
// places.
func (w *wreath) rep(t wreathTyp) []int {
	p := make([]int, w.m*w.k)
	b := 0
	for _, part := range t {
		h := perm.WithCycleType(w.parts[part.mu])
		for i := range part.l {
			to := b + i + 1
			for j := range w.m {
				if i == part.l-1 {
					p[(b+i)*w.m+j] = b*w.m + h[j]
				} else {
					p[(b+i)*w.m+j] = to*w.m + j
				}
			}
		}
		b += part.l
	}
	return p
}

// label writes t as "1[1,1,1]^2 3[2,1]".
func (w *wreath) label(t wreathTyp) string {
	var out []string
	for i := 0; i < len(t); {
		j := i
		for j < len(t) && t[j] == t[i] {
			j++
		}
		mu := make([]string, len(w.parts[t[i].mu]))
		for x, v := range w.parts[t[i].mu] {
			mu[x] = strconv.Itoa(v)
		}
		s := fmt.Sprintf("%d[%s]", t[i].l, strings.Join(mu, ","))
		if j-i > 1 {
			s += fmt.Sprintf("^%d", j-i)
		}
		out = append(out, s)
		i = j
	}
	return strings.Join(out, " ")
}
