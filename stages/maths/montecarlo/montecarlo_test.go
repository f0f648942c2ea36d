package montecarlo

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// direct returns the mean and unbiased sample variance of xs computed with
// 1000-bit big.Floats, the reference for Moments.
func direct(xs []Value) (mean, variance *big.Float) {
	const prec = 1000
	sum := new(big.Float).SetPrec(prec)
	for _, x := range xs {
		sum.Add(sum, x.Float())
	}
	n := new(big.Float).SetPrec(prec).SetInt64(int64(len(xs)))
	mean = new(big.Float).SetPrec(prec).Quo(sum, n)
	ss := new(big.Float).SetPrec(prec)
	for _, x := range xs {
		d := new(big.Float).SetPrec(prec).Sub(x.Float(), mean)
		ss.Add(ss, d.Mul(d, d))
	}
	variance = ss.Quo(ss, new(big.Float).SetPrec(prec).SetInt64(int64(len(xs)-1)))
	return mean, variance
}

func relDiff(a, b *big.Float) float64 {
	d := new(big.Float).Sub(a, b)
	q, _ := d.Quo(d, b).Float64()
	return math.Abs(q)
}

// hugeSamples draws n samples with exponents spread over [lo, hi) and a
// fraction of zeros, the shape of Knuth samples.
func hugeSamples(n, lo, hi int, seed uint64) []Value {
	r := rand.New(rand.NewPCG(seed, 0))
	xs := make([]Value, n)
	for i := range xs {
		if r.IntN(3) == 0 {
			continue
		}
		xs[i] = Value{Frac: 0.5 + r.Float64()/2, Exp: lo + r.IntN(hi-lo)}
	}
	return xs
}

func TestMomentsMatchBigFloat(t *testing.T) {
	for _, c := range []struct{ lo, hi int }{{0, 10}, {320, 330}, {-50, 3000}, {-2000, -1900}} {
		xs := hugeSamples(5000, c.lo, c.hi, uint64(c.lo+7))
		var m Moments
		for _, x := range xs {
			m.Add(x, 3)
		}
		mean, variance := direct(xs)
		st := m.Stats()
		if d := relDiff(st.Estimate, mean); d > 1e-12 {
			t.Errorf("exponents [%d,%d): mean %s, want %s (rel diff %g)", c.lo, c.hi, st.Estimate.Text('g', 17), mean.Text('g', 17), d)
		}
		se := new(big.Float).Sqrt(new(big.Float).Quo(variance, big.NewFloat(5000)))
		if d := relDiff(st.StdError, se); d > 1e-9 {
			t.Errorf("exponents [%d,%d): std error %s, want %s (rel diff %g)", c.lo, c.hi, st.StdError.Text('g', 17), se.Text('g', 17), d)
		}
		if m.Work != 3*5000 || m.N != 5000 {
			t.Errorf("N %d work %d, want 5000 and 15000", m.N, m.Work)
		}
	}
}

func TestMergeMatchesSequential(t *testing.T) {
	xs := hugeSamples(3000, -40, 200, 3)
	var seq Moments
	for _, x := range xs {
		seq.Add(x, 1)
	}
	// Uneven pieces, including empty and all-zero ones.
	cuts := []int{0, 0, 1, 17, 17, 400, 1999, 3000}
	var merged Moments
	for i := 1; i < len(cuts); i++ {
		var part Moments
		for _, x := range xs[cuts[i-1]:cuts[i]] {
			part.Add(x, 1)
		}
		merged.Merge(part)
	}
	var zeros Moments
	zeros.Add(Value{}, 1)
	merged.Merge(zeros)
	seq.Add(Value{}, 1)
	a, b := merged.Stats(), seq.Stats()
	if merged.N != seq.N || merged.Nonzero != seq.Nonzero || merged.Work != seq.Work {
		t.Fatalf("counts differ: %+v vs %+v", merged, seq)
	}
	if d := relDiff(a.Estimate, b.Estimate); d > 1e-13 {
		t.Errorf("merged mean differs by %g", d)
	}
	if d := relDiff(a.StdError, b.StdError); d > 1e-10 {
		t.Errorf("merged std error differs by %g", d)
	}
}

