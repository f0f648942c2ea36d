package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/executor"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
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
	Units, Total  int // units in the bundle, units the stage lists
	Listed        int // the units the stage lists that the bundle holds
	Eligible      int // units the draw was among (those within maxCPU)
	// Heaviest counts the units taken for their cost (the costliest
	// eligible ones), the rest of Checked being drawn one per stratum of
	// the others ordered by cost.
	Heaviest int
	Checked  []string // the units recomputed, each equal
	Rechecks []string // what the second computations checked
}

// RecomputeAll, as RecomputeBundles' k, recomputes every eligible unit.
const RecomputeAll = 0

// RecomputeBundles recomputes k units (RecomputeAll: every one) of every
// stage's bundle present on disk, with the current configuration, and
// compares each result byte for byte with the bundle's; then runs the
// bundle's Recheck on each. maxCPU, when positive, draws only among the
// units that take at most that long to recompute (a quick check for
// `make all`): by the bundle's Cost (a projection from the unit's id)
// when it has one, else by the CPU time the row records (a column the
// stage's fingerprint and the lock cover, through the file's SHA-256).
//
// The draw is stratified by cost, not uniform: the ⌈k/2⌉ costliest
// eligible units are always recomputed (a forger's best target is a unit
// no quick check can afford), and the others are drawn one from each of
// k-⌈k/2⌉ equal strata of the rest, by a PCG seeded with seed. It
// returns an error naming the unit at the first mismatch, and an error
// when it would check nothing: no bundle on disk, or a bundle with no
// unit within maxCPU.
func (e *Engine) RecomputeBundles(ctx context.Context, k int, seed uint64, maxCPU time.Duration, log func(string)) ([]RecomputeReport, error) {
	return e.RecomputeBundlesOf(ctx, nil, k, seed, maxCPU, log)
}

