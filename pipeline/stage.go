// Package pipeline is what a stage of sudoku-census is written against: a
// stage is a value (Stage) that names the stages it reads from, its
// configuration and the artifacts it writes, in the manner of
// golang.org/x/tools/go/analysis, and its Run gets a Pass through which it
// reads its inputs (Table.Read, File.Read), writes its outputs (Table.Write,
// File.Write), reports metrics and progress, and merges its units
// (Pass.UnitResults). A stage sees nothing of how it is run.
//
// The contract: Run reads only the artifacts of the stages it Requires,
// its configuration and its Sources; it writes every one of its Outputs
// exactly once and nothing else; an output is published (renamed into
// place and recorded) only when Run returns nil. A unit's result is a pure
// function of the pass and the unit's id. Bump Stage.Version with any
// change that changes an output's bytes.
//
// The programs that run stages (the engine, pipeline/engine) use the few
// names of driver.go: NewPass, PassSpec and PassControl. The packages below
// this one, pipeline/store and pipeline/citation, know nothing of stages;
// those above it (config, executor, inspect, remote, engine, cli) drive
// them.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"

	"github.com/sudoku-census/sudoku-census/pipeline/citation"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// Stage is one step of the computation.
type Stage struct {
	// Name is the stage's name on the command line and its config key.
	Name string
	// Doc is a one-line description, for `census dag` and README's list.
	Doc string
	// Version is the code version. Bump it in the same commit as any change
	// to the stage (or to code it calls) that changes its output; it is part
	// of the fingerprint, so the bump makes old artifacts stale.
	Version int
	// Requires lists the stages whose artifacts Run reads.
	Requires []*Stage
	// NewConfig returns the stage's configuration with its defaults set: a
	// pointer to a struct whose fields carry `mapstructure` and `json` tags
	// naming the keys under the stage's subtree (`<Name>.<key>`). Nil when
	// the stage has no configuration.
	NewConfig func() Config
	// Globals names the top-level keys the stage reads (only "seed" today);
	// they enter its fingerprint like its own subtree.
	Globals []string
	// Outputs are the artifacts the stage writes; every one must be written
	// by Run for the stage to succeed.
	Outputs []Output
	// Run computes the outputs. It reads inputs with Table.Read and writes
	// outputs with Table.Write or File.Write; the engine publishes them
	// atomically only when Run returns nil.
	Run func(p *Pass) error
	// Sources lists files below the project root, written by hand, that
	// Run reads besides its input artifacts (the paper's text): their
	// SHA-256 enters the fingerprint, so editing one makes the stage stale.
	Sources []string
	// Tools, when set, returns the versions of the external programs Run
	// calls, by name (e.g. the first line of `pdflatex --version`): they
	// enter the fingerprint, so another version of a program makes the
	// stage stale, as the outputs' bytes may change with it. The engine
	// calls it once per process.
	Tools func() map[string]string
	// Headlines, when set, returns the stage's headline numbers (exact
	// counts, estimates, half-widths) read from its artifacts below root,
	// each under a name that matches it across runs: what census diff
	// compares.
	Headlines func(root string) ([]Headline, error)
	// Units, when set, splits the stage's work into units that the engine
	// computes (and keeps, and may send to a cluster) before Run, which
	// merges their results with Pass.UnitResults. Nil for a stage that does
	// all its work in Run.
	Units *Units
}

// ErrSkipped, wrapped by Skip, is what a Run returns when a tool it needs
// is missing and the user may do without its outputs (TeX for the paper):
// the stage publishes nothing and stays stale, the run goes on with the
// stages that do not depend on it, and `census run` still succeeds.
var ErrSkipped = errors.New("skipped")

// Skip returns an error that skips the stage, saying why in one line.
func Skip(why string) error { return fmt.Errorf("%w: %s", ErrSkipped, why) }

