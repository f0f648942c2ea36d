package montecarlo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The binary form of Moments and Blocks, for results that travel between
// processes (the work units of the Monte Carlo stages). It is exact: the
// float64 fields are their IEEE 754 bits, so a decoded value merges to the
// same bits as the original. A Moments value is
//
//	uvarint(N) ‖ uvarint(Nonzero) ‖ uvarint(Work) ‖ varint(Exp) ‖ u64(bits(Mean)) ‖ u64(bits(M2))
//
// (u64 8 bytes little endian; varints as encoding/binary writes them), 20
// to 30 bytes, and a Block is its Moments, then uvarint(len(Prefix)) and
// the Prefix moments in order, then uvarint(len(Tail)) and each tail value
// as u64(bits(Frac)) ‖ varint(Exp).

// AppendMoments appends the binary form of m to dst and returns the
// extended slice.
func AppendMoments(dst []byte, m Moments) []byte {
	dst = binary.AppendUvarint(dst, uint64(m.N))
	dst = binary.AppendUvarint(dst, uint64(m.Nonzero))
	dst = binary.AppendUvarint(dst, uint64(m.Work))
	dst = binary.AppendVarint(dst, int64(m.Exp))
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(m.Mean))
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(m.M2))
}

// errShort is the error of a binary form cut short.
var errShort = errors.New("truncated")

// ReadMoments decodes Moments from the start of src (as AppendMoments
// wrote them) and returns them with the bytes after them.
func ReadMoments(src []byte) (Moments, []byte, error) {
	var m Moments
	for _, f := range []*int64{&m.N, &m.Nonzero, &m.Work} {
		v, k := binary.Uvarint(src)
		if k <= 0 || v > math.MaxInt64 {
			return Moments{}, nil, fmt.Errorf("moments: bad count: %w", errShort)
		}
		*f, src = int64(v), src[k:]
	}
	e, k := binary.Varint(src)
	if k <= 0 || e < math.MinInt32 || e > math.MaxInt32 {
		return Moments{}, nil, fmt.Errorf("moments: bad exponent: %w", errShort)
	}
	m.Exp, src = int(e), src[k:]
	if len(src) < 16 {
		return Moments{}, nil, fmt.Errorf("moments: %w", errShort)
	}
	m.Mean = math.Float64frombits(binary.LittleEndian.Uint64(src))
	m.M2 = math.Float64frombits(binary.LittleEndian.Uint64(src[8:]))
	if m.Nonzero > m.N {
		return Moments{}, nil, fmt.Errorf("moments: %d nonzero samples of %d", m.Nonzero, m.N)
	}
	return m, src[16:], nil
}

// AppendBlock appends the binary form of b to dst and returns the extended
// slice.
func AppendBlock(dst []byte, b Block) []byte {
	dst = AppendMoments(dst, b.Moments)
	dst = binary.AppendUvarint(dst, uint64(len(b.Prefix)))
	for _, m := range b.Prefix {
		dst = AppendMoments(dst, m)
	}
	dst = binary.AppendUvarint(dst, uint64(len(b.Tail)))
	for _, v := range b.Tail {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.Frac))
		dst = binary.AppendVarint(dst, int64(v.Exp))
	}
	return dst
}

// ReadBlock decodes a Block from the start of src (as AppendBlock wrote
// it) and returns it with the bytes after it. A block without a prefix
// decodes with a nil Prefix, as RunBlock returns it.
func ReadBlock(src []byte) (Block, []byte, error) {
	var b Block
	var err error
	if b.Moments, src, err = ReadMoments(src); err != nil {
		return Block{}, nil, err
	}
	n, k := binary.Uvarint(src)
	// Every prefix moment takes at least 20 bytes: a bound on n before any
	// allocation.
	if k <= 0 || n > uint64(len(src)-k)/20 {
		return Block{}, nil, fmt.Errorf("block: bad prefix length: %w", errShort)
	}
	src = src[k:]
	if n > 0 {
		b.Prefix = make([]Moments, n)
	}
	for i := range b.Prefix {
		if b.Prefix[i], src, err = ReadMoments(src); err != nil {
			return Block{}, nil, fmt.Errorf("block prefix %d: %w", i, err)
		}
	}
	// Every tail value takes at least 9 bytes.
	n, k = binary.Uvarint(src)
	if k <= 0 || n > uint64(len(src)-k)/9 {
		return Block{}, nil, fmt.Errorf("block: bad tail length: %w", errShort)
	}
	src = src[k:]
	if n > 0 {
		b.Tail = make([]Value, n)
	}
	for i := range b.Tail {
		if len(src) < 9 {
			return Block{}, nil, fmt.Errorf("block tail %d: %w", i, errShort)
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(src))
		e, k := binary.Varint(src[8:])
		if k <= 0 || e < math.MinInt32 || e > math.MaxInt32 {
			return Block{}, nil, fmt.Errorf("block tail %d: bad exponent: %w", i, errShort)
		}
		v := Value{Frac: f, Exp: int(e)}
		if v != normal(v) || f < 0 || (i > 0 && CompareValues(v, b.Tail[i-1]) > 0) {
			return Block{}, nil, fmt.Errorf("block tail %d: %v·2^%d is not a normal value ≤ the one before", i, f, e)
		}
		b.Tail[i], src = v, src[8+k:]
	}
	return b, src, nil
}
