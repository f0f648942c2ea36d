package exact

import (
	"cmp"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
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
	Run:       runStage,
}

func runStage(p *pipeline.Pass) error {
	reduced, err := reduce.Table.Read(p)
	if err != nil {
		return err
	}
	cls, err := classes.Table.Read(p)
	if err != nil {
		return err
	}
	if len(cls) != len(reduced) {
		return fmt.Errorf("classes.parquet has %d rows, reduced.parquet %d", len(cls), len(reduced))
	}
	classOf := make([]int32, len(reduced))
	for i, c := range cls {
		if c.ID != reduced[i].ID {
			return fmt.Errorf("classes.parquet row %d is band %d, reduced.parquet row %d band %d", i, c.ID, i, reduced[i].ID)
		}
		classOf[i] = c.Level5
	}
	return run(p, reduced, classOf)
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

// Class is one class of reduced bands and its count.
type Class struct {
	ID             int32
	Size           int   // reduced bands in the class
	FirstBands     int64 // Σ multiplicity: bands with canonical B1 in the class
	Representative sudoku.Band
	Completions    uint64 // band-pair count for the representative
	SecondBands    uint64
	Crosschecked   bool
}

// GroupClasses gathers the reduced bands into classes: classOf[i] is the
// class id of reduced[i], which must be the id of a member of the class (its
// representative). Classes come out in ascending id order.
func GroupClasses(reduced []reduce.Row, classOf []int32) ([]Class, error) {
	if len(classOf) != len(reduced) {
		return nil, fmt.Errorf("%d class assignments for %d reduced bands", len(classOf), len(reduced))
	}
	byID := map[int32]int{} // reduced id -> index
	for i, r := range reduced {
		byID[r.ID] = i
	}
	index := map[int32]int{} // class id -> index in out
	var out []Class
	for i, r := range reduced {
		id := classOf[i]
		k, ok := index[id]
		if !ok {
			j, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("reduced band %d: class %d is not a reduced band id", r.ID, id)
			}
			if classOf[j] != id {
				return nil, fmt.Errorf("class %d: its representative is in class %d", id, classOf[j])
			}
			rep, err := reduced[j].Band()
			if err != nil {
				return nil, fmt.Errorf("class %d: %w", id, err)
			}
			k = len(out)
			index[id] = k
			out = append(out, Class{ID: id, Representative: rep})
		}
		out[k].Size++
		out[k].FirstBands += int64(r.Multiplicity)
	}
	slices.SortFunc(out, func(a, b Class) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// Count is the band-pair result for one band.
type Count struct {
	Completions, SecondBands uint64
}

// CountAll counts every band by the band-pair method, computing each
// distinct [Key] once. The keys are computed by workers goroutines over
// contiguous chunks; the counts, in order of first occurrence, by this one,
// so the result does not depend on workers.
func CountAll(c *Counter, bands []sudoku.Band, workers int) ([]Count, error) {
	keys := make([]int, len(bands))
	workers = max(1, min(workers, len(bands)/1024))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(bands)/workers, (w+1)*len(bands)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				keys[i] = c.Key(bands[i])
			}
		})
	}
	wg.Wait()
	memo := map[int]Count{}
	out := make([]Count, len(bands))
	for i, k := range keys {
		n, ok := memo[k]
		if !ok {
			var err error
			if n.Completions, n.SecondBands, err = c.Completions(bands[i]); err != nil {
				return nil, err
			}
			memo[k] = n
		}
		out[i] = n
	}
	return out, nil
}

// CheckMembers returns the count of each class's representative, keyed by
// class id, after checking that every reduced band has the count of its
// class's representative (counts[i] is reduced[i]'s).
func CheckMembers(reduced []reduce.Row, classOf []int32, counts []Count) (map[int32]Count, error) {
	repCount := map[int32]Count{}
	for i, r := range reduced {
		if r.ID == classOf[i] {
			repCount[r.ID] = counts[i]
		}
	}
	for i, r := range reduced {
		rep, ok := repCount[classOf[i]]
		if !ok {
			return nil, fmt.Errorf("reduced band %d: class %d has no representative", r.ID, classOf[i])
		}
		if counts[i] != rep {
			return nil, fmt.Errorf("reduced band %d has %d completions but is in class %d, whose representative has %d",
				r.ID, counts[i].Completions, classOf[i], rep.Completions)
		}
	}
	return repCount, nil
}