// Units is a stage's work split into a deterministic list of units. A
// unit's result is a pure function of the pass (configuration, inputs,
// fingerprint) and the unit's id, serialised as a few bytes; Run merges the
// results in List order, so the artifacts are the same bytes whatever order,
// machine or process computed the units.
//
// Finished units are kept under data/units/<stage>/<fingerprint>/<id>: a
// rerun with the same fingerprint computes only the missing ones. Units of
// other fingerprints are removed when the stage publishes, and by `census
// gc`. `census run --executor slurm` computes the missing units as one
// Slurm array job.
type Units struct {
	// List returns the unit ids, deterministic for the pass's
	// configuration and inputs. An id is 1-100 characters from A-Z, a-z,
	// 0-9, '.', '_' and '-', starts with a letter or a digit, does not
	// start with "slurm" and is unique in the list. List should be cheap:
	// `census status` calls it to count the units done.
	List func(p *Pass) ([]string, error)
	// Compute computes one unit. Its result must depend only on the pass
	// and id. It may run on several goroutines at once (see Workers), in
	// another process or on another machine; it reads inputs with
	// Table.Read, must not write artifacts, and should return
	// p.Context().Err() soon after the context is cancelled. Results are
	// kept in memory until Run has merged them: keep them small.
	Compute func(p *Pass, id string) ([]byte, error)
	// Workers is how many units one process computes at once: 0 means
	// GOMAXPROCS, 1 suits units that use every core themselves.
	Workers int
	// Bundle, when set, keeps the results of the long units it Holds in a
	// file committed with the repository (see Bundle). A process computes
	// the units the bundle holds after the others, one at a time, so that
	// each one's CPU time is measured alone: a bundled unit should use
	// every core itself.
	Bundle *Bundle
	// MoreBundles are further bundles of the stage, kept as Bundle is, each
	// in its own file: no unit may be held by two of them (BundleOf takes
	// the first that holds it).
	MoreBundles []*Bundle
}

// Bundles returns Bundle and MoreBundles, the nil ones left out.
func (u *Units) Bundles() []*Bundle {
	var out []*Bundle
	for _, b := range append([]*Bundle{u.Bundle}, u.MoreBundles...) {
		if b != nil {
			out = append(out, b)
		}
	}
	return out
}

// BundleOf returns the bundle that holds unit id, nil when none does.
func (u *Units) BundleOf(id string) *Bundle {
	for _, b := range u.Bundles() {
		if b.Holds(id) {
			return b
		}
	}
	return nil
}

func (s *Stage) String() string { return s.Name }

// Config is a stage configuration. Validate checks ranges and returns an
// error made with Invalid for the first bad key.
type Config interface {
	Validate() error
}

// ConfigError is a bad configuration value: the key, the value and what is
// allowed, in one line.
type ConfigError struct {
	Key     string
	Value   any
	Allowed string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("config key %s: value %v is not allowed: %s", e.Key, e.Value, e.Allowed)
}

// Invalid returns a *ConfigError. key is the full dotted key, for example
// "knuth.samples".
func Invalid(key string, value any, allowed string) error {
	return &ConfigError{Key: key, Value: value, Allowed: allowed}
}

// Output is an artifact: a named file below the project root.
type Output struct {
	// Name is unique across the pipeline, for example "bands".
	Name string
	// Path is relative to the project root, for example "data/bands.parquet".
	Path string
	// Doc says what one row (or the file) is.
	Doc string
	// MachineColumns are the columns of a Parquet artifact whose values
	// depend on the machine that computed them (CPU time, memory): a lock
	// pins the artifact's bytes and, apart, a hash of its other columns
	// (HashColumnsExcept), and verify --lock takes a difference in these
	// columns only for a match, saying so.
	MachineColumns []string
}

// Pass is what Run gets: the stage's configuration, its inputs and the
// means to write outputs, report progress and log.
type Pass struct {
	Stage  *Stage
	Config Config
	// Seed is the global seed, set when the stage lists "seed" in Globals.
	Seed uint64
	Log  *slog.Logger

	ctx         context.Context
	root        string
	fingerprint string
	configJSON  []byte
	inputs      map[string]inputArtifact // by artifact name
	written     map[string]*pending      // by artifact name
	metrics     *metricLog
	progress    *progressSink
	// units holds the stage's unit results once the engine has them; unit
	// is the id of the unit a Compute call's copy of the pass computes.
	units *store.UnitSet
	unit  string
	// failAfterRows, when positive, makes Table.Write fail after writing
	// that many rows: a test hook for interrupted stages.
	failAfterRows int64
}

// inputArtifact is an artifact of a required stage.
type inputArtifact struct {
	root   string
	sha256 string
	entry  ArtifactEntry
}

