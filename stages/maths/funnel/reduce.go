package funnel

import (
	"cmp"
	"runtime"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// Reduce maps every band to its reduction (only the column sort when
// swapBlocks is false) and returns the distinct results in dictionary order
// with the number of bands reducing to each. The bands are split between
// the CPUs in contiguous chunks and the counts merged afterwards, so the
// result does not depend on GOMAXPROCS.
func Reduce(bs []sudoku.Band, swapBlocks bool) (reduced []sudoku.Band, multiplicity []int, err error) {
	workers := max(1, min(runtime.GOMAXPROCS(0), len(bs)/65536))
	counts := make([]map[sudoku.Key]int, workers)
	err = parallel.Run(workers, func(w int) error {
		lo, hi := w*len(bs)/workers, (w+1)*len(bs)/workers
		m := make(map[sudoku.Key]int, 1<<16)
		for _, b := range bs[lo:hi] {
			if swapBlocks {
				b = b.LexReduce()
			} else {
				b = b.SortColumns()
			}
			m[b.Key()]++
		}
		counts[w] = m
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	total := counts[0]
	for _, m := range counts[1:] {
		for k, n := range m {
			total[k] += n
		}
	}
	keys := make([]sudoku.Key, 0, len(total))
	for k := range total {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	reduced = make([]sudoku.Band, len(keys))
	multiplicity = make([]int, len(keys))
	for i, k := range keys {
		reduced[i] = k.Band()
		multiplicity[i] = total[k]
	}
	return reduced, multiplicity, nil
}
