// Package reduce is the stage that applies the lexicographic reduction of
// Felgenhauer and Jarvis to every band: the columns of B2 and of B3 are
// sorted by their top-row digits, then B2 and B3 are exchanged if B3's top
// row comes first. Each of the 36,288 reduced bands stands for 72 bands
// with the same number of completions to a grid.
package reduce

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/sudoku"
)

// Stage writes data/reduced.parquet from data/bands.parquet.
var Stage = &pipeline.Stage{
	Name:      "reduce",
	Doc:       "lexicographic reduction of the bands (36,288 × 72)",
	Version:   1,
	Requires:  []*pipeline.Stage{bands.Stage},
	NewConfig: func() pipeline.Config { return &Config{SwapBlocks: true} },
	Outputs:   []pipeline.Output{Table.Output},
	Run:       run,
}

// Table is data/reduced.parquet.
var Table = pipeline.NewTable[Row]("reduced",
	"one row per lexicographically reduced band, in dictionary order of its 27 digits")

// Row is one reduced band: id is its 0-based place in dictionary order,
// multiplicity the number of bands that reduce to it.
type Row struct {
	ID           int32  `parquet:"id"`
	Row1         string `parquet:"row1"`
	Row2         string `parquet:"row2"`
	Row3         string `parquet:"row3"`
	Multiplicity int32  `parquet:"multiplicity"`
}

// Band parses the row's band and checks it is valid with canonical B1.
func (r Row) Band() (sudoku.Band, error) {
	return bands.Row{Row1: r.Row1, Row2: r.Row2, Row3: r.Row3}.Band()
}

// Config is the reduce stage's configuration (keys under "reduce.").
type Config struct {
	// SwapBlocks is the second step of the reduction, exchanging B2 and B3;
	// without it 72,576 bands of multiplicity 36 remain.
	SwapBlocks bool `mapstructure:"swap_blocks" json:"swap_blocks"`
}

// Validate accepts every value: both settings are meaningful.
func (c *Config) Validate() error { return nil }

// Reduce maps every band to its reduction (only the column sort when
// swapBlocks is false) and returns the distinct results in dictionary order
// with the number of bands reducing to each. The bands are split between
// the CPUs in contiguous chunks and the counts merged afterwards, so the
// result does not depend on GOMAXPROCS.
func Reduce(bs []sudoku.Band, swapBlocks bool) (reduced []sudoku.Band, multiplicity []int) {
	workers := max(1, min(runtime.GOMAXPROCS(0), len(bs)/65536))
	counts := make([]map[sudoku.Key]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(bs)/workers, (w+1)*len(bs)/workers
		wg.Go(func() {
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
		})
	}
	wg.Wait()
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
	return reduced, multiplicity
}

// ParseBands parses bands.parquet's rows, split between the CPUs; the
// first bad row (in row order) is the error.
func ParseBands(rows []bands.Row) ([]sudoku.Band, error) {
	bs := make([]sudoku.Band, len(rows))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(rows)/65536))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(rows)/workers, (w+1)*len(rows)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				b, err := rows[i].Band()
				if err != nil {
					errs[w] = fmt.Errorf("bands.parquet row %d: %w", i, err)
					return
				}
				bs[i] = b
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return bs, nil
}

func run(p *pipeline.Pass) error {
	cfg := pipeline.ConfigOf[Config](p)
	in, err := bands.Table.Read(p)
	if err != nil {
		return err
	}
	bs, err := ParseBands(in)
	if err != nil {
		return err
	}
	start := time.Now()
	reduced, mult := Reduce(bs, cfg.SwapBlocks)
	p.Report("reduce_seconds", time.Since(start).Seconds())
	rows := make([]Row, len(reduced))
	sum := 0
	for i, b := range reduced {
		r := b.Rows()
		rows[i] = Row{ID: int32(i), Row1: r[0], Row2: r[1], Row3: r[2], Multiplicity: int32(mult[i])}
		sum += mult[i]
	}
	if sum != len(in) || sum != sudoku.BandCount {
		return fmt.Errorf("reduce: multiplicities sum to %d over %d input bands, want %d", sum, len(in), sudoku.BandCount)
	}
	p.Log.Info("bands reduced", "bands", len(in), "reduced", len(rows), "swap_blocks", cfg.SwapBlocks)
	return Table.Write(p, rows)
}
