package montecarlo

import "fmt"

// The limits of a run's plan. Every size derived from a configuration
// (blocks = ⌈samples / block size⌉, a block's first sample = b × block
// size) is computed within them, so no product or sum of the plan
// overflows, and a configuration beyond them is refused rather than cut.
const (
	// MaxBlockSize is the most samples one block may have (2³⁰): a block
	// is drawn by one goroutine, and its length is an int everywhere.
	MaxBlockSize = 1 << 30
	// MaxBlocks is the most blocks one run may have (2²⁴): Run keeps one
	// Block, some 100 bytes, per block in memory until it merges them.
	MaxBlocks = 1 << 24
)

// Blocks returns the number of blocks of a run of samples samples in
// blocks of blockSize, ⌈samples/blockSize⌉, computed without overflow;
// an error when blockSize or the number of blocks is outside the limits
// above, or samples is negative.
func Blocks(samples int64, blockSize int) (int, error) {
	if blockSize < 1 || blockSize > MaxBlockSize {
		return 0, fmt.Errorf("block size %d is outside [1, %d]", blockSize, MaxBlockSize)
	}
	if samples < 0 {
		return 0, fmt.Errorf("%d samples", samples)
	}
	bs := int64(blockSize)
	n := samples / bs
	if samples%bs != 0 {
		n++
	}
	if n > MaxBlocks {
		return 0, fmt.Errorf("%d samples in blocks of %d are %d blocks, more than %d", samples, blockSize, n, MaxBlocks)
	}
	return int(n), nil
}

// MaxSamples is the most samples a run with blocks of blockSize may have:
// MaxBlocks full blocks (at most 2⁵⁴, no overflow).
func MaxSamples(blockSize int) int64 {
	return int64(MaxBlocks) * int64(min(max(blockSize, 1), MaxBlockSize))
}