func TestStatsSmall(t *testing.T) {
	var m Moments
	for _, x := range []uint64{0, 2, 4} {
		m.Add(One.MulInt(x), 1)
	}
	st := m.Stats()
	want := map[string]float64{"estimate": 2, "std_error": math.Sqrt(4.0 / 3), "ci_high": 2 + Z95*math.Sqrt(4.0/3)}
	got := map[string]*big.Float{"estimate": st.Estimate, "std_error": st.StdError, "ci_high": st.CIHigh}
	for k, w := range want {
		if g, _ := got[k].Float64(); math.Abs(g-w) > 1e-14*w {
			t.Errorf("%s = %v, want %v", k, g, w)
		}
	}
	if lo, _ := st.CILow.Float64(); lo != 0 {
		t.Errorf("ci_low = %v, want 0 (cut at 0)", lo)
	}
	if st.NonzeroFraction != 2.0/3 || st.RelVar != 1 || st.RelativeError != math.Sqrt(4.0/3)/2 {
		t.Errorf("nonzero %v relvar %v re %v", st.NonzeroFraction, st.RelVar, st.RelativeError)
	}
	if got := m.Log10MeanSquare(); math.Abs(got-math.Log10(20.0/3)) > 1e-14 {
		t.Errorf("log10 mean square %v, want %v", got, math.Log10(20.0/3))
	}
}

func TestValueArithmetic(t *testing.T) {
	// 36^700 overflows float64; MulInt must carry it in Exp.
	v := One
	want := big.NewInt(1)
	for range 700 {
		v = v.MulInt(36)
		want.Mul(want, big.NewInt(36))
	}
	if d := relDiff(v.Float(), new(big.Float).SetInt(want)); d > 1e-12 {
		t.Errorf("36^700 off by %g", d)
	}
	if got, w := v.Log10(), 700*math.Log10(36); math.Abs(got-w) > 1e-9 {
		t.Errorf("log10 %v, want %v", got, w)
	}
	if d := relDiff(ValueOfInt(want).Float(), new(big.Float).SetInt(want)); d > 1e-15 {
		t.Errorf("ValueOfInt off by %g", d)
	}
	q := v.Mul(ValueOfInt(big.NewInt(6))).Div(v)
	if f, _ := q.Float().Float64(); math.Abs(f-6) > 1e-14 {
		t.Errorf("v·6/v = %v", f)
	}
	if got := ValueOf128(1, 5).Float(); got.Cmp(big.NewFloat(0x1p64+5)) != 0 {
		t.Errorf("ValueOf128(1,5) = %v", got)
	}
	if s := Decimal(ValueOfInt(big.NewInt(288)).Float()); s != "2.88000000000000e+02" {
		t.Errorf("Decimal(288) = %s", s)
	}
}

func TestBlockSeed(t *testing.T) {
	base := Spec{Seed: 1, Stage: "knuth", Shape: "3x3", Variant: "mrv", BlockSize: 100}
	seen := map[[32]byte]string{}
	for name, s := range map[string]Spec{
		"base":    base,
		"seed":    {Seed: 2, Stage: "knuth", Shape: "3x3", Variant: "mrv"},
		"stage":   {Seed: 1, Stage: "importance", Shape: "3x3", Variant: "mrv"},
		"shape":   {Seed: 1, Stage: "knuth", Shape: "2x3", Variant: "mrv"},
		"variant": {Seed: 1, Stage: "knuth", Shape: "3x3", Variant: "random"},
		"concat":  {Seed: 1, Stage: "knuth3", Shape: "x3", Variant: "mrv"},
	} {
		k := s.BlockSeed(0)
		if other, dup := seen[k]; dup {
			t.Errorf("specs %s and %s share a seed", name, other)
		}
		seen[k] = name
	}
	if base.BlockSeed(1) == base.BlockSeed(0) {
		t.Error("blocks 0 and 1 share a seed")
	}
	// The hash is part of the artifact contract: pin it.
	if got := hex.EncodeToString(func() []byte { k := base.BlockSeed(5); return k[:] }()); got != pinnedSeed {
		t.Errorf("BlockSeed changed: %s", got)
	}
}

