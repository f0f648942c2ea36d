// Package shapes counts Sudoku grids for other box shapes than 3×3: boxes
// of R rows × C columns, side N = R·C. Grids with 2-row or 2-column boxes
// are counted by the pair method (see PairCount), small ones also by
// backtracking as a check, and the classic 3×3 count is taken from the
// exact stage.
package shapes

import (
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// Stage writes data/shapes.parquet.
var Stage = &pipeline.Stage{
	Name:      "shapes",
	Doc:       "the number of grids for each configured box shape RxC",
	Version:   1,
	Requires:  []*pipeline.Stage{exact.Stage},
	NewConfig: func() pipeline.Config { return &Config{Shapes: []string{"2x2", "2x3", "3x2", "2x4", "4x2", "3x3"}} },
	Outputs:   []pipeline.Output{Table.Output},
	Run:       run,
}

// Table is data/shapes.parquet.
var Table = pipeline.NewTable[Row]("shapes", "one row per box shape: its number of grids")

// Row is one box shape. Grids is a decimal string; Method names how it was
// counted.
type Row struct {
	Rows   int32  `parquet:"rows"`
	Cols   int32  `parquet:"cols"`
	Grids  string `parquet:"grids"`
	Method string `parquet:"method"`
}

// Config is the stage's configuration (keys under "shapes.").
type Config struct {
	// Shapes lists the box shapes to count, each "RxC".
	Shapes []string `mapstructure:"shapes" json:"shapes"`
}

// supported lists the shapes the stage counts, in the order error messages
// give them.
const supported = "2x1, 1x2, 2x2, 2x3, 3x2, 2x4, 4x2 (pair method) and 3x3 (from the exact stage); " +
	"2x5, 5x2 and larger are out of reach (the pair method needs 589,392 stack counts of seconds each for 2x5)"

// Validate checks that every shape parses, is supported and is listed once.
func (c *Config) Validate() error {
	if len(c.Shapes) == 0 {
		return pipeline.Invalid("shapes.shapes", "[]", "a non-empty list of box shapes RxC among "+supported)
	}
	seen := map[grid.Shape]bool{}
	for _, text := range c.Shapes {
		s, err := grid.ParseShape(text)
		if err != nil || methodOf(s) == "" {
			return pipeline.Invalid("shapes.shapes", fmt.Sprintf("%q", text), "box shapes RxC among "+supported)
		}
		if seen[s] {
			return pipeline.Invalid("shapes.shapes", fmt.Sprintf("%q", text), "each box shape once")
		}
		seen[s] = true
	}
	return nil
}

// Methods, as written in the method column.
const (
	methodPair        = "pair: sum over stack row-set signatures of (stacks with that signature)^2"
	methodPairChecked = methodPair + "; checked by backtracking"
	methodExact       = "exact stage: band-pair method over the 44 classes of first bands"
	backtrackMaxSide  = 6 // sides up to this are also counted by backtracking
	pairMaxBoxColumns = 4 // widest 2-row box (or tallest 2-column box) allowed
)

// methodOf names the method for shape s, or "" when s is not supported.
func methodOf(s grid.Shape) string {
	switch {
	case s == grid.Shape{R: 3, C: 3}:
		return methodExact
	case (s.R == 2 || s.C == 2) && s.R*s.C <= 2*pairMaxBoxColumns:
		if s.N() <= backtrackMaxSide {
			return methodPairChecked
		}
		return methodPair
	}
	return ""
}

func run(p *pipeline.Pass) error {
	cfg := pipeline.ConfigOf[Config](p)
	workers := runtime.GOMAXPROCS(0)
	prog := p.Progress("shapes", int64(len(cfg.Shapes)))
	rows := make([]Row, 0, len(cfg.Shapes))
	for _, text := range cfg.Shapes {
		s, _ := grid.ParseShape(text) // Validate has accepted it
		start := time.Now()
		count, err := countShape(p, s, workers)
		if err != nil {
			return fmt.Errorf("box shape %s: %w", s, err)
		}
		elapsed := time.Since(start)
		p.Report("seconds_"+s.String(), elapsed.Seconds())
		p.Log.Info("counted grids", "shape", s.String(), "grids", count.String(), "seconds", elapsed.Seconds())
		rows = append(rows, Row{Rows: int32(s.R), Cols: int32(s.C), Grids: count.String(), Method: methodOf(s)})
		prog.Add(1)
	}
	prog.Done()
	return Table.Write(p, rows)
}

// countShape counts the grids of shape s by its method.
func countShape(p *pipeline.Pass, s grid.Shape, workers int) (*big.Int, error) {
	if methodOf(s) == methodExact {
		total, err := exact.Total.Read(p)
		if err != nil {
			return nil, err
		}
		if len(total) != 1 {
			return nil, fmt.Errorf("total.parquet has %d rows, want 1", len(total))
		}
		n, ok := new(big.Int).SetString(strings.TrimSpace(total[0].Grids), 10)
		if !ok {
			return nil, fmt.Errorf("total.parquet: grids %q is not a decimal integer", total[0].Grids)
		}
		return n, nil
	}
	// The count is symmetric under transposition: boxes C×2 give the grids
	// of boxes 2×C transposed.
	c := s.C
	if s.R != 2 {
		c = s.R
	}
	count := PairCount(c, workers)
	if s.N() <= backtrackMaxSide {
		check, err := grid.Grid{Shape: s, Cells: make([]uint8, s.N()*s.N())}.Count(workers)
		if err != nil {
			return nil, err
		}
		if check.Cmp(count) != 0 {
			return nil, fmt.Errorf("pair method gives %v grids, backtracking %v", count, check)
		}
	}
	return count, nil
}
