package reduce

import (
	"fmt"
	"runtime"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/maths/funnel"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
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

// ParseBands parses bands.parquet's rows, split between the CPUs; the
// first bad row (in row order) is the error.
func ParseBands(rows []bands.Row) ([]sudoku.Band, error) {
	bs := make([]sudoku.Band, len(rows))
	err := parallel.Chunks(len(rows), min(runtime.GOMAXPROCS(0), len(rows)/65536), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			b, err := rows[i].Band()
			if err != nil {
				return fmt.Errorf("bands.parquet row %d: %w", i, err)
			}
			bs[i] = b
		}
		return nil
	})
	if err != nil {
		return nil, err
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
	reduced, mult, err := funnel.Reduce(bs, cfg.SwapBlocks)
	if err != nil {
		return err
	}
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
