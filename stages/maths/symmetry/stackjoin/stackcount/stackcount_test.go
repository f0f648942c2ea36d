package stackcount

import (
	"math/rand/v2"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// TestCountMatchesBruteForce compares Count for the identity twist with
// every assignment of columns on random 6×3 stacks (boxes of 2 rows, 3
// bands): each symbol a bijection from its three rows to the columns, each
// row's symbols in distinct columns. The package stackjoin tests compare
// the twisted counts with a plain programme.
func TestCountMatchesBruteForce(t *testing.T) {
	const n, r, c = 6, 2, 3
	rng := rand.New(rand.NewPCG(7, 8))
	id := perm.Identity(n)
	var tauCycles [][]int
	for x := range n {
		tauCycles = append(tauCycles, []int{x})
	}
	tw := New(n, c, id, perm.Identity(c), tauCycles)
	nonzero := 0
	for range 40 {
		rows := make([]uint16, n)
		for b := range c {
			p := rng.Perm(n)
			for j := range r {
				for _, x := range p[j*c : j*c+c] {
					rows[b*r+j] |= 1 << x
				}
			}
		}
		layers := 0
		got, err := tw.Count(rows, func(int) error { layers++; return nil })
		if err != nil {
			t.Fatal(err)
		}
		if layers == 0 {
			t.Fatal("Count never called layer")
		}
		// rowsOf[x]: x's row in each band
		var rowsOf [n][c]int
		for i, m := range rows {
			for x := range n {
				if m>>x&1 != 0 {
					rowsOf[x][i/r] = i
				}
			}
		}
		bijs := perm.All(c)
		want := uint64(0)
		choice := make([]int, n)
		for {
			var used [n][c]bool
			ok := true
			for x := range n {
				for b, col := range bijs[choice[x]] {
					row := rowsOf[x][b]
					if used[row][col] {
						ok = false
					}
					used[row][col] = true
				}
			}
			if ok {
				want++
			}
			i := 0
			for ; i < n; i++ {
				if choice[i]++; choice[i] < len(bijs) {
					break
				}
				choice[i] = 0
			}
			if i == n {
				break
			}
		}
		if got != want {
			t.Fatalf("rows %x: Count %d, brute force %d", rows, got, want)
		}
		if want > 0 {
			nonzero++
		}
	}
	if nonzero < 10 {
		t.Errorf("only %d of 40 stacks with a colouring", nonzero)
	}
}
