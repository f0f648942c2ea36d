package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/inspect"

	"github.com/sudoku-census/sudoku-census/pipeline/config"
	"github.com/sudoku-census/sudoku-census/pipeline/executor"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// Options configure an Engine.
type Options struct {
	// Root is the project root: artifacts live below it (data/, figures/,
	// paper/generated/).
	Root string
	// Stages is the whole pipeline; every stage's Requires must be in it.
	Stages []*pipeline.Stage
	// ConfigFile is the YAML configuration; Set holds key=value overrides
	// applied after it and after CENSUS_* environment variables.
	ConfigFile string
	Set        []string
	// Log receives the engine's and the stages' logs; nil discards them.
	Log *slog.Logger
	// Progress is where progress bars are drawn: a terminal, or nil.
	Progress io.Writer
	// UnitCommand returns the command line (program and arguments) that
	// computes the units a Slurm array task is given: `census units
	// --stage S --fingerprint F --plan P` with the root, config file and
	// overrides of this engine. The slurm executor needs it; the task's
	// index comes from SLURM_ARRAY_TASK_ID.
	UnitCommand func(stage, fingerprint, plan string) []string
}

// Engine runs a pipeline of stages over one project root.
type Engine struct {
	opts     Options
	order    []*pipeline.Stage // dependency order
	byName   map[string]*pipeline.Stage
	settings *config.Settings
	executor *executor.Config
	log      *slog.Logger
	hashes   map[string]string            // path -> SHA-256, valid within one call
	tools    map[string]map[string]string // stage -> pipeline.Stage.Tools(), once per process
	toolsMu  sync.Mutex
}

// New checks the stage graph and loads the configuration.
func New(opts Options) (*Engine, error) {
	if opts.Root == "" {
		opts.Root = "."
	}
	e := &Engine{opts: opts, byName: map[string]*pipeline.Stage{}, log: opts.Log}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	outputs := map[string]string{}
	for _, s := range opts.Stages {
		if s.Name == "" || strings.ContainsAny(s.Name, " .") {
			return nil, fmt.Errorf("stage %q: a name is one word without dots", s.Name)
		}
		if _, dup := e.byName[s.Name]; dup {
			return nil, fmt.Errorf("stage %s is listed twice", s.Name)
		}
		if config.IsGlobal(s.Name) || s.Name == executor.Key {
			return nil, fmt.Errorf("stage %s has the name of a global config key", s.Name)
		}
		e.byName[s.Name] = s
		for _, o := range s.Outputs {
			for _, key := range []string{"name " + o.Name, "path " + o.Path} {
				if other, dup := outputs[key]; dup {
					return nil, fmt.Errorf("artifact %s of stage %s: %s already belongs to stage %s", o.Name, s.Name, key, other)
				}
				outputs[key] = s.Name
			}
		}
	}
	order, err := topoSort(opts.Stages, e.byName)
	if err != nil {
		return nil, err
	}
	e.order = order
	st, err := config.Load(order, []config.Section{{Key: executor.Key, New: func() pipeline.Config { return executor.Default() }}}, opts.ConfigFile, opts.Set)
	if err != nil {
		return nil, err
	}
	e.settings = st
	e.executor = st.Section[executor.Key].(*executor.Config)
	return e, nil
}

