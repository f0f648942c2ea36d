package pipeline

import (
	"context"
	"io"
	"log/slog"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// What follows is for drivers, the programs that run stages (the engine,
// pipeline/engine), not for stages: a driver makes each pass with NewPass,
// gives Run the PassControl's Pass, and publishes or discards what Run
// wrote. A stage never sees a PassControl, so it cannot publish its own
// outputs.

// PassSpec is what a driver knows of a pass of a stage before the stage
// runs.
type PassSpec struct {
	Stage  *Stage
	Config Config
	// Seed is the global seed, set when the stage lists "seed" in Globals.
	Seed uint64
	Log  *slog.Logger
	// Root is the project root; outputs are written below it.
	Root string
	// Fingerprint is the stage's fingerprint for this pass, and ConfigJSON
	// the canonical JSON of its configuration: both go into the outputs'
	// provenance.
	Fingerprint string
	ConfigJSON  []byte
	// Inputs are the artifacts of the stages it requires, by name.
	Inputs map[string]PassInput
	// Progress is where progress bars are drawn: a terminal, or nil.
	Progress io.Writer
	// FailAfterRows, when positive, makes Table.Write fail after writing
	// that many rows: a test hook for interrupted stages.
	FailAfterRows int64
}

// PassInput is an artifact a pass reads: its SHA-256, as the stage's
// fingerprint hashed it, and its manifest entry.
type PassInput struct {
	SHA256 string
	Entry  ArtifactEntry
}

// PassControl is a driver's hold on one pass.
type PassControl struct{ p *Pass }

// NewPass returns the control of a pass of spec.Stage, whose context is
// ctx.
func NewPass(ctx context.Context, spec PassSpec) *PassControl {
	p := &Pass{
		Stage: spec.Stage, Config: spec.Config, Seed: spec.Seed, Log: spec.Log,
		ctx: ctx, root: spec.Root, fingerprint: spec.Fingerprint, configJSON: spec.ConfigJSON,
		inputs: map[string]inputArtifact{}, written: map[string]*pending{}, metrics: &metricLog{},
		progress: &progressSink{out: spec.Progress}, failAfterRows: spec.FailAfterRows,
	}
	for name, in := range spec.Inputs {
		p.inputs[name] = inputArtifact{root: spec.Root, sha256: in.SHA256, entry: in.Entry}
	}
	return &PassControl{p: p}
}

// Pass is the pass that Run and Units.List get.
func (c *PassControl) Pass() *Pass { return c.p }

// ForUnit is the pass a Units.Compute call gets: the same stage,
// configuration and inputs, with the unit's context and id.
func (c *PassControl) ForUnit(ctx context.Context, id string) *Pass { return c.p.forUnit(ctx, id) }

// SetFingerprint replaces the pass's fingerprint before Run writes any
// output: the engine's, once the units computed have gone into the
// stage's bundle (whose bytes the fingerprint hashes).
func (c *PassControl) SetFingerprint(fp string) { c.p.fingerprint = fp }

// SetUnits gives the pass its units, whose results the driver fills in
// before Run: what Pass.UnitIDs and Pass.UnitResults return.
func (c *PassControl) SetUnits(u *store.UnitSet) { c.p.units = u }

// Publish syncs and renames every output Run wrote into place and returns
// their manifest entries, sorted by name; it fails when Run did not write
// every output the stage declares.
func (c *PassControl) Publish() ([]ArtifactEntry, error) { return c.p.publish() }

// Discard removes every temporary file of a pass that failed.
func (c *PassControl) Discard() { c.p.discard() }

// Metrics returns the metrics the pass reported, in order.
func (c *PassControl) Metrics() []Metric { return c.p.metrics.all() }
