package symmetry

import (
	"context"
	"fmt"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// MaxCanonicalSide is the largest side CountByCanonicalForms takes: 6×6 has
// 39,168 grids with a given first row and 3,456 symmetries, 9×9 far too
// many.
const MaxCanonicalSide = 6

// CountByCanonicalForms counts the essentially different grids of shape s
// without Burnside's lemma and without the conjugacy classes: every grid is
// a relabelling of exactly one grid whose first row reads 0, 1, …, N−1; it
// lists those, maps each through every element of G (built here by
// composing band, row, stack and column permutations, and transposition
// when asked), relabels each image so that its first row reads 0, …, N−1
// again, and keeps the smallest in reading order. Two grids are
// essentially the same exactly when these smallest images are equal, so
// their number is the answer. It shares no counting code with the
// fixed-grid counts (packages search and stacks).
func CountByCanonicalForms(ctx context.Context, s Shape, transpose bool) (int64, error) {
	if err := s.Check(); err != nil {
		return 0, err
	}
	n := s.N()
	if n > MaxCanonicalSide {
		return 0, fmt.Errorf("symmetry: canonical forms of %v: sides up to %d", s, MaxCanonicalSide)
	}
	if transpose && s.R != s.C {
		return 0, fmt.Errorf("symmetry: transposition needs square boxes, shape is %v", s)
	}
	// Every element of G as a map from image cell to source cell: the
	// image of X is Y with Y[i] = X[src[i]].
	rowPerms := wreathElements(s.R, s.C)
	colPerms := wreathElements(s.C, s.R)
	flips := []bool{false}
	if transpose {
		flips = append(flips, true)
	}
	var sources [][]int
	for _, rp := range rowPerms {
		for _, cp := range colPerms {
			for _, t := range flips {
				src := make([]int, n*n)
				for r := range n {
					for c := range n {
						if t {
							src[r*n+c] = rp[c]*n + cp[r]
						} else {
							src[r*n+c] = rp[r]*n + cp[c]
						}
					}
				}
				sources = append(sources, src)
			}
		}
	}
	seen := map[string]bool{}
	best := make([]byte, n*n)
	img := make([]byte, n*n)
	relabel := make([]byte, n)
	var err error
	eachGrid(s, func(x []byte) bool {
		if err = ctx.Err(); err != nil {
			return false
		}
		for k, src := range sources {
			for c := range n {
				relabel[x[src[c]]] = byte(c)
			}
			// Fill the image cell by cell, stopping as soon as it reads
			// larger than the best so far.
			less := k == 0
			for i := range n * n {
				img[i] = relabel[x[src[i]]]
				if !less {
					if img[i] > best[i] {
						break
					}
					if img[i] < best[i] {
						less = true
					}
				}
			}
			if less {
				copy(best, img)
			}
		}
		seen[string(best)] = true
		return true
	})
	if err != nil {
		return 0, err
	}
	return int64(len(seen)), nil
}

// wreathElements returns every permutation of the m·k lines that permutes
// the k blocks of m consecutive lines and the lines inside each block: as
// src maps, line i of the image is line p[i] of the source.
func wreathElements(m, k int) [][]int {
	inner := perm.All(m)
	var out [][]int
	var build func(blocks []int, b int, p []int)
	build = func(blocks []int, b int, p []int) {
		if b == k {
			out = append(out, append([]int(nil), p...))
			return
		}
		for _, q := range inner {
			for j := range m {
				p[b*m+j] = blocks[b]*m + q[j]
			}
			build(blocks, b+1, p)
		}
	}
	for _, blocks := range perm.All(k) {
		build(blocks, 0, make([]int, m*k))
	}
	return out
}

// eachGrid calls f with every grid of shape s whose first row reads 0, 1,
// …, N−1 (cells in reading order, symbols 0 … N−1), until f returns false.
func eachGrid(s Shape, f func(x []byte) bool) {
	n := s.N()
	x := make([]byte, n*n)
	var row, col, box []uint32
	row, col, box = make([]uint32, n), make([]uint32, n), make([]uint32, n)
	boxOf := func(i int) int { r, c := i/n, i%n; return (r/s.R)*s.R + c/s.C }
	put := func(i int, v byte, on bool) {
		bit := uint32(1) << v
		if on {
			row[i/n] |= bit
			col[i%n] |= bit
			box[boxOf(i)] |= bit
		} else {
			row[i/n] &^= bit
			col[i%n] &^= bit
			box[boxOf(i)] &^= bit
		}
	}
	for c := range n {
		x[c] = byte(c)
		put(c, byte(c), true)
	}
	stop := false
	var fill func(i int)
	fill = func(i int) {
		if stop {
			return
		}
		if i == n*n {
			stop = !f(x)
			return
		}
		used := row[i/n] | col[i%n] | box[boxOf(i)]
		for v := range n {
			if used>>v&1 == 0 {
				x[i] = byte(v)
				put(i, byte(v), true)
				fill(i + 1)
				put(i, byte(v), false)
			}
		}
	}
	fill(n)
}
