package sampling

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walks"
)

// MaxSide is the largest grid side N = R·C of a shape key: the stack
// estimator's (walks.MaxStacksSide, box 6×6), one beyond the grids' text
// form (grid.MaxTextN). Which estimators run on a side beyond the text
// form is the stage's rule: in the knuth stage stackshybrid only,
// in the importance stage none.
const MaxSide = walks.MaxStacksSide

// ParseShapeKey reads a shape key (or the shape of a unit id) written as
// grid.Shape.String writes it, with N ≤ MaxSide.
func ParseShapeKey(key string) (grid.Shape, error) { return grid.ParseShapeUpTo(key, MaxSide) }

// CompareShapes orders box shapes by grid side N = R·C, then by box height
// R (2x2, 2x3, 3x2, 2x4, 4x2, 3x3, …): the order of every table of the
// project. It returns a negative number when a comes first, 0 when a = b,
// as slices.SortFunc wants.
func CompareShapes(a, b grid.Shape) int {
	if a.N() != b.N() {
		return a.N() - b.N()
	}
	return a.R - b.R
}

// ShapeLess reports whether a comes before b in the order of CompareShapes,
// for sort.Slice.
func ShapeLess(a, b grid.Shape) bool { return CompareShapes(a, b) < 0 }

// ShapeKey returns the shape a map key names: key must be a shape exactly
// as grid.Shape.String writes it, so that one shape has one key ("3x3", not
// "03x3", "3X3" or " 3x3"). mapKey is the dotted config key of the map
// ("knuth.hybrid_k") and value the key's value, for the error, a
// *pipeline.ConfigError in one line naming both and the allowed form.
func ShapeKey(mapKey, key string, value any) (grid.Shape, error) {
	s, err := ParseShapeKey(key)
	if err != nil || s.String() != key {
		return grid.Shape{}, pipeline.Invalid(mapKey+"."+key, value, shapeForm)
	}
	return s, nil
}

// shapeForm is the allowed form of a shape key.
var shapeForm = fmt.Sprintf("keys are box shapes written RxC as in 3x3 (R, C ≥ 1 in decimal without sign or leading zeros, lower-case x, R·C ≤ %d)", MaxSide)

// CheckShapeKeys checks that every key of m, the map under the dotted
// config key mapKey, is a shape in canonical form (see ShapeKey). Keys are
// checked in sorted order, so the error names the same key every time.
func CheckShapeKeys[V any](mapKey string, m map[string]V) error {
	for _, key := range sortedKeys(m) {
		if _, err := ShapeKey(mapKey, key, m[key]); err != nil {
			return err
		}
	}
	return nil
}

// CheckSamples checks samples, the map under the dotted config key mapKey
// from shapes to sample counts: it is not empty, every count is ≥ 1 and
// every key is a shape in canonical form (see ShapeKey). With variants
// non-nil a key may also be "RxC/variant", the count of one listed variant:
// beside a key RxC it overrides that key for the variant (0: the variant
// does not run on RxC); alone it makes the variant one of those run on RxC
// (see Runs). With variants nil such
// keys are rejected. The first bad key (in sorted order) gives a
// *pipeline.ConfigError in one line.
func CheckSamples(mapKey string, samples map[string]int64, variants []string) error {
	form := "a map from box shape RxC to a sample count ≥ 1"
	if variants != nil {
		form = "a map from box shape RxC (or RxC/variant) to a sample count ≥ 1"
	}
	if len(samples) == 0 {
		return pipeline.Invalid(mapKey, samples, form)
	}
	for _, key := range sortedKeys(samples) {
		n := samples[key]
		shape, variant, per := strings.Cut(key, "/")
		if per && variants == nil {
			return pipeline.Invalid(mapKey+"."+key, n, shapeForm+", with no /variant")
		}
		if _, err := ShapeKey(mapKey, shape, n); err != nil {
			if per {
				return pipeline.Invalid(mapKey+"."+key, n, shapeForm+", optionally followed by /variant")
			}
			return err
		}
		if per && !slices.Contains(variants, variant) {
			return pipeline.Invalid(mapKey+"."+key, n, fmt.Sprintf("a RxC/variant key names a variant among %s", strings.Join(variants, ", ")))
		}
		if n < 1 && !(per && n == 0) {
			return pipeline.Invalid(mapKey+"."+key, n, "an integer ≥ 1 (a RxC/variant key may be 0: the variant does not run on RxC)")
		}
	}
	return nil
}

// CheckBlocks checks that the stage's block size (config key
// <prefix>.block_size) and every sample count of <prefix>.samples make a
// plan within montecarlo's limits (MaxBlockSize, MaxBlocks), so that no
// size of the plan overflows and no run is cut short: a count that would
// need more blocks is refused, naming the largest one allowed.
func CheckBlocks(prefix string, blockSize int, samples map[string]int64) error {
	if blockSize < 1 || blockSize > montecarlo.MaxBlockSize {
		return pipeline.Invalid(prefix+".block_size", blockSize, fmt.Sprintf("an integer from 1 to %d", montecarlo.MaxBlockSize))
	}
	for _, key := range sortedKeys(samples) {
		if _, err := montecarlo.Blocks(samples[key], blockSize); err != nil {
			return pipeline.Invalid(prefix+".samples."+key, samples[key], fmt.Sprintf(
				"an integer ≥ 1 and at most %d (%d blocks of %s.block_size = %d samples)",
				montecarlo.MaxSamples(blockSize), montecarlo.MaxBlocks, prefix, blockSize))
		}
	}
	return nil
}

// Shapes returns the shapes the keys of samples name (RxC or RxC/variant),
// each once, in the order of CompareShapes. samples must have passed
// CheckSamples.
func Shapes(samples map[string]int64) []grid.Shape {
	var out []grid.Shape
	for key := range samples {
		shape, _, _ := strings.Cut(key, "/")
		s, _ := ParseShapeKey(shape)
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, CompareShapes)
	return out
}

// Run is one shape and variant of a Monte Carlo stage.
type Run struct {
	Shape   grid.Shape
	Variant string
}

// Runs returns what a stage with these samples and variants runs: every
// shape of Shapes in order, with each of variants, in order, that has a
// key: RxC (every variant) or RxC/variant (that one). So {4x4: 1000} runs
// every variant on 4×4, {5x5/se: 200} only se on 5×5.
func Runs(samples map[string]int64, variants []string) []Run {
	var out []Run
	for _, s := range Shapes(samples) {
		for _, v := range variants {
			if Count(samples, s, v) > 0 {
				out = append(out, Run{s, v})
			}
		}
	}
	return out
}

// Count returns the number of samples of variant on shape s: the value of
// the key "RxC/variant" if samples has it, else that of "RxC" (0 when
// neither is there: the variant does not run on s).
func Count(samples map[string]int64, s grid.Shape, variant string) int64 {
	if n, ok := samples[s.String()+"/"+variant]; ok {
		return n
	}
	return samples[s.String()]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
