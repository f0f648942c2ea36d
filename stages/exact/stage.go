package exact

import (
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/maths/backtrack"
	"github.com/sudoku-census/sudoku-census/stages/maths/bandpair"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
)

// Stage writes data/completions.parquet and data/total.parquet from the
// reduced bands and their level-5 classes.
var Stage = &pipeline.Stage{
	Name:      "exact",
	Doc:       "completions of each class by the band-pair method, cross-checked by backtracking; the total",
	Version:   1,
	Requires:  []*pipeline.Stage{reduce.Stage, classes.Stage},
	NewConfig: func() pipeline.Config { return &Config{Crosscheck: "all"} },
	Outputs:   []pipeline.Output{Completions.Output, Total.Output},
	Headlines: headlines,
	Run:       runStage,
	// The backtracking recount of each chosen class is a unit: seconds of
	// CPU each, resumable and able to run on a cluster.
	Units: &pipeline.Units{List: crosscheckUnits, Compute: crosscheckUnit},
}

func runStage(p *pipeline.Pass) error {
	reduced, classOf, err := classes.ReadLevel5(p)
	if err != nil {
		return err
	}
	return run(p, reduced, classOf)
}

// chosenClasses returns the classes of the reduced bands and whether
// exact.crosscheck selects each.
func chosenClasses(p *pipeline.Pass, reduced []bandpair.ReducedBand, classOf []int32) ([]bandpair.Class, []bool, error) {
	cfg := pipeline.ConfigOf[Config](p)
	sel, err := ParseSelection(cfg.Crosscheck)
	if err != nil {
		return nil, nil, err
	}
	list, err := bandpair.GroupClasses(reduced, classOf)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int32, len(list))
	for i, c := range list {
		ids[i] = c.ID
	}
	chosen, err := sel.Choose(cfg.Crosscheck, ids)
	if err != nil {
		return nil, nil, err
	}
	return list, chosen, nil
}

// crosscheckUnits lists one unit per class to recount by backtracking,
// "class<id>-<the representative's 27 digits>", so that a unit needs no
// input to compute.
func crosscheckUnits(p *pipeline.Pass) ([]string, error) {
	reduced, classOf, err := classes.ReadLevel5(p)
	if err != nil {
		return nil, err
	}
	list, chosen, err := chosenClasses(p, reduced, classOf)
	if err != nil {
		return nil, err
	}
	var ids []string
	for i, c := range list {
		if chosen[i] {
			r := c.Representative.Rows()
			ids = append(ids, fmt.Sprintf("class%d-%s%s%s", c.ID, r[0], r[1], r[2]))
		}
	}
	return ids, nil
}

// crosscheckUnit counts the completions of a unit's band by backtracking,
// as a decimal string.
func crosscheckUnit(p *pipeline.Pass, id string) ([]byte, error) {
	_, digits, ok := strings.Cut(id, "-")
	if !ok || len(digits) != 27 {
		return nil, fmt.Errorf("unit %q: want class<id>-<27 digits>", id)
	}
	band, err := reduce.Row{Row1: digits[:9], Row2: digits[9:18], Row3: digits[18:]}.Band()
	if err != nil {
		return nil, fmt.Errorf("unit %q: %w", id, err)
	}
	// One worker per unit: the engine runs as many units at once as there
	// are cores.
	n, err := backtrack.Completions(p.Context(), band, 1)
	if err != nil {
		return nil, err
	}
	return []byte(n.String()), nil
}

// Completions is data/completions.parquet.
var Completions = pipeline.NewTable[CompletionsRow]("completions",
	"one row per class of first bands: its representative's completions to a grid")

// CompletionsRow is one class. Representative is the class's smallest
// reduced band, its 27 digits row by row. BandsWithColumnSets is Σ_S N(S)
// over the 56³ = 175,616 ways S to choose the second band's column sets
// under the representative: the number of second bands (rows and blocks
// holding 1-9) that repeat no digit in a column of the representative.
// Completions is a decimal string.
type CompletionsRow struct {
	Class               int32  `parquet:"class"`
	Size                int32  `parquet:"size"`
	FirstBands          int64  `parquet:"first_bands"`
	Representative      string `parquet:"representative"`
	BandsWithColumnSets int64  `parquet:"bands_with_column_sets"`
	Completions         string `parquet:"completions"`
	Crosschecked        bool   `parquet:"crosschecked"`
}

// Total is data/total.parquet.
var Total = pipeline.NewTable[TotalRow]("total", "one row: the number of Sudoku grids")

// ReadGrids reads the number of 9×9 grids from total.parquet, for the
// stages that compare their counts with it.
func ReadGrids(p *pipeline.Pass) (*big.Int, error) {
	total, err := Total.Read(p)
	if err != nil {
		return nil, err
	}
	if len(total) != 1 {
		return nil, fmt.Errorf("%s has %d rows, want 1", Total.Path, len(total))
	}
	n, ok := new(big.Int).SetString(strings.TrimSpace(total[0].Grids), 10)
	if !ok {
		return nil, fmt.Errorf("%s: grids %q is not a decimal integer", Total.Path, total[0].Grids)
	}
	return n, nil
}

// TotalRow is the census: Grids = 9!·Σ first_bands·completions, and
// ReducedCount = Grids/(9!·72²) with its prime factorisation, all decimal
// strings.
type TotalRow struct {
	Grids               string `parquet:"grids"`
	CanonicalGrids      string `parquet:"canonical_grids"`
	ReducedCount        string `parquet:"reduced_count"`
	ReducedCountFactors string `parquet:"reduced_count_factors"`
	Classes             int32  `parquet:"classes"`
	CrosscheckedClasses int32  `parquet:"crosschecked_classes"`
}

