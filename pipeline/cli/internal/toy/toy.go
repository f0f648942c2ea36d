// Package toy is a small pipeline whose middle stage has units, for the
// tests of pipeline/cli: in process, and as the command testdata/toycensus
// that the Slurm and signal tests run.
//
//	seeds ──> blocks (units block-000 …) ──> sum
//
// Environment hooks, read by Compute and so in no fingerprint:
// TOYCENSUS_FAIL_UNIT=ID makes that unit fail; TOYCENSUS_HANG=ctx makes
// every unit wait for its context, TOYCENSUS_HANG=ignore makes it spin
// forever; TOYCENSUS_STARTED=FILE creates FILE when a unit starts.
package toy

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

type seedRow struct {
	Seed int64 `parquet:"seed"`
}

type blockRow struct {
	Unit  string `parquet:"unit"`
	Value int64  `parquet:"value"`
}

type seedsConfig struct {
	Count int `mapstructure:"count" json:"count"`
}

func (c *seedsConfig) Validate() error {
	if c.Count < 1 {
		return pipeline.Invalid("seeds.count", c.Count, "an integer ≥ 1")
	}
	return nil
}

type blocksConfig struct {
	Count  int `mapstructure:"count" json:"count"`
	Rounds int `mapstructure:"rounds" json:"rounds"`
	// SleepMS is how long each unit takes, in milliseconds (a sleep, to
	// spare the test machine's cores).
	SleepMS int `mapstructure:"sleep_ms" json:"sleep_ms"`
}

func (c *blocksConfig) Validate() error {
	if c.Count < 0 || c.Count > 10000 {
		return pipeline.Invalid("blocks.count", c.Count, "an integer from 0 to 10000")
	}
	if c.Rounds < 1 {
		return pipeline.Invalid("blocks.rounds", c.Rounds, "an integer ≥ 1")
	}
	if c.SleepMS < 0 {
		return pipeline.Invalid("blocks.sleep_ms", c.SleepMS, "an integer ≥ 0")
	}
	return nil
}

var (
	seedsTable  = pipeline.NewTable[seedRow]("seeds", "one row per seed")
	blocksTable = pipeline.NewTable[blockRow]("blocks", "one row per unit")
	sumFile     = pipeline.NewFile("sum", "data/sum.txt", "the sum of the blocks")
)

// Stages returns a fresh copy of the toy pipeline.
func Stages() []*pipeline.Stage {
	seeds := &pipeline.Stage{
		Name: "seeds", Doc: "count seeds", Version: 1, Globals: []string{"seed"},
		NewConfig: func() pipeline.Config { return &seedsConfig{Count: 3} },
		Outputs:   []pipeline.Output{seedsTable.Output},
		Run: func(p *pipeline.Pass) error {
			rows := make([]seedRow, pipeline.ConfigOf[seedsConfig](p).Count)
			for i := range rows {
				rows[i].Seed = int64(p.Seed)*1000 + int64(i)
			}
			return seedsTable.Write(p, rows)
		},
	}
	blocks := &pipeline.Stage{
		Name: "blocks", Doc: "one hash chain per unit", Version: 1, Requires: []*pipeline.Stage{seeds},
		NewConfig: func() pipeline.Config { return &blocksConfig{Count: 12, Rounds: 1000} },
		Outputs:   []pipeline.Output{blocksTable.Output},
		Units: &pipeline.Units{
			List: func(p *pipeline.Pass) ([]string, error) {
				ids := make([]string, pipeline.ConfigOf[blocksConfig](p).Count)
				for i := range ids {
					ids[i] = fmt.Sprintf("block-%03d", i)
				}
				return ids, nil
			},
			Compute: compute,
			// TOYCENSUS_BUNDLE=1 keeps every unit in a committed bundle, as
			// the census's long computations are (data/bundles/blocks.parquet).
			Bundle: bundleFromEnv(),
		},
		Run: func(p *pipeline.Pass) error {
			results, err := p.UnitResults()
			if err != nil {
				return err
			}
			rows := make([]blockRow, len(results))
			for i, r := range results {
				rows[i] = blockRow{Unit: p.UnitIDs()[i], Value: int64(binary.LittleEndian.Uint64(r))}
			}
			return blocksTable.Write(p, rows)
		},
	}
	sum := &pipeline.Stage{
		Name: "sum", Doc: "the sum of the blocks", Version: 1, Requires: []*pipeline.Stage{blocks},
		Outputs: []pipeline.Output{sumFile.Output},
		Run: func(p *pipeline.Pass) error {
			rows, err := blocksTable.Read(p)
			if err != nil {
				return err
			}
			var total uint64
			for _, r := range rows {
				total += uint64(r.Value)
			}
			return sumFile.Write(p, fmt.Appendf(nil, "%d\n", total))
		},
	}
	return []*pipeline.Stage{seeds, blocks, sum}
}

// bundleFromEnv is the blocks stage's bundle under TOYCENSUS_BUNDLE=1, else nil.
func bundleFromEnv() *pipeline.Bundle {
	if os.Getenv("TOYCENSUS_BUNDLE") != "1" {
		return nil
	}
	return &pipeline.Bundle{Name: "blocks", Kernel: "toy blocks v1",
		Holds: func(string) bool { return true },
		Work:  func(id string) string { return "the hash chain of " + id }}
}

// compute hashes the seeds and the unit id cfg.Rounds times.
func compute(p *pipeline.Pass, id string) ([]byte, error) {
	if path := os.Getenv("TOYCENSUS_STARTED"); path != "" {
		os.WriteFile(path, []byte(id), 0o644)
	}
	switch os.Getenv("TOYCENSUS_HANG") {
	case "ctx":
		<-p.Context().Done()
		return nil, p.Context().Err()
	case "ignore":
		for {
			time.Sleep(time.Millisecond)
		}
	}
	if id == os.Getenv("TOYCENSUS_FAIL_UNIT") {
		fmt.Fprintf(os.Stderr, "toycensus: about to fail unit %s\n", id)
		return nil, fmt.Errorf("injected failure of unit %s", id)
	}
	cfg := pipeline.ConfigOf[blocksConfig](p)
	seeds, err := seedsTable.Read(p)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, s := range seeds {
		binary.Write(h, binary.LittleEndian, s.Seed)
	}
	sum := sha256.Sum256(append(h.Sum(nil), id...))
	for range cfg.Rounds {
		sum = sha256.Sum256(sum[:])
	}
	select {
	case <-time.After(time.Duration(cfg.SleepMS) * time.Millisecond):
	case <-p.Context().Done():
		return nil, p.Context().Err()
	}
	return sum[:8], nil
}
