package montecarlo

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// Spec identifies one estimator run and hence the random streams of its
// blocks (see the package documentation for the seed hash).
type Spec struct {
	Seed      uint64 // the global config seed
	Stage     string // "knuth", "importance"
	Shape     string // "3x3"
	Variant   string // "mrv", "hybrid", ...
	BlockSize int    // samples per block
	// TailSize is how many of its largest samples each block keeps for
	// the diagnostics (ParetoTailSize of the run's samples; 0 keeps none).
	// It is not part of the random streams' identity.
	TailSize int
}

// seedDomain separates these streams from any other use of the global seed.
const seedDomain = "sudoku-census/montecarlo/v1"

// BlockSeed is the ChaCha8 seed of block b.
func (s Spec) BlockSeed(b int) [32]byte { return s.seed(seedDomain, b) }

// seed hashes domain, the run's identity and b as the package
// documentation says for the block seeds.
func (s Spec) seed(domain string, b int) [32]byte {
	h := sha256.New()
	var u [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(u[:], x)
		h.Write(u[:])
	}
	str := func(t string) {
		put(uint64(len(t)))
		h.Write([]byte(t))
	}
	h.Write([]byte(domain))
	put(s.Seed)
	str(s.Stage)
	str(s.Shape)
	str(s.Variant)
	put(uint64(b))
	var seed [32]byte
	copy(seed[:], h.Sum(nil))
	return seed
}

// Source returns the generator of block b.
func (s Spec) Source(b int) *rand.ChaCha8 {
	return rand.NewChaCha8(s.BlockSeed(b))
}

// Uniform returns a uniform integer in [0, n), n ≥ 1, by Lemire's
// multiply-and-reject method (no modulo bias, one draw almost always).
func Uniform(src *rand.ChaCha8, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}

// NthBit returns the index of the i-th (from 0) set bit of mask, which has
// more than i set bits.
func NthBit(mask uint64, i uint64) int {
	for ; i > 0; i-- {
		mask &= mask - 1
	}
	return bits.TrailingZeros64(mask)
}