// Config is the exact stage's configuration (keys under "exact.").
type Config struct {
	// Crosscheck names the classes whose count the backtracking method
	// repeats: "all", "none", a count N or a list of class ids.
	Crosscheck string `mapstructure:"crosscheck" json:"crosscheck"`
}

// Validate checks that crosscheck parses.
func (c *Config) Validate() error {
	_, err := ParseSelection(c.Crosscheck)
	return err
}

// run counts every reduced band by the band-pair method, checks that the
// members of each class agree with its representative, recounts the chosen
// classes by backtracking (failing on any disagreement), and writes both
// tables.
func run(p *pipeline.Pass, reduced []bandpair.ReducedBand, classOf []int32) error {
	list, chosen, err := chosenClasses(p, reduced, classOf)
	if err != nil {
		return err
	}
	if err := countByBandPair(p, reduced, classOf, list); err != nil {
		return err
	}
	if err := crosscheck(p, list, chosen); err != nil {
		return err
	}
	return write(p, list)
}

// countByBandPair counts every reduced band by the band-pair method, checks
// that every member of a class has its representative's count, and sets
// the counts of list.
func countByBandPair(p *pipeline.Pass, reduced []bandpair.ReducedBand, classOf []int32, list []bandpair.Class) error {
	start := time.Now()
	bands := make([]sudoku.Band, len(reduced))
	for i, r := range reduced {
		bands[i] = r.Band
	}
	counter, err := bandpair.NewCounter(0)
	if err != nil {
		return err
	}
	counts, err := bandpair.CountAll(p.Context(), counter, bands, runtime.GOMAXPROCS(0))
	if err != nil {
		return err
	}
	repCount, err := bandpair.CheckMembers(reduced, classOf, counts)
	if err != nil {
		return err
	}
	for i := range list {
		c := &list[i]
		c.Completions, c.SecondBands = repCount[c.ID].Completions, repCount[c.ID].SecondBands
	}
	p.Report("bandpair_seconds", time.Since(start).Seconds())
	p.Log.Info("band-pair counts done: every member of every class agrees with its representative",
		"reduced_bands", len(bands), "classes", len(list), "seconds", time.Since(start).Seconds())
	return nil
}

// crosscheck compares the backtracking counts of the chosen classes (the
// units, in list order) with the band-pair counts and fails on the first
// disagreement.
func crosscheck(p *pipeline.Pass, list []bandpair.Class, chosen []bool) error {
	results, err := p.UnitResults()
	if err != nil {
		return err
	}
	k := 0
	for i := range list {
		if !chosen[i] {
			continue
		}
		if k >= len(results) {
			return fmt.Errorf("%d backtracking results for more chosen classes", len(results))
		}
		c := &list[i]
		back, ok := new(big.Int).SetString(string(results[k]), 10)
		k++
		if !ok {
			return fmt.Errorf("class %d: backtracking result %q is not a decimal integer", c.ID, results[k-1])
		}
		if back.Cmp(new(big.Int).SetUint64(c.Completions)) != 0 {
			return fmt.Errorf("class %d (band %s): band-pair method counts %d completions, backtracking %s",
				c.ID, c.Representative, c.Completions, back)
		}
		c.Crosschecked = true
		p.Log.Debug("class cross-checked", "class", c.ID, "completions", c.Completions)
	}
	if k != len(results) {
		return fmt.Errorf("%d backtracking results for %d chosen classes", len(results), k)
	}
	p.Report("crosschecked_classes", k)
	return nil
}

// write totals the classes and writes both tables.
func write(p *pipeline.Pass, list []bandpair.Class) error {
	census, err := bandpair.Tally(list)
	if err != nil {
		return err
	}
	factors, err := bandpair.Factorise(census.ReducedCount)
	if err != nil {
		return err
	}
	rows := make([]CompletionsRow, len(list))
	checked := 0
	for i, c := range list {
		r := c.Representative.Rows()
		rows[i] = CompletionsRow{
			Class:               c.ID,
			Size:                int32(c.Size),
			FirstBands:          c.FirstBands,
			Representative:      r[0] + r[1] + r[2],
			BandsWithColumnSets: int64(c.SecondBands),
			Completions:         fmt.Sprint(c.Completions),
			Crosschecked:        c.Crosschecked,
		}
		if c.Crosschecked {
			checked++
		}
	}
	p.Log.Info("census", "grids", census.Grids, "reduced_count", census.ReducedCount, "factors", factors)
	if err := Completions.Write(p, rows); err != nil {
		return err
	}
	return Total.Write(p, []TotalRow{{
		Grids:               census.Grids.String(),
		CanonicalGrids:      census.CanonicalGrids.String(),
		ReducedCount:        census.ReducedCount.String(),
		ReducedCountFactors: factors,
		Classes:             int32(len(list)),
		CrosscheckedClasses: int32(checked),
	}})
}

// headlines are the count of grids and the classes recounted, for census
// diff.
func headlines(root string) ([]pipeline.Headline, error) {
	rows, err := Total.Load(root)
	var out []pipeline.Headline
	for _, r := range rows {
		out = append(out, pipeline.Headline{Name: "grids", Value: r.Grids},
			pipeline.Headline{Name: "crosschecked_classes", Value: fmt.Sprint(r.CrosscheckedClasses)})
	}
	return out, err
}