const pinnedSeed = "150a995a0e7dca7bfb3e7222c885301d30e524a30af2bd1ef5b0247afd10edcd" // computed independently with Python hashlib

func TestUniformIsUniform(t *testing.T) {
	src := rand.NewChaCha8([32]byte{1})
	for _, n := range []uint64{1, 3, 7, 36} {
		counts := make([]float64, n)
		const draws = 72000
		for range draws {
			counts[Uniform(src, n)]++
		}
		chi2 := 0.0
		exp := draws / float64(n)
		for _, c := range counts {
			chi2 += (c - exp) * (c - exp) / exp
		}
		// 99.9% quantile of χ² with 35 degrees of freedom is about 66.6.
		if chi2 > 67 {
			t.Errorf("n=%d: chi² %.1f, counts %v", n, chi2, counts)
		}
	}
	if NthBit(0b101100, 0) != 2 || NthBit(0b101100, 2) != 5 {
		t.Error("NthBit")
	}
}

func TestTraceCounts(t *testing.T) {
	got := TraceCounts(100)
	want := []int64{1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 63, 79, 100}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TraceCounts(100) = %v", got)
	}
}

// expSampler draws exponentially distributed samples scaled by 2^400, so
// moments rescale and blocks have different scales.
type expSampler struct{}

func (expSampler) Sample(src *rand.ChaCha8) (Value, int64, error) {
	u := float64(src.Uint64()>>11) / (1 << 53)
	if u < 0.3 {
		return Value{}, 1, nil
	}
	return Value{Frac: -math.Log(u), Exp: 400}, 2, nil
}

