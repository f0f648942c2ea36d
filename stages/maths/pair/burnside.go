package pair

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// NumOrbits returns the number of orbits of B_c on the pattern multisets of
// c, by Burnside's lemma: the mean over the group of the number of
// multisets each element fixes. An element g fixes T exactly when T gives
// the same multiplicity to every pattern of a cycle of g, so the fixed
// multisets are counted by a dynamic programme over the cycles of g on the
// 2^c patterns (choose a multiplicity k per cycle; the cycle then adds k·len
// patterns and k·(its number of patterns with bit i) to the ones of bit i),
// keeping the number of patterns so far and the ones per bit. The count
// depends only on g's conjugacy class, which is given by the cycles of π
// with, for each, the parity of the complemented bits on it (65 classes for
// c = 6), so one element per class is evaluated. It takes a few seconds for
// c = 6.
func NumOrbits(ctx context.Context, c int) (*big.Int, error) {
	fix, err := burnside(ctx, c)
	if err != nil {
		return nil, err
	}
	q, r := new(big.Int).QuoRem(fix, new(big.Int).SetUint64(groupFor(c).order()), new(big.Int))
	if r.Sign() != 0 {
		return nil, fmt.Errorf("pair: Burnside sum %v not divisible by |B_%d|", fix, c)
	}
	return q, nil
}

// NumMultisets returns the number of pattern multisets of c (the multisets
// fixed by the identity).
func NumMultisets(ctx context.Context, c int) (uint64, error) {
	if err := pairstacks.CheckC(c); err != nil {
		return 0, err
	}
	return fixedMultisets(ctx, c, groupFor(c).perms[0], 0)
}

// burnside returns Σ_g (multisets fixed by g).
func burnside(ctx context.Context, c int) (*big.Int, error) {
	if err := pairstacks.CheckC(c); err != nil {
		return nil, err
	}
	g := groupFor(c)
	perms := permutations(c) // same order as g.perms
	type class struct {
		k    int    // index into g.perms of a representative
		m    uint8  // its complement mask
		size uint64 // elements in the class
	}
	classes := map[string]*class{}
	var keys []string
	for k, pi := range perms {
		for m := range uint8(1) << c {
			// signed cycle type of (π, m)
			var typ []int
			var done uint
			for i := range c {
				if done>>i&1 == 1 {
					continue
				}
				length, parity := 0, 0
				for j := i; done>>j&1 == 0; j = pi[j] {
					done |= 1 << j
					length++
					parity ^= int(m >> j & 1)
				}
				typ = append(typ, 2*length+parity)
			}
			slices.Sort(typ)
			key := fmt.Sprint(typ)
			cl, ok := classes[key]
			if !ok {
				cl = &class{k: k, m: m}
				classes[key] = cl
				keys = append(keys, key)
			}
			cl.size++
		}
	}
	total := new(big.Int)
	term := new(big.Int)
	for _, key := range keys {
		cl := classes[key]
		f, err := fixedMultisets(ctx, c, g.perms[cl.k], cl.m)
		if err != nil {
			return nil, err
		}
		term.SetUint64(f)
		total.Add(total, term.Mul(term, new(big.Int).SetUint64(cl.size)))
	}
	return total, nil
}

// fixedMultisets returns the number of pattern multisets of c fixed by
// p ↦ perm[p] ⊕ m.
func fixedMultisets(ctx context.Context, c int, perm []uint8, m uint8) (uint64, error) {
	n := 2 * c
	// Cycles of the element on patterns: length and ones per bit.
	type cycle struct {
		length int
		ones   [MaxC]int
	}
	var cycles []cycle
	var done uint64
	for p := range 1 << c {
		if done>>p&1 == 1 {
			continue
		}
		var cy cycle
		for q := uint8(p); done>>q&1 == 0; q = perm[q] ^ m {
			done |= 1 << q
			cy.length++
			for i := range c {
				cy.ones[i] += int(q >> i & 1)
			}
		}
		cycles = append(cycles, cy)
	}
	// Dense table over states (patterns so far, ones per bit), indexed in
	// mixed radix: ones_i in base c+1, the count of patterns above them.
	// Adding a cycle with multiplicity k is an unbounded knapsack step:
	// walking the states upwards, dp[s + δ] += dp[s] takes k = 1, 2, … at once.
	base := c + 1
	stride := 1 // states per value of the size digit
	for range c {
		stride *= base
	}
	dp := make([]uint64, (n+1)*stride)
	dp[0] = 1
	var digits [MaxC]int
	for _, cy := range cycles {
		if err := ctx.Err(); err != nil { // a pass takes milliseconds
			return 0, err
		}
		delta := cy.length * stride
		d := 0
		for i := c - 1; i >= 0; i-- {
			d = d*base + cy.ones[i]
		}
		delta += d
		digits = [MaxC]int{}
		size := 0
		for s := range dp {
			if s > 0 { // advance the odometer to state s
				for i := 0; ; i++ {
					if i == c {
						size++
						break
					}
					digits[i]++
					if digits[i] < base {
						break
					}
					digits[i] = 0
				}
			}
			if dp[s] == 0 || size+cy.length > n {
				continue
			}
			ok := true
			for i := range c {
				if digits[i]+cy.ones[i] > c {
					ok = false
					break
				}
			}
			if ok {
				dp[s+delta] += dp[s]
			}
		}
	}
	return dp[len(dp)-1], nil
}
