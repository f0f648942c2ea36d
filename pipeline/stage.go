// Package pipeline is the engine of sudoku-census: a graph of stages, each a
// value that names the stages it reads from, the configuration it uses and
// the artifacts it writes, in the manner of golang.org/x/tools/go/analysis.
//
// A stage is fresh when every output exists, hashes to what the manifest
// recorded, and was made with the fingerprint the stage would compute now:
//
//	fingerprint = SHA-256(stage name, stage Version, canonical JSON of the
//	              stage's config subtree and globals, SHA-256 of every input)
//
// Anything else is stale, with a reason, and `census run` rebuilds it.
package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
)

// ToolVersion is recorded in every artifact's provenance. It is not part of
// any fingerprint: a new tool version alone does not make artifacts stale.
const ToolVersion = "sudoku-census 0.1.0"

// Stage is one step of the computation.
type Stage struct {
	// Name is the stage's name on the command line and its config key.
	Name string
	// Doc is a one-line description for `census dag` and README.md.
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
	metrics     []Metric
	progress    *progressSink
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

// Context is cancelled when the run is interrupted.
func (p *Pass) Context() context.Context { return p.ctx }

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

// Report records a metric for the run log and the timing report.
func (p *Pass) Report(name string, value any) {
	p.metrics = append(p.metrics, Metric{Name: name, Value: value})
}