func TestRunIndependentOfWorkers(t *testing.T) {
	spec := Spec{Seed: 9, Stage: "test", Shape: "2x2", Variant: "exp", BlockSize: 64, TailSize: ParetoTailSize(1000)}
	var ref Result
	for _, workers := range []int{1, 2, 5} {
		res, err := Run(context.Background(), spec, 1000, workers, func() (Sampler, error) { return expSampler{}, nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		if workers == 1 {
			ref = res
			continue
		}
		if !reflect.DeepEqual(res, ref) {
			t.Errorf("workers=%d: result differs from workers=1", workers)
		}
	}
	var ns []int64
	for _, p := range ref.Trace {
		ns = append(ns, p.N)
	}
	want := []int64{1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 63, 64, 128, 192, 256, 320, 448, 512, 640, 832, 1000}
	if !reflect.DeepEqual(ns, want) {
		t.Errorf("trace at %v, want %v", ns, want)
	}
	// The mean of −ln U·1{U ≥ 0.3} is ∫_{0.3}^1 −ln u du = 0.7 + 0.3·ln 0.3.
	mean, _ := ref.Total.Stats().Estimate.Float64()
	if want := 0.7 + 0.3*math.Log(0.3); math.Abs(mean/0x1p400-want) > 0.05 {
		t.Errorf("mean %g·2^400, want about %g", mean/0x1p400, want)
	}
}

func TestZScore(t *testing.T) {
	var m Moments
	for _, x := range []float64{1, 3} { // mean 2, variance 2, std error 1
		m.Add(Value{Frac: x}, 1)
	}
	if z := m.Stats().ZScore(big.NewFloat(0.5)); math.Abs(z-1.5) > 1e-12 {
		t.Errorf("z = %v, want 1.5", z)
	}
	var same Moments
	same.Add(Value{Frac: 2}, 1)
	same.Add(Value{Frac: 2}, 1)
	if z := same.Stats().ZScore(big.NewFloat(2)); z != 0 {
		t.Errorf("equal samples at the value: z = %v, want 0", z)
	}
	if z := same.Stats().ZScore(big.NewFloat(3)); !math.IsInf(z, 1) {
		t.Errorf("equal samples off the value: z = %v, want +Inf", z)
	}
}

// boom panics at its 250th sample: in block 2 with one worker.
type boom struct{ n *int }

func (b boom) Sample(src *rand.ChaCha8) (Value, int64, error) {
	if *b.n++; *b.n == 250 {
		panic("sampler bug")
	}
	return One, 1, nil
}

// A panic in a sampler does not kill the process: Run returns it as an
// error naming the run, a *parallel.PanicError with the worker's stack.
func TestRunRecoversPanic(t *testing.T) {
	spec := Spec{Seed: 1, Stage: "test", Shape: "2x2", Variant: "boom", BlockSize: 100}
	for _, workers := range []int{1, 2} {
		_, err := Run(context.Background(), spec, 1000, workers, func() (Sampler, error) {
			return boom{n: new(int)}, nil
		}, nil)
		if err == nil {
			t.Fatalf("workers=%d: a panicking sampler gave no error", workers)
		}
		var pe *parallel.PanicError
		if !errors.As(err, &pe) || err.Error() != "test 2x2 boom: panic: sampler bug" || !strings.Contains(string(pe.StackTrace()), "montecarlo.boom.Sample") {
			t.Errorf("workers=%d: error %q, want the run, the panic value and the worker's stack", workers, err)
		}
	}
	// A panic while making the sampler is caught too.
	_, err := Run(context.Background(), spec, 10, 1, func() (Sampler, error) { panic("no sampler") }, nil)
	if err == nil || !strings.Contains(err.Error(), "panic: no sampler") {
		t.Errorf("panicking newSampler: error %v", err)
	}
}

// slow takes 20 ms per sample: a block of 1000 lasts 20 s.
type slow struct{}

func (slow) Sample(src *rand.ChaCha8) (Value, int64, error) {
	time.Sleep(20 * time.Millisecond)
	return One, 1, nil
}

// Cancelling the context stops a run within a second even in the middle of
// a long block, and Run returns the context's cause.
func TestRunStopsOnCancel(t *testing.T) {
	spec := Spec{Seed: 1, Stage: "test", Shape: "2x2", Variant: "slow", BlockSize: 1000}
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped by the test")
	time.AfterFunc(100*time.Millisecond, func() { cancel(stop) })
	start := time.Now()
	_, err := Run(ctx, spec, 4000, 2, func() (Sampler, error) { return slow{}, nil }, nil)
	if d := time.Since(start); d > time.Second {
		t.Errorf("Run took %v after cancellation at 100 ms", d)
	}
	if !errors.Is(err, stop) {
		t.Errorf("error %v, want the context's cause", err)
	}
}

// An error of newSampler stops the run and is returned.
func TestRunNewSamplerError(t *testing.T) {
	spec := Spec{Seed: 1, Stage: "test", Shape: "2x2", Variant: "none", BlockSize: 10}
	bad := errors.New("no such sampler")
	if _, err := Run(context.Background(), spec, 100, 2, func() (Sampler, error) { return nil, bad }, nil); !errors.Is(err, bad) {
		t.Errorf("error %v, want %v", err, bad)
	}
}

// The binary form of blocks is exact: what ReadBlock returns merges to the
// same bits as what RunBlock returned, extreme values included, and a cut
// or damaged form is an error.
func TestBlockBinaryRoundTrip(t *testing.T) {
	spec := Spec{Seed: 3, Stage: "test", Shape: "2x2", Variant: "exp", BlockSize: 50, TailSize: 8}
	var blocks []Block
	var enc []byte
	for b := range 7 {
		blk, err := RunBlock(context.Background(), spec, b, 50, expSampler{})
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, blk)
		enc = AppendBlock(enc, blk)
	}
	extreme := Block{Moments: Moments{N: math.MaxInt64, Nonzero: 1, Work: math.MaxInt64, Exp: math.MinInt32, Mean: math.SmallestNonzeroFloat64, M2: math.MaxFloat64},
		Prefix: []Moments{{N: 1, Exp: math.MaxInt32, Mean: math.Copysign(0, -1), M2: math.Inf(1)}, {}}}
	blocks = append(blocks, extreme, Block{})
	enc = AppendBlock(AppendBlock(enc, extreme), Block{})
	var got []Block
	for rest := enc; len(rest) > 0; {
		blk, r, err := ReadBlock(rest)
		if err != nil {
			t.Fatalf("block %d: %v", len(got), err)
		}
		got, rest = append(got, blk), r
	}
	if !reflect.DeepEqual(got, blocks) || !math.Signbit(got[7].Prefix[0].Mean) {
		t.Fatalf("decoded blocks differ")
	}
	if a, b := MergeBlocks(blocks[:7]), MergeBlocks(got[:7]); !reflect.DeepEqual(a, b) {
		t.Errorf("merged decoded blocks differ")
	}
	if len(blocks[1].Tail) != 8 {
		t.Errorf("block 1 kept %d tail values, want 8", len(blocks[1].Tail))
	}
	blocks[1].Tail = nil
	if len(AppendBlock(nil, blocks[1])) > 31 {
		t.Errorf("a block without prefix takes %d bytes", len(AppendBlock(nil, blocks[1])))
	}
	one := AppendBlock(nil, blocks[0])
	for n := range one {
		if _, _, err := ReadBlock(one[:n]); err == nil {
			t.Errorf("block cut to %d of %d bytes decoded", n, len(one))
		}
	}
	bad := AppendMoments(nil, Moments{N: 2, Nonzero: 3})
	if _, _, err := ReadMoments(bad); err == nil {
		t.Errorf("3 nonzero samples of 2 decoded")
	}
	// A prefix length beyond the bytes left is refused before allocating.
	huge := binary.AppendUvarint(AppendMoments(nil, Moments{N: 1}), 1<<60)
	if _, _, err := ReadBlock(huge); err == nil {
		t.Errorf("prefix of 2^60 moments decoded")
	}
}

// The binary form has one field per field of Moments: a new field needs a
// new form (and a new unit format in package sampling).
func TestMomentsFields(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[Moments]().Fields() {
		names = append(names, f.Name)
	}
	if want := []string{"N", "Nonzero", "Work", "Exp", "Mean", "M2"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Moments has fields %v; AppendMoments and ReadMoments encode %v", names, want)
	}
}

// MergeBlocks of the blocks RunBlock returns is Run's result.
func TestMergeBlocksIsRun(t *testing.T) {
	spec := Spec{Seed: 9, Stage: "test", Shape: "2x2", Variant: "exp", BlockSize: 64, TailSize: 40}
	res, err := Run(context.Background(), spec, 1000, 2, func() (Sampler, error) { return expSampler{}, nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []Block
	for b := 0; b*64 < 1000; b++ {
		blk, err := RunBlock(context.Background(), spec, b, min(64, 1000-b*64), expSampler{})
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, blk)
	}
	if !reflect.DeepEqual(MergeBlocks(blocks), res) {
		t.Errorf("MergeBlocks differs from Run")
	}
}

// With no success in n samples, the bound p solves (1−p)^n = 0.025: exact
// for n = 1 (0.975) and n = 2 (1 − √0.025), and near 3.689/n for large n.
func TestNoSuccessUpper95(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want float64
	}{{1, 0.975}, {2, 1 - math.Sqrt(0.025)}, {1_000_000, -math.Log(0.025) / 1e6}} {
		if got := NoSuccessUpper95(c.n); math.Abs(got-c.want) > 1e-5*c.want {
			t.Errorf("NoSuccessUpper95(%d) = %g, want %g", c.n, got, c.want)
		}
	}
	if p := NoSuccessUpper95(2000); math.Abs(math.Pow(1-p, 2000)-0.025) > 1e-12 {
		t.Errorf("n = 2000: (1−p)^n = %g, want 0.025", math.Pow(1-p, 2000))
	}
	if !math.IsNaN(NoSuccessUpper95(0)) {
		t.Error("n = 0 gives a bound")
	}
}