// topoSort orders stages so that each comes after what it requires,
// keeping the given order where the graph allows.
func topoSort(stages []*pipeline.Stage, byName map[string]*pipeline.Stage) ([]*pipeline.Stage, error) {
	state := map[*pipeline.Stage]int{} // 1 visiting, 2 done
	var order []*pipeline.Stage
	var visit func(s *pipeline.Stage, path []string) error
	visit = func(s *pipeline.Stage, path []string) error {
		switch state[s] {
		case 1:
			return fmt.Errorf("stages form a cycle: %s", strings.Join(append(path, s.Name), " -> "))
		case 2:
			return nil
		}
		state[s] = 1
		for _, r := range s.Requires {
			if byName[r.Name] != r {
				return fmt.Errorf("stage %s requires stage %s, which is not in the pipeline", s.Name, r.Name)
			}
			if err := visit(r, append(path, s.Name)); err != nil {
				return err
			}
		}
		state[s] = 2
		order = append(order, s)
		return nil
	}
	for _, s := range stages {
		if err := visit(s, nil); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// Stages returns the stages in dependency order.
func (e *Engine) Stages() []*pipeline.Stage { return e.order }

// Stage returns the named stage, or an error that lists the stages.
func (e *Engine) Stage(name string) (*pipeline.Stage, error) {
	if s, ok := e.byName[name]; ok {
		return s, nil
	}
	var names []string
	for _, s := range e.order {
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("unknown stage %q (stages: %s)", name, strings.Join(names, ", "))
}

// StageStatus is whether a stage is fresh and, if not, why.
type StageStatus struct {
	Stage  string
	Fresh  bool
	Reason string // empty when fresh
	// InCache says a stale stage's outputs for its current fingerprint are
	// in the run cache: a run restores them instead of running the stage.
	InCache bool
	// Units counts the finished units of a stale stage that has Units and
	// whose inputs are fresh; nil otherwise.
	Units *UnitProgress
}

// Status reports every stage's freshness without running anything. A
// stale stage whose run would stop on its configuration as it lists its
// units (knuth.max_cpu_hours against the units its bundle lacks) makes
// Status fail with that refusal, as the run would.
func (e *Engine) Status() ([]StageStatus, error) {
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	var out []StageStatus
	var refused error
	e.survey(m, func(s *pipeline.Stage, c checked, inCache bool, sim *store.Manifest) {
		if refused != nil {
			return
		}
		if !c.fresh && !inCache {
			if refused = e.unitRefusal(sim, s, c); refused != nil {
				return
			}
		}
		st := StageStatus{Stage: s.Name, Fresh: c.fresh, Reason: c.reason, InCache: inCache}
		if !c.fresh && !inCache && s.Units != nil && c.fingerprint != "" {
			prog := e.unitProgress(sim, s, c)
			st.Units = &prog
		}
		out = append(out, st)
	})
	if refused != nil {
		return nil, refused
	}
	return out, nil
}

// survey checks every stage against manifest m, in order, as a run would
// find it: a stage the run would restore from the cache is not stale for
// the stages downstream, which see its cached outputs in sim, a copy of m.
// visit gets each stage's check and whether the cache holds it.
func (e *Engine) survey(m *store.Manifest, visit func(s *pipeline.Stage, c checked, inCache bool, sim *store.Manifest)) {
	e.hashes = map[string]string{}
	stale := map[string]string{}
	sim := m.Clone()
	for _, s := range e.order {
		c := e.check(sim, s, stale)
		inCache := false
		if !c.fresh {
			if rec, ok := e.cached(s, c.fingerprint); ok {
				inCache = true
				sim.Record(s.Name, rec.Record, rec.Artifacts)
			} else {
				stale[s.Name] = c.reason
			}
		}
		visit(s, c, inCache, sim)
	}
}

// checked is the outcome of a freshness check.
type checked struct {
	fresh       bool
	reason      string
	fingerprint string
	inputs      map[string]string // input artifact name -> SHA-256
	sources     map[string]string // source path -> SHA-256
	tools       map[string]string // external program -> version
	bundles     map[string]string // bundle path -> SHA-256 (or BundleMissing), nil without one
	// unitKey names the stage's unit files: the fingerprint without the
	// bundles, which the units computed during a run add to (the unit
	// files and a Slurm plan must keep one name all run long).
	unitKey  string
	upstream string // the stale upstream stage that makes it stale, if any
}

// check decides whether s is fresh against the manifest. stale holds the
// stages already found stale, with their reasons.
func (e *Engine) check(m *store.Manifest, s *pipeline.Stage, stale map[string]string) checked {
	for _, r := range s.Requires {
		if _, ok := stale[r.Name]; ok {
			return checked{reason: "upstream stage " + r.Name + " is stale", upstream: r.Name}
		}
	}
	inputs, err := inputsOf(m, s)
	if err != nil {
		return checked{reason: err.Error()}
	}
	sources, err := e.sourcesOf(s)
	if err != nil {
		return checked{reason: err.Error()}
	}
	tools := e.toolsOf(s)
	bundles, err := e.bundlesOf(s)
	if err != nil {
		return checked{reason: err.Error()}
	}
	c := checked{inputs: inputs, sources: sources, tools: tools, bundles: bundles,
		fingerprint: e.fingerprint(s, inputs, sources, tools, bundles), unitKey: e.fingerprint(s, inputs, sources, tools, nil)}
	rec, ok := m.Stages[s.Name]
	if !ok {
		c.reason = "never run"
		return c
	}
	for _, o := range s.Outputs {
		a, ok := m.Artifact(o.Name)
		if !ok || a.Stage != s.Name {
			c.reason = "artifact " + o.Path + " is not in the manifest"
			return c
		}
		sum, err := e.hash(o.Path)
		if err != nil {
			c.reason = "artifact " + o.Path + " is missing"
			return c
		}
		if sum != a.SHA256 {
			c.reason = "artifact " + o.Path + " is damaged (its SHA-256 differs from the manifest)"
			return c
		}
	}
	if rec.Fingerprint == c.fingerprint {
		c.fresh = true
		return c
	}
	var why []string
	if rec.Version != s.Version {
		why = append(why, fmt.Sprintf("code version %d -> %d", rec.Version, s.Version))
	}
	was, now := config.Flatten(rec.Config), config.Flatten(e.settings.Canonical[s.Name])
	for _, k := range unionKeys(was, now) {
		if was[k] != now[k] {
			why = append(why, fmt.Sprintf("config %s changed (%s -> %s)", k, orNone(was[k]), orNone(now[k])))
		}
	}
	for _, n := range unionKeys(inputs, rec.Inputs) {
		if rec.Inputs[n] != inputs[n] {
			why = append(why, "input "+n+" changed")
		}
	}
	for _, path := range s.Sources {
		if rec.Sources[path] != sources[path] {
			why = append(why, "source "+path+" changed")
		}
	}
	for _, path := range unionKeys(rec.Bundles, bundles) {
		switch was, now := rec.Bundles[path], bundles[path]; {
		case was == now:
		case now == BundleMissing:
			why = append(why, fmt.Sprintf("bundle %s is missing (the last run read SHA-256 %s): restore it with git checkout -- %s, or the run recomputes its units", path, msg.Short(was), path))
		case was == "" || was == BundleMissing:
			why = append(why, fmt.Sprintf("bundle %s appeared (SHA-256 %s)", path, msg.Short(now)))
		default:
			why = append(why, fmt.Sprintf("bundle %s changed (SHA-256 %s -> %s)", path, msg.Short(was), msg.Short(now)))
		}
	}
	for _, name := range unionKeys(rec.Tools, tools) {
		if rec.Tools[name] != tools[name] {
			why = append(why, fmt.Sprintf("tool %s changed (%s -> %s)", name, orNone(rec.Tools[name]), orNone(tools[name])))
		}
	}
	if len(why) == 0 {
		why = append(why, "fingerprint differs")
	}
	c.reason = strings.Join(why, "; ")
	return c
}

// inputsOf returns the SHA-256 of every artifact s reads, as the manifest
// records them.
func inputsOf(m *store.Manifest, s *pipeline.Stage) (map[string]string, error) {
	inputs := map[string]string{}
	for _, r := range s.Requires {
		for _, o := range r.Outputs {
			a, ok := m.Artifact(o.Name)
			if !ok {
				return nil, errors.New("input " + o.Name + " is missing from the manifest")
			}
			inputs[o.Name] = a.SHA256
		}
	}
	return inputs, nil
}

// sourcesOf returns the SHA-256 of every source file of s, by path (nil
// when it has none).
func (e *Engine) sourcesOf(s *pipeline.Stage) (map[string]string, error) {
	var sources map[string]string
	for _, path := range s.Sources {
		sum, err := e.hash(path)
		if err != nil {
			return nil, errors.New("source " + path + " is missing")
		}
		if sources == nil {
			sources = map[string]string{}
		}
		sources[path] = sum
	}
	return sources, nil
}

// BundleMissing stands for the SHA-256 of a stage's bundle that is not on
// disk, in its fingerprint and manifest record: the stage can still run
// (it computes every unit), but not with the fingerprint of a run that
// read the bundle.
const BundleMissing = store.BundleMissing

// bundlesOf returns the SHA-256 of the bytes of every bundle s reads (its
// Units.Bundles), by slash path (nil when it has none): every row and
// every column of each file enters the stage's fingerprint.
func (e *Engine) bundlesOf(s *pipeline.Stage) (map[string]string, error) {
	if s.Units == nil || len(s.Units.Bundles()) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, b := range s.Units.Bundles() {
		path := filepath.ToSlash(b.Path())
		sum, err := e.hash(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			sum = BundleMissing
		case err != nil:
			return nil, fmt.Errorf("bundle %s is unreadable: %s", path, msg.OneLine(msg.PathErr(err).Error()))
		}
		out[path] = sum
	}
	return out, nil
}

// toolsOf returns s.Tools(), called once per stage and process: a program's
// version does not change while the engine runs.
func (e *Engine) toolsOf(s *pipeline.Stage) map[string]string {
	if s.Tools == nil {
		return nil
	}
	e.toolsMu.Lock()
	defer e.toolsMu.Unlock()
	if t, ok := e.tools[s.Name]; ok {
		return t
	}
	if e.tools == nil {
		e.tools = map[string]map[string]string{}
	}
	t := s.Tools()
	e.tools[s.Name] = t
	return t
}

// unionKeys returns the keys of a and b, each once, sorted.
func unionKeys(a, b map[string]string) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

// fingerprint hashes everything a stage's outputs depend on.
// A stage without a bundle (or a unit key, bundles nil) hashes no
// "bundles" field, so that its fingerprint is what it was before bundles
// entered fingerprints.
func (e *Engine) fingerprint(s *pipeline.Stage, inputs, sources, tools, bundles map[string]string) string {
	doc, _ := json.Marshal(struct {
		Stage   string            `json:"stage"`
		Version int               `json:"version"`
		Config  json.RawMessage   `json:"config"`
		Inputs  map[string]string `json:"inputs"`
		Sources map[string]string `json:"sources,omitempty"`
		Tools   map[string]string `json:"tools,omitempty"`
		Bundles map[string]string `json:"bundles,omitempty"`
	}{s.Name, s.Version, e.settings.Canonical[s.Name], inputs, sources, tools, bundles})
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:])
}

func (e *Engine) hash(path string) (string, error) {
	if sum, ok := e.hashes[path]; ok {
		return sum, nil
	}
	sum, _, err := files.Hash(filepath.Join(e.opts.Root, path))
	if err != nil {
		return "", err
	}
	e.hashes[path] = sum
	return sum, nil
}

// RunOptions modify a run.
type RunOptions struct {
	// Force reruns these stages even if fresh, and with them every stage
	// downstream of them in the run.
	Force []string
	// Wait waits for another run's lock instead of failing at once.
	Wait bool
	// FailAfterRows makes the named stage's table writes fail after that
	// many rows: a test hook for interrupted stages.
	FailAfterRows map[string]int64

	// unitOrder, when set, reorders the indices of the units a stage
	// computes: a test hook.
	unitOrder func(missing []int)
	// restoreOnly restores stale stages from the run cache and runs none:
	// a stage not in the cache is skipped (census pull).
	restoreOnly bool
}

// StageResult is what a run did with one stage.
type StageResult struct {
	Stage string `json:"stage"`
	Ran   bool   `json:"ran"`
	// Skipped says Run returned Skip: nothing was published.
	Skipped bool `json:"skipped,omitempty"`
	// Restored says the outputs came from the run cache: no stage code ran.
	Restored bool              `json:"restored,omitempty"`
	Reason   string            `json:"reason,omitempty"`
	Wall     time.Duration     `json:"-"`
	CPU      time.Duration     `json:"-"`
	Metrics  []pipeline.Metric `json:"metrics,omitempty"`
}

// Run brings the target stages (all when none are named) up to date,
// running stale upstream stages first. It stops at the first failure; a
// failed stage publishes nothing.
func (e *Engine) Run(ctx context.Context, targets []string, ro RunOptions) ([]StageResult, error) {
	want, forced, err := e.selection(targets, ro.Force)
	if err != nil {
		return nil, err
	}
	release, err := store.Lock(e.opts.Root, ro.Wait)
	if err != nil {
		return nil, err
	}
	defer release()
	e.removeTemporaries()
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	e.hashes = map[string]string{}
	stale := map[string]string{}
	skipped := map[string]bool{} // stages skipped by this run
	var results []StageResult
	for _, s := range e.order {
		if !want[s] {
			continue
		}
		c := e.checkForced(m, s, stale, forced)
		if c.fresh {
			e.log.Info("up to date", "stage", s.Name)
			results = append(results, StageResult{Stage: s.Name})
			e.appendRunLog(s, c, StageResult{Stage: s.Name})
			continue
		}
		if c.fingerprint == "" {
			// Its inputs cannot be known: an upstream stage was skipped,
			// or a source file is missing.
			if _, ok := skipped[c.upstream]; ok {
				e.log.Warn("stage "+s.Name+" skipped: "+c.reason, "stage", s.Name)
				stale[s.Name] = c.reason // and so is what depends on it
				skipped[s.Name] = true
				results = append(results, StageResult{Stage: s.Name, Skipped: true, Reason: c.reason})
				continue
			}
			return results, fmt.Errorf("stage %s cannot run: %s", s.Name, c.reason)
		}
		if !forced[s] {
			if rec, ok := e.cached(s, c.fingerprint); ok {
				res, err := e.restoreStage(ctx, m, s, c, rec)
				if err == nil {
					e.log.Info("restored from cache", "stage", s.Name, "reason", c.reason)
					e.appendRunLog(s, c, res)
					results = append(results, res)
					continue
				}
				if ctx.Err() != nil {
					return results, fmt.Errorf("stage %s failed: %w", s.Name, ctx.Err())
				}
				e.log.Warn("cannot restore from the run cache: running the stage", "stage", s.Name, "err", err)
			}
		}
		if ro.restoreOnly {
			stale[s.Name] = c.reason
			skipped[s.Name] = true
			results = append(results, StageResult{Stage: s.Name, Skipped: true, Reason: c.reason})
			continue
		}
		e.log.Info("running", "stage", s.Name, "reason", c.reason)
		res, err := e.runStage(ctx, m, s, c, forced[s], ro)
		if errors.Is(err, pipeline.ErrSkipped) && ctx.Err() == nil {
			e.log.Warn("stage "+s.Name+" "+err.Error(), "stage", s.Name)
			stale[s.Name] = err.Error()
			skipped[s.Name] = true
			results = append(results, StageResult{Stage: s.Name, Skipped: true, Reason: err.Error()})
			continue
		}
		if err != nil {
			return results, fmt.Errorf("stage %s failed: %w", s.Name, err)
		}
		c.fingerprint = m.Stages[s.Name].Fingerprint // taken once its units went into its bundle
		e.appendRunLog(s, c, res)
		results = append(results, res)
	}
	return results, nil
}

// checkForced is check for a run that forces the stages in forced: a
// forced stage is stale, and so is every stage downstream of one (which
// checkForced adds to forced).
func (e *Engine) checkForced(m *store.Manifest, s *pipeline.Stage, stale map[string]string, forced map[*pipeline.Stage]bool) checked {
	c := e.check(m, s, stale)
	for _, r := range s.Requires {
		if forced[r] {
			forced[s] = true
			c.reason = "upstream stage " + r.Name + " was forced"
		}
	}
	if forced[s] && c.fresh {
		c.fresh, c.reason = false, "forced"
	}
	return c
}

// selection returns the stages a run of targets brings up to date (all
// when none are named; else the targets and everything upstream of them)
// and the stages force names.
func (e *Engine) selection(targets, force []string) (want, forced map[*pipeline.Stage]bool, err error) {
	want = map[*pipeline.Stage]bool{}
	if len(targets) == 0 {
		for _, s := range e.order {
			want[s] = true
		}
	}
	var mark func(s *pipeline.Stage)
	mark = func(s *pipeline.Stage) {
		if !want[s] {
			want[s] = true
			for _, r := range s.Requires {
				mark(r)
			}
		}
	}
	for _, name := range targets {
		s, err := e.Stage(name)
		if err != nil {
			return nil, nil, err
		}
		mark(s)
	}
	forced = map[*pipeline.Stage]bool{}
	for _, name := range force {
		s, err := e.Stage(name)
		if err != nil {
			return nil, nil, err
		}
		forced[s] = true
	}
	return want, forced, nil
}

// passSpec is the pass of stage s with the inputs c found in manifest m.
func (e *Engine) passSpec(m *store.Manifest, s *pipeline.Stage, c checked) pipeline.PassSpec {
	spec := pipeline.PassSpec{
		Stage: s, Config: e.settings.Stage[s.Name], Log: e.log.With("stage", s.Name),
		Root: e.opts.Root, Fingerprint: c.fingerprint, ConfigJSON: e.settings.Canonical[s.Name],
		Inputs: map[string]pipeline.PassInput{}, Progress: e.opts.Progress,
	}
	if seed, ok := e.settings.Globals["seed"].(uint64); ok && contains(s.Globals, "seed") {
		spec.Seed = seed
	}
	for name, sum := range c.inputs {
		entry, _ := m.Artifact(name)
		spec.Inputs[name] = pipeline.PassInput{SHA256: sum, Entry: entry}
	}
	return spec
}

// newPass is the pass of stage s with the inputs c found in manifest m.
func (e *Engine) newPass(ctx context.Context, m *store.Manifest, s *pipeline.Stage, c checked) *pipeline.PassControl {
	return pipeline.NewPass(ctx, e.passSpec(m, s, c))
}

// publishing is held (read-locked) by every engine of the process while it
// renames a stage's outputs into place and writes the manifest.
var publishing sync.RWMutex

// StopPublishing waits until no engine of this process is publishing a
// stage (renaming its outputs into place, writing the manifest) and keeps
// any from starting: a process about to exit mid-run calls it, so that it
// never leaves a stage half-published. There is no way back.
func StopPublishing() { publishing.Lock() }

// runStage runs one stage (its units first, if it has any) and publishes
// its outputs and manifest entries. A panic in the stage's code fails the
// stage, with the stack in the log.
func (e *Engine) runStage(ctx context.Context, m *store.Manifest, s *pipeline.Stage, c checked, forced bool, ro RunOptions) (res StageResult, err error) {
	spec := e.passSpec(m, s, c)
	spec.FailAfterRows = ro.FailAfterRows[s.Name]
	pc := pipeline.NewPass(ctx, spec)
	start, cpu0 := time.Now(), pipeline.ProcessCPU()
	defer func() {
		if r := recover(); r != nil {
			err = e.panicked(s.Name, "Run", r)
		}
		if err != nil {
			pc.Discard()
		}
	}()
	if s.Units != nil {
		if err := e.prepareUnits(ctx, pc, c.unitKey, forced, ro.unitOrder); err != nil {
			return res, err
		}
		// The units just computed went into the bundle: the outputs are
		// made from its new bytes, and carry the fingerprint that names them.
		if c.bundles != nil {
			for path := range c.bundles {
				delete(e.hashes, path)
			}
			bundles, err := e.bundlesOf(s)
			if err != nil {
				return res, err
			}
			c.bundles = bundles
			c.fingerprint = e.fingerprint(s, c.inputs, c.sources, c.tools, bundles)
			pc.SetFingerprint(c.fingerprint)
		}
	}
	if err := s.Run(pc.Pass()); err != nil {
		return res, err
	}
	publishing.RLock()
	defer publishing.RUnlock()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	entries, err := pc.Publish()
	if err != nil {
		return res, err
	}
	var outs []string
	for _, en := range entries {
		outs = append(outs, en.Name)
		e.hashes[en.Path] = en.SHA256
	}
	m.Record(s.Name, store.StageRecord{
		Version: s.Version, Fingerprint: c.fingerprint, Config: e.settings.Canonical[s.Name],
		Inputs: c.inputs, Outputs: outs, Sources: c.sources, Tools: c.tools, Bundles: c.bundles, Code: BuildCode(),
	}, entries)
	if err := m.Write(e.opts.Root); err != nil {
		return res, err
	}
	store.CacheStore(e.opts.Root, e.log, s.Name, m.Stages[s.Name], entries)
	store.PruneUnits(e.opts.Root, e.log, s.Name, c.unitKey)
	return StageResult{Stage: s.Name, Ran: true, Reason: c.reason, Wall: time.Since(start),
		CPU: pipeline.ProcessCPU() - cpu0, Metrics: pc.Metrics()}, nil
}

// restoreStage puts the cached outputs of s for fingerprint c.fingerprint
// in place and records them in the manifest, as a run would have.
func (e *Engine) restoreStage(ctx context.Context, m *store.Manifest, s *pipeline.Stage, c checked, rec *store.CacheRecord) (StageResult, error) {
	start := time.Now()
	publishing.RLock()
	defer publishing.RUnlock()
	if err := ctx.Err(); err != nil {
		return StageResult{}, err
	}
	if err := store.Restore(e.opts.Root, rec); err != nil {
		return StageResult{}, err
	}
	for _, a := range rec.Artifacts {
		e.hashes[a.Path] = a.SHA256
	}
	m.Record(s.Name, rec.Record, rec.Artifacts)
	if err := m.Write(e.opts.Root); err != nil {
		return StageResult{}, err
	}
	return StageResult{Stage: s.Name, Restored: true, Reason: c.reason, Wall: time.Since(start)}, nil
}

func contains(list []string, x string) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}