// RecomputeBundlesOf is RecomputeBundles for the bundles named (by
// Bundle.Name; all when names is empty): an unknown name is an error
// listing the names.
func (e *Engine) RecomputeBundlesOf(ctx context.Context, names []string, k int, seed uint64, maxCPU time.Duration, log func(string)) ([]RecomputeReport, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var all []string
	for _, s := range e.order {
		if s.Units == nil {
			continue
		}
		for _, b := range s.Units.Bundles() {
			all = append(all, b.Name)
			delete(want, b.Name)
		}
	}
	for n := range want {
		return nil, fmt.Errorf("--bundle %q: no stage has that bundle (bundles: %s)", n, strings.Join(all, ", "))
	}
	if k < 0 {
		return nil, fmt.Errorf("recompute %d units: want a count ≥ 1, or all", k)
	}
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	// A unit may read its stage's inputs: give it the pass a run would.
	passes := map[*pipeline.Stage]*pipeline.PassControl{}
	unitKeys := map[*pipeline.Stage]string{}
	e.survey(m, func(s *pipeline.Stage, c checked, _ bool, sim *store.Manifest) {
		if s.Units != nil && len(s.Units.Bundles()) > 0 {
			passes[s] = e.newPass(ctx, sim, s, c)
			unitKeys[s] = c.unitKey
		}
	})
	var reports []RecomputeReport
	var declared []string
	for _, s := range e.order {
		if s.Units == nil {
			continue
		}
		var ids []string // the stage's units, listed once for all its bundles
		for _, b := range s.Units.Bundles() {
			if len(names) > 0 && !slices.Contains(names, b.Name) {
				continue
			}
			declared = append(declared, b.Path())
			if _, err := os.Stat(filepath.Join(e.opts.Root, b.Path())); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			pc := passes[s]
			if ids == nil {
				var err error
				if ids, err = listUnits(pc.Pass()); err != nil {
					return reports, err
				}
			}
			rows, err := pipeline.ReadBundle(e.opts.Root, b, nil)
			if err != nil {
				return reports, err
			}
			// The costs below order the draw; a bundle other than the one the
			// stage's run read (and the lock pins) may carry forged ones.
			slash := filepath.ToSlash(b.Path())
			if was := m.Stages[s.Name].Bundles[slash]; was != "" {
				if now, err := e.hash(slash); err == nil && now != was {
					log(fmt.Sprintf("warning: %s changed since stage %s read it (SHA-256 %s when read, %s now): census status and census verify say how; its recorded costs are not the published ones",
						slash, s.Name, msg.Short(was), msg.Short(now)))
				}
			}
			rep := RecomputeReport{Stage: s.Name, Bundle: b.Path(), Units: len(rows), Total: len(pipeline.BundledIDs(b, ids))}
			for _, id := range ids {
				if _, ok := rows[id]; ok {
					rep.Listed++
				}
			}
			// Every unit of the bundle, listed by this configuration or not
			// (say 2x6 left out of shapes.shapes): all are published results.
			have := make([]string, 0, len(rows))
			for id := range rows {
				have = append(have, id)
			}
			costs := make(map[string]time.Duration, len(have))
			for _, id := range have {
				if b.Cost == nil {
					costs[id] = time.Duration(rows[id].CPUSeconds * float64(time.Second))
					continue
				}
				cost, err := b.Cost(pc.ForUnit(ctx, id), id)
				if err != nil {
					return reports, fmt.Errorf("bundle %s: unit %s: cost: %w", b.Path(), id, err)
				}
				costs[id] = cost
			}
			// Costliest first; equal costs by id, so that a seed names one draw.
			slices.SortFunc(have, func(x, y string) int {
				if c := cmp.Compare(costs[y], costs[x]); c != 0 {
					return c
				}
				return cmp.Compare(x, y)
			})
			if len(have) == 0 {
				return reports, fmt.Errorf("bundle %s holds no unit: nothing to recompute", b.Path())
			}
			if maxCPU > 0 {
				cheapest := costs[have[len(have)-1]]
				have = slices.DeleteFunc(have, func(id string) bool { return costs[id] > maxCPU })
				if len(have) == 0 {
					return reports, fmt.Errorf("bundle %s: no unit's recomputation takes at most --max-unit-cpu %s (the cheapest takes %s): nothing would be checked; raise --max-unit-cpu",
						b.Path(), maxCPU, cheapest.Round(time.Millisecond))
				}
			}
			rep.Eligible = len(have)
			drawn, heaviest := stratifiedDraw(have, k, rand.New(rand.NewPCG(seed, 0xb0d1e)))
			rep.Heaviest = heaviest
			compute := func(id string) ([]byte, error) {
				log(fmt.Sprintf("%s: recomputing unit %s (cost %s)", b.Path(), id, costs[id].Round(time.Millisecond)))
				result, _, err := e.computeUnit(ctx, pc, id)
				return result, err
			}
			if e.executor.Name == "slurm" {
				if compute, err = e.recomputeOnSlurm(ctx, pc, unitKeys[s], drawn, log); err != nil {
					return reports, fmt.Errorf("bundle %s: %w", b.Path(), err)
				}
			}
			for _, id := range drawn {
				result, err := compute(id)
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
	if len(reports) == 0 {
		return nil, fmt.Errorf("no committed bundle to recompute (none of %s is on disk): nothing would be checked; git checkout -- %s restores them",
			strings.Join(declared, ", "), pipeline.BundlesDir)
	}
	return reports, nil
}

// stratifiedDraw returns k of ids (every one for RecomputeAll or k ≥
// len(ids)), which are ordered costliest first: the ⌈k/2⌉ first, then one
// drawn by rng from each of k-⌈k/2⌉ consecutive strata of nearly equal
// size of the rest. heaviest is the number taken for their cost.
func stratifiedDraw(ids []string, k int, rng *rand.Rand) (drawn []string, heaviest int) {
	if k == RecomputeAll || k >= len(ids) {
		return ids, len(ids)
	}
	heaviest = (k + 1) / 2
	drawn = append(drawn, ids[:heaviest]...)
	rest, strata := ids[heaviest:], k-heaviest
	for j := range strata {
		lo, hi := j*len(rest)/strata, (j+1)*len(rest)/strata
		drawn = append(drawn, rest[lo+rng.IntN(hi-lo)])
	}
	return drawn, heaviest
}

// recomputeOnSlurm computes the units ids of the pass's stage as one Slurm
// array job (the executor's configuration) into a scratch directory of
// the stage's unit directory, which it removes afterwards, and returns
// their results by id for the comparison with the bundle. The tasks
// compute every unit afresh: the scratch directory starts empty, and they
// neither read nor add to the bundle.
func (e *Engine) recomputeOnSlurm(ctx context.Context, pc *pipeline.PassControl, unitKey string, ids []string, log func(string)) (func(string) ([]byte, error), error) {
	p := pc.Pass()
	dir, err := os.MkdirTemp(store.UnitDir(e.opts.Root, p.Stage.Name, unitKey), store.RecomputeDirPrefix)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(store.UnitDir(e.opts.Root, p.Stage.Name, unitKey), 0o755); err == nil {
			dir, err = os.MkdirTemp(store.UnitDir(e.opts.Root, p.Stage.Name, unitKey), store.RecomputeDirPrefix)
		}
	}
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	u := store.NewUnitSet(dir, unitKey, ids)
	u.Recompute = true
	all := make([]int, len(ids))
	for i := range all {
		all[i] = i
	}
	log(fmt.Sprintf("stage %s: recomputing %d units as a Slurm array job", p.Stage.Name, len(ids)))
	prog := p.Progress("recompute", int64(len(ids)))
	slurm := executor.Slurm{Config: e.executor.Slurm, Root: e.opts.Root, UnitCommand: e.opts.UnitCommand}
	err = slurm.Compute(ctx, p, u, all, prog)
	prog.Done()
	if err != nil {
		return nil, err
	}
	results := make(map[string][]byte, len(ids))
	for i, id := range ids {
		results[id] = u.Results[i]
	}
	return func(id string) ([]byte, error) { return results[id], nil }, nil
}