// Census is the total of a list of classes.
type Census struct {
	Grids          *big.Int // 9!·Σ first_bands·completions
	CanonicalGrids *big.Int // grids with B1 = 123/456/789: Σ first_bands·completions
	ReducedCount   *big.Int // Grids/(9!·72²)
}

// Tally totals the classes. It fails when Grids is not a multiple of
// 9!·72², which every correct census is (the 72 row and band permutations
// below the first band act freely on completions).
func Tally(classes []Class) (Census, error) {
	canonical := new(big.Int)
	for _, c := range classes {
		term := new(big.Int).SetUint64(c.Completions)
		canonical.Add(canonical, term.Mul(term, big.NewInt(c.FirstBands)))
	}
	grids := new(big.Int).Mul(canonical, big.NewInt(362880))
	reduced, rem := new(big.Int).QuoRem(canonical, big.NewInt(72*72), new(big.Int))
	if rem.Sign() != 0 {
		return Census{}, fmt.Errorf("%s grids with canonical B1 is not a multiple of 72²", canonical)
	}
	return Census{Grids: grids, CanonicalGrids: canonical, ReducedCount: reduced}, nil
}

// Factorise writes n > 1 as its prime factorisation, "2^7 × 27704267971",
// by trial division (n < 2^63, so at most about 3·10⁹ trials).
func Factorise(n *big.Int) (string, error) {
	if !n.IsInt64() || n.Int64() < 2 {
		return "", fmt.Errorf("factorise %s: want 2 ≤ n < 2^63", n)
	}
	m := uint64(n.Int64())
	var parts []string
	add := func(p uint64, e int) {
		if e == 1 {
			parts = append(parts, fmt.Sprint(p))
		} else {
			parts = append(parts, fmt.Sprintf("%d^%d", p, e))
		}
	}
	for p := uint64(2); p*p <= m; p++ {
		e := 0
		for m%p == 0 {
			m /= p
			e++
		}
		if e > 0 {
			add(p, e)
		}
	}
	if m > 1 {
		add(m, 1)
	}
	return strings.Join(parts, " × "), nil
}

// run counts every reduced band by the band-pair method, checks that the
// members of each class agree with its representative, recounts the chosen
// classes by backtracking (failing on any disagreement), and writes both
// tables.
func run(p *pipeline.Pass, reduced []reduce.Row, classOf []int32) error {
	cfg := pipeline.ConfigOf[Config](p)
	sel, err := ParseSelection(cfg.Crosscheck)
	if err != nil {
		return err
	}
	list, err := GroupClasses(reduced, classOf)
	if err != nil {
		return err
	}
	ids := make([]int32, len(list))
	for i, c := range list {
		ids[i] = c.ID
	}
	chosen, err := sel.Choose(cfg.Crosscheck, ids)
	if err != nil {
		return err
	}

	start := time.Now()
	bands := make([]sudoku.Band, len(reduced))
	for i, r := range reduced {
		if bands[i], err = r.Band(); err != nil {
			return fmt.Errorf("reduced band %d: %w", r.ID, err)
		}
	}
	counts, err := CountAll(NewCounter(0), bands, runtime.GOMAXPROCS(0))
	if err != nil {
		return err
	}
	repCount, err := CheckMembers(reduced, classOf, counts)
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

	nChosen := 0
	for _, ok := range chosen {
		if ok {
			nChosen++
		}
	}
	start = time.Now()
	prog := p.Progress("backtracking", int64(nChosen))
	for i := range list {
		if !chosen[i] {
			continue
		}
		if err := p.Context().Err(); err != nil {
			return err
		}
		c := &list[i]
		back, err := BacktrackCompletions(c.Representative, 0)
		if err != nil {
			return fmt.Errorf("class %d: %w", c.ID, err)
		}
		if back.Cmp(new(big.Int).SetUint64(c.Completions)) != 0 {
			return fmt.Errorf("class %d (band %s): band-pair method counts %d completions, backtracking %s",
				c.ID, c.Representative, c.Completions, back)
		}
		c.Crosschecked = true
		prog.Add(1)
		p.Log.Debug("class cross-checked", "class", c.ID, "completions", c.Completions)
	}
	prog.Done()
	p.Report("backtrack_seconds", time.Since(start).Seconds())
	p.Report("crosschecked_classes", nChosen)

	census, err := Tally(list)
	if err != nil {
		return err
	}
	factors, err := Factorise(census.ReducedCount)
	if err != nil {
		return err
	}
	rows := make([]CompletionsRow, len(list))
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
		CrosscheckedClasses: int32(nChosen),
	}})
}