// removeTemporaries deletes the temporary files of interrupted runs. It
// runs under the lock, so no live run owns them.
func (e *Engine) removeTemporaries() {
	dirs := map[string]bool{filepath.Dir(store.ManifestPath): true}
	for _, s := range e.order {
		for _, o := range s.Outputs {
			dirs[filepath.Dir(o.Path)] = true
		}
	}
	for dir := range dirs {
		matches, _ := filepath.Glob(filepath.Join(e.opts.Root, dir, ".*.tmp-*"))
		for _, path := range matches {
			os.Remove(path)
		}
	}
}

func (e *Engine) appendRunLog(s *pipeline.Stage, c checked, res StageResult) {
	metrics := map[string]any{}
	for _, mt := range res.Metrics {
		metrics[mt.Name] = mt.Value
	}
	action := "up to date"
	switch {
	case res.Ran:
		action = "ran"
	case res.Restored:
		action = "restored from cache"
	}
	line, _ := json.Marshal(map[string]any{
		"time": time.Now().UTC().Format(time.RFC3339), "stage": s.Name, "action": action,
		"reason": res.Reason, "fingerprint": c.fingerprint, "wall_seconds": res.Wall.Seconds(),
		"cpu_seconds": res.CPU.Seconds(), "gomaxprocs": runtime.GOMAXPROCS(0), "metrics": metrics,
	})
	f, err := os.OpenFile(filepath.Join(e.opts.Root, store.RunLogPath), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		e.log.Warn("cannot write the run log", "err", err)
		return
	}
	defer f.Close()
	f.Write(append(line, '\n'))
}

