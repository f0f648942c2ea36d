// Package perm holds the permutation arithmetic that the symmetry packages
// share. A permutation of n points is a []int p of length n with p[i] the
// image of i; a cycle type is a list of cycle lengths, largest first, the
// same as a partition.
package perm

import (
	"math/big"
	"slices"
)

// Identity returns the identity permutation of n points.
func Identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// IsIdentity reports whether p is the identity.
func IsIdentity(p []int) bool {
	for i, x := range p {
		if x != i {
			return false
		}
	}
	return true
}

// Compose returns p∘q: i ↦ p[q[i]].
func Compose(p, q []int) []int {
	out := make([]int, len(q))
	for i, x := range q {
		out[i] = p[x]
	}
	return out
}

// Inverse returns p⁻¹.
func Inverse(p []int) []int {
	out := make([]int, len(p))
	for i, x := range p {
		out[x] = i
	}
	return out
}

// Conjugate returns x∘p∘x⁻¹.
func Conjugate(p, x []int) []int { return Compose(Compose(x, p), Inverse(x)) }

// Power returns p^k, k ≥ 0.
func Power(p []int, k int) []int {
	out := Identity(len(p))
	for range k {
		out = Compose(p, out)
	}
	return out
}

// Cycles returns the cycles of p, each from its least point, in order of
// those points.
func Cycles(p []int) [][]int {
	seen := make([]bool, len(p))
	var out [][]int
	for x0 := range p {
		if seen[x0] {
			continue
		}
		var c []int
		for x := x0; !seen[x]; x = p[x] {
			seen[x] = true
			c = append(c, x)
		}
		out = append(out, c)
	}
	return out
}

// All returns every permutation of 0, …, k−1, in lexicographic order.
func All(k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range All(k - 1) {
		for i := 0; i <= len(p); i++ {
			q := make([]int, 0, k)
			q = append(q, p[:i]...)
			q = append(q, k-1)
			q = append(q, p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// CycleType returns the cycle lengths of p, largest first.
func CycleType(p []int) []int {
	seen := make([]bool, len(p))
	var t []int
	for i := range p {
		if seen[i] {
			continue
		}
		l := 0
		for j := i; !seen[j]; j = p[j] {
			seen[j] = true
			l++
		}
		t = append(t, l)
	}
	slices.Sort(t)
	slices.Reverse(t)
	return t
}

// Order is the order of p: the least common multiple of its cycle lengths.
func Order(p []int) int {
	o := 1
	for _, l := range CycleType(p) {
		o = lcm(o, l)
	}
	return o
}

// PowerType is the cycle type of σ^l for σ of cycle type lam: a cycle of
// length a splits into gcd(a, l) cycles of length a/gcd(a, l).
func PowerType(lam []int, l int) []int {
	var t []int
	for _, a := range lam {
		d := gcd(a, l)
		for range d {
			t = append(t, a/d)
		}
	}
	sortDesc(t)
	return t
}

func sortDesc(t []int) {
	for i := 1; i < len(t); i++ {
		for j := i; j > 0 && t[j] > t[j-1]; j-- {
			t[j], t[j-1] = t[j-1], t[j]
		}
	}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

// Factorial returns n!.
func Factorial(n int) *big.Int {
	f := big.NewInt(1)
	for i := 2; i <= n; i++ {
		f.Mul(f, big.NewInt(int64(i)))
	}
	return f
}

// Partitions returns the partitions of m as non-increasing part lists,
// [1,…,1] first and [m] last.
func Partitions(m int) [][]int {
	var out [][]int
	var rec func(p []int, left, max int)
	rec = func(p []int, left, max int) {
		if left == 0 {
			out = append(out, slices.Clone(p))
			return
		}
		for x := min(left, max); x >= 1; x-- {
			rec(append(p, x), left-x, x)
		}
	}
	rec(nil, m, m)
	slices.Reverse(out)
	return out
}

// Centralizer is z_μ = Π_i i^{b_i}·b_i!, the order of the centralizer in
// S_m of a permutation of cycle type μ (b_i cycles of length i).
func Centralizer(mu []int) *big.Int {
	z := big.NewInt(1)
	count := map[int]int{}
	for _, x := range mu {
		count[x]++
	}
	for x, b := range count {
		f := new(big.Int).Exp(big.NewInt(int64(x)), big.NewInt(int64(b)), nil)
		z.Mul(z, f.Mul(f, Factorial(b)))
	}
	return z
}

// WithCycleType is the permutation of len = Σμ points of cycle type μ
// whose cycles are runs of consecutive points: (0 1 … μ₀-1)(μ₀ …)….
func WithCycleType(mu []int) []int {
	n := 0
	for _, x := range mu {
		n += x
	}
	p := make([]int, n)
	at := 0
	for _, x := range mu {
		for i := range x {
			p[at+i] = at + (i+1)%x
		}
		at += x
	}
	return p
}
