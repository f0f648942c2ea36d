package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// fromBundle fills the missing units of u that the stage's bundles hold and
// returns the indices still missing. A unit found in its unit file but not
// in its bundle (its process stopped between the two writes) goes into the
// bundle, with its compute time as its CPU time.
func (e *Engine) fromBundle(p *pipeline.Pass, u *store.UnitSet, missing []int) ([]int, error) {
	for _, b := range p.Stage.Units.Bundles() {
		var err error
		if missing, err = e.fromOneBundle(p, b, u, missing); err != nil {
			return nil, err
		}
	}
	return missing, nil
}

// fromOneBundle is fromBundle for one of the stage's bundles.
func (e *Engine) fromOneBundle(p *pipeline.Pass, b *pipeline.Bundle, u *store.UnitSet, missing []int) ([]int, error) {
	ids := pipeline.BundledIDs(b, u.IDs)
	if len(ids) == 0 {
		return missing, nil // this configuration uses none of the bundle
	}
	rows, err := pipeline.ReadBundle(e.opts.Root, b, ids)
	if err != nil {
		return nil, err
	}
	var stray []pipeline.BundleRow
	for i, id := range u.IDs {
		if _, ok := rows[id]; !ok && u.Results[i] != nil && b.Holds(id) {
			stray = append(stray, pipeline.NewBundleRow(b, id, u.Results[i], u.Took[i]))
		}
	}
	if len(stray) > 0 {
		if err := pipeline.AddToBundle(e.opts.Root, b, stray); err != nil {
			return nil, err
		}
	}
	var still []int
	for _, i := range missing {
		if r, ok := rows[u.IDs[i]]; ok {
			u.Results[i] = []byte(r.Result)
			continue
		}
		still = append(still, i)
	}
	if n := len(missing) - len(still); n > 0 {
		p.Log.Info("units taken from the bundle", "bundle", b.Path(), "units", n)
		p.Report("units.bundled", n)
	}
	return still, nil
}

// RecomputeReport is what verify --recompute found for one bundle.
type RecomputeReport struct {
	Stage, Bundle string
	Units, Total  int      // units in the bundle, units the stage lists
	Listed        int      // the units the stage lists that the bundle holds
	Eligible      int      // units the draw was among (those within maxCPU)
	Checked       []string // the units recomputed, each equal
	Rechecks      []string // what the second computations checked
}

// RecomputeBundles recomputes k units drawn (without replacement, by a PCG
// seeded with seed) from every stage's bundle present on disk, with the
// current configuration, and compares each result byte for byte with the
// bundle's; then runs the bundle's Recheck on each. maxCPU, when positive,
// draws only among the units that take at most that long to recompute (a
// quick check for `make all`): by the bundle's Cost when it has one, else
// by the CPU time the row records. It returns an error naming the unit at the first
// mismatch.
func (e *Engine) RecomputeBundles(ctx context.Context, k int, seed uint64, maxCPU time.Duration, log func(string)) ([]RecomputeReport, error) {
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	// A unit may read its stage's inputs: give it the pass a run would.
	passes := map[*pipeline.Stage]*pipeline.PassControl{}
	e.survey(m, func(s *pipeline.Stage, c checked, _ bool, sim *store.Manifest) {
		if s.Units != nil && len(s.Units.Bundles()) > 0 {
			passes[s] = e.newPass(ctx, sim, s, c)
		}
	})
	var reports []RecomputeReport
	for _, s := range e.order {
		if s.Units == nil {
			continue
		}
		for _, b := range s.Units.Bundles() {
			if _, err := os.Stat(filepath.Join(e.opts.Root, b.Path())); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			pc := passes[s]
			ids, err := listUnits(pc.Pass())
			if err != nil {
				return reports, err
			}
			rows, err := pipeline.ReadBundle(e.opts.Root, b, nil)
			if err != nil {
				return reports, err
			}
			rep := RecomputeReport{Stage: s.Name, Bundle: b.Path(), Units: len(rows), Total: len(ids)}
			var have []string
			for _, id := range ids {
				if _, ok := rows[id]; ok {
					have = append(have, id)
				}
			}
			rep.Listed = len(have)
			if len(have) != len(rows) {
				// The configuration lists fewer units than the bundle holds
				// (say 2x6 left out of shapes.shapes): draw from the bundle.
				have = have[:0]
				for id := range rows {
					have = append(have, id)
				}
				slices.Sort(have)
			}
			if maxCPU > 0 {
				var costErr error
				have = slices.DeleteFunc(have, func(id string) bool {
					if b.Cost == nil {
						return rows[id].CPUSeconds > maxCPU.Seconds()
					}
					cost, err := b.Cost(pc.ForUnit(ctx, id), id)
					if err != nil && costErr == nil {
						costErr = fmt.Errorf("bundle %s: unit %s: cost: %w", b.Path(), id, err)
					}
					return cost > maxCPU
				})
				if costErr != nil {
					return reports, costErr
				}
			}
			rep.Eligible = len(have)
			rng := rand.New(rand.NewPCG(seed, 0xb0d1e))
			rng.Shuffle(len(have), func(i, j int) { have[i], have[j] = have[j], have[i] })
			for _, id := range have[:min(k, len(have))] {
				log(fmt.Sprintf("%s: recomputing unit %s", b.Path(), id))
				result, _, err := e.computeUnit(ctx, pc, id)
				if err != nil {
					return reports, fmt.Errorf("bundle %s: unit %s: %w", b.Path(), id, err)
				}
				if string(result) != rows[id].Result {
					return reports, fmt.Errorf("bundle %s: unit %s: recomputed %q, the bundle holds %q", b.Path(), id, result, rows[id].Result)
				}
				rep.Checked = append(rep.Checked, id)
				if b.Recheck != nil {
					what, err := b.Recheck(pc.ForUnit(ctx, id), id, result, seed)
					if err != nil {
						return reports, fmt.Errorf("bundle %s: unit %s: second computation: %w", b.Path(), id, err)
					}
					rep.Rechecks = append(rep.Rechecks, what)
				}
			}
			reports = append(reports, rep)
		}
	}
	return reports, nil
}