// Root is the project root the engine works on.
func (e *Engine) Root() string { return e.opts.Root }

// cached returns the run cache record of stage s under fingerprint, if the
// cache holds it whole (see store.Cached).
func (e *Engine) cached(s *pipeline.Stage, fingerprint string) (*store.CacheRecord, bool) {
	outputs := map[string]string{} // name -> path
	for _, o := range s.Outputs {
		outputs[o.Name] = o.Path
	}
	return store.Cached(e.opts.Root, s.Name, outputs, fingerprint)
}

// BuildCode returns the commit this binary was built from, from the
// version control information Go stamps into binaries built in a git
// checkout; nil for test binaries and builds outside one.
func BuildCode() *store.CodeVersion {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	var c store.CodeVersion
	for _, st := range info.Settings {
		switch st.Key {
		case "vcs.revision":
			c.Commit = st.Value
		case "vcs.modified":
			c.Modified = st.Value == "true"
		}
	}
	if c.Commit == "" {
		return nil
	}
	return &c
}

// Log is the logger of the engine and its stages.
func (e *Engine) Log() *slog.Logger { return e.log }

// Project is the engine's project as package inspect reads it: the root
// and the stages in dependency order.
func (e *Engine) Project() inspect.Project {
	return inspect.Project{Root: e.opts.Root, Stages: e.order}
}