// Inputs returns the manifest entries of every artifact the stage reads
// (the outputs of the stages it Requires), sorted by path: what a report
// cites. Their hashes are part of the stage's fingerprint.
func (p *Pass) Inputs() []ArtifactEntry {
	var out []ArtifactEntry
	for _, in := range p.inputs {
		out = append(out, in.entry)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// provenance returns what the named output records about its making.
func (p *Pass) provenance(artifact string) Provenance {
	inputs := map[string]string{}
	for name, in := range p.inputs {
		inputs[name] = in.sha256
	}
	return Provenance{
		Artifact: artifact, Stage: p.Stage.Name, Version: p.Stage.Version,
		Fingerprint: p.fingerprint, Config: p.configJSON, Inputs: inputs, Tool: ToolVersion,
	}
}

// Context is cancelled when the run is interrupted (Ctrl-C, SIGTERM) and,
// within Units.Compute, when another unit has failed.
func (p *Pass) Context() context.Context { return p.ctx }

// Root is the project root, for reading the stage's Sources; artifacts are
// read with Table.Read and File.Read.
func (p *Pass) Root() string { return p.root }

// ConfigOf returns the pass's configuration as *T, the type the stage's
// NewConfig returns.
func ConfigOf[T any](p *Pass) *T {
	c, ok := any(p.Config).(*T)
	if !ok {
		panic(fmt.Sprintf("pipeline: stage %s: config is %T, not *%T", p.Stage.Name, p.Config, *new(T)))
	}
	return c
}

// Metric is a measurement a stage reports (samples per second, say). It
// goes to the run log and the timing report, never into an artifact.
type Metric struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// metricLog is a pass's metrics, safe for concurrent use (Units.Compute
// runs on several goroutines).
type metricLog struct {
	mu   sync.Mutex
	list []Metric
}

func (l *metricLog) all() []Metric {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Metric(nil), l.list...)
}

// Report records a metric for the run log and the timing report. It is
// safe for concurrent use; a report made by Units.Compute is kept only when
// the unit is computed by the process that runs the stage (not by a Slurm
// task, not when the unit was already done).
func (p *Pass) Report(name string, value any) {
	p.metrics.mu.Lock()
	defer p.metrics.mu.Unlock()
	p.metrics.list = append(p.metrics.list, Metric{Name: name, Value: value})
}

// ArtifactEntry is one artifact in the manifest: what Pass.Inputs lists.
type ArtifactEntry = store.ArtifactEntry

// ToolVersion is recorded in every artifact's provenance. It is not part of
// any fingerprint: a new tool version alone does not make artifacts stale.
const ToolVersion = store.ToolVersion

// CitationPath is CITATION.cff, the file that names the release: a stage
// that reads it (the paper) lists it in its Sources.
const CitationPath = citation.Path

// ReadCitation reads and checks root/CITATION.cff (see citation.Read).
func ReadCitation(root string) (*citation.Citation, error) { return citation.Read(root) }

// UnitIDs returns the ids of the stage's units in List order (nil for a
// stage without Units).
func (p *Pass) UnitIDs() []string {
	if p.units == nil {
		return nil
	}
	return append([]string(nil), p.units.IDs...)
}

// UnitResults returns the result of every unit of the stage, in List order.
// The engine has computed (or found) them all before Run; Run merges them.
// The byte slices are the engine's: read them, do not modify them.
func (p *Pass) UnitResults() ([][]byte, error) {
	switch {
	case p.Stage.Units == nil:
		return nil, fmt.Errorf("stage %s asks for unit results but has no Units", p.Stage.Name)
	case p.unit != "":
		return nil, fmt.Errorf("stage %s: unit %s asks for unit results: only Run merges units", p.Stage.Name, p.unit)
	case p.units == nil:
		return nil, fmt.Errorf("stage %s: unit results are not ready", p.Stage.Name)
	}
	for i, r := range p.units.Results {
		if r == nil {
			return nil, fmt.Errorf("stage %s: unit %s has no result", p.Stage.Name, p.units.IDs[i])
		}
	}
	return append([][]byte(nil), p.units.Results...), nil
}

// UnitResultsByID is UnitResults keyed by unit id: for a stage whose merge
// looks units up by name rather than walking them in List order.
func (p *Pass) UnitResultsByID() (map[string][]byte, error) {
	results, err := p.UnitResults()
	if err != nil {
		return nil, err
	}
	byID := make(map[string][]byte, len(results))
	for i, id := range p.UnitIDs() {
		byID[id] = results[i]
	}
	return byID, nil
}

// forUnit is the pass a Compute call gets: the same stage, configuration
// and inputs, with the unit's context and id.
func (p *Pass) forUnit(ctx context.Context, id string) *Pass {
	q := *p
	q.ctx, q.unit, q.Log = ctx, id, p.Log.With("unit", id)
	return &q
}

// Headline is one headline number of a stage's artifacts (an exact count,
// an estimate, a half-width), named so that two runs can be matched:
// "3x3/mrv estimate". Stage.Headlines returns them; census diff compares.
type Headline struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}
