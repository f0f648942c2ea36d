package bandcols

import (
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStateTableMatchesMap adds random states with random counts to a
// stateTable and to a map of big.Ints, through enough growth to move every
// entry several times, and compares each count, the absent states (of
// the same mask size and of another) and the unequal-size error.
func TestStateTableMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	mask := func(p int) uint8 {
		for {
			if m := uint8(rng.IntN(64)); bits.OnesCount8(m) == p {
				return m
			}
		}
	}
	for _, width := range []int{2, 7, 12} {
		for p := 1; p <= 5; p++ {
			tb := newStateTable(width)
			want := map[state]*big.Int{}
			for range 20000 {
				var s state
				for y := range width {
					s[y] = mask(p)
				}
				v := grid.Uint128{Hi: rng.Uint64() >> 52, Lo: rng.Uint64()}
				w := rng.Uint64() >> 44
				if err := tb.add(s, v, w); err != nil {
					t.Fatal(err)
				}
				prod := new(big.Int).Mul(v.Big(), new(big.Int).SetUint64(w))
				if x, ok := want[s]; ok {
					x.Add(x, prod)
				} else {
					want[s] = prod
				}
			}
			seen := 0
			if err := tb.each(func(s state, v grid.Uint128) error {
				seen++
				if want[s] == nil || want[s].Cmp(v.Big()) != 0 {
					t.Errorf("width %d, %d bits: state %v holds %v, want %v", width, p, s[:width], v.Big(), want[s])
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if seen != len(want) || tb.n != len(want) {
				t.Fatalf("width %d, %d bits: %d states listed, %d counted, want %d", width, p, seen, tb.n, len(want))
			}
			for range 1000 {
				var s state
				for y := range width {
					s[y] = mask(p)
				}
				if _, ok := tb.get(s); ok != (want[s] != nil) {
					t.Fatalf("width %d, %d bits: get(%v) = %v", width, p, s[:width], ok)
				}
				s[rng.IntN(width)] = mask(p + 1)
				if _, ok := tb.get(s); ok {
					t.Fatalf("width %d, %d bits: found %v, whose masks differ in size", width, p, s[:width])
				}
				if err := tb.add(s, grid.Uint128{Lo: 1}, 1); err == nil {
					t.Fatalf("width %d: added %v, whose masks differ in size", width, s[:width])
				}
			}
		}
	}
}

// TestMulAdd compares mulAdd with big.Int on the edges
// (all ones, carries into the high word, sums at 2^128 − 1 and 2^128) and
// on random operands, the overflow flag included.
func TestMulAdd(t *testing.T) {
	limit := new(big.Int).Lsh(big.NewInt(1), 128)
	ones := ^uint64(0)
	u := func(hi, lo uint64) grid.Uint128 { return grid.Uint128{Hi: hi, Lo: lo} }
	type tc struct {
		a, v grid.Uint128
		w    uint64
	}
	cases := []tc{
		{u(ones, ones), u(0, 1), 1},
		{u(ones, ones), u(0, 0), 5},
		{u(0, 0), u(ones, ones), 1},
		{u(0, 0), u(ones, ones), 2},
		{u(0, 0), u(1, 0), ones},
		{u(0, 0), u(1, 1), ones},
		{u(0, 1), u(0, ones), ones},
		{u(1<<63, 0), u(1<<63, 0), 1},
		{u(0, 0), u(1<<62, 0), 4},
		{u(0, 0), u(1<<62-1, ones), 4},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() uint64 {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return ones - rng.Uint64N(3)
		case 2:
			return rng.Uint64() >> rng.UintN(64)
		}
		return rng.Uint64()
	}
	for range 100000 {
		cases = append(cases, tc{u(pick(), pick()), u(pick(), pick()), pick()})
	}
	for _, c := range cases {
		want := new(big.Int).Mul(c.v.Big(), new(big.Int).SetUint64(c.w))
		want.Add(want, c.a.Big())
		got, ok := mulAdd(c.a, c.v, c.w)
		if fits := want.Cmp(limit) < 0; ok != fits || (ok && got.Big().Cmp(want) != 0) {
			t.Fatalf("%+v: got %v (fits %v), want %v", c, got.Big(), ok, want)
		}
	}
}

// TestRawTableMatchesMap fills a rawTable with random states and weights
// through several growths, compares what each lists with a map, and
// repeats with states met many times in the table each has emptied.
func TestRawTableMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tb := newRawTable()
	// three values a symbol: about 50,000 states, five growths; then two:
	// 4,096 states met about five times each, from the emptied table
	for round, r := range []struct{ n, values int }{{50000, 3}, {20000, 2}} {
		want := map[state]uint64{}
		for range r.n {
			var s state
			for y := range 12 {
				s[y] = uint8(rng.IntN(r.values))
			}
			w := 1 + rng.Uint64N(1000)
			tb.add(s, w)
			want[s] += w
		}
		got := map[state]uint64{}
		if err := tb.each(func(s state, w uint64) error {
			if _, dup := got[s]; dup {
				t.Fatalf("round %d: state %v listed twice", round, s)
			}
			got[s] = w
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d states listed, want %d", round, len(got), len(want))
		}
		for s, w := range want {
			if got[s] != w {
				t.Fatalf("round %d: state %v weighs %d, want %d", round, s, got[s], w)
			}
		}
	}
}

// TestColInvariantByDefinition compares colInvariant on random states of
// 2×c shapes with the invariant computed from its definition, symbol by
// symbol and column pair by column pair, with a plain sort.
func TestColInvariantByDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 20000 {
		c := 2 + trial%5 // 2..6
		n, k := 2*c, rng.IntN(c+1)
		cn := &counter{x: &exchange{c: c}, n: n, k: k}
		var s state
		for y := range n {
			s[y] = uint8(rng.IntN(1 << c))
		}
		got := cn.colInvariant(s)
		for j := range c {
			var inPairs, inFixed uint64
			var rest []uint64
			for y := range n {
				if s[y]&(1<<j) != 0 {
					if y < 2*k {
						inPairs++
					} else {
						inFixed++
					}
				}
			}
			for j2 := range c {
				if j2 == j {
					continue
				}
				var both, across uint64
				for y := range n {
					if s[y]&(1<<j) != 0 && s[y]&(1<<j2) != 0 {
						both++
					}
				}
				for i := range k {
					a, b := s[2*i], s[2*i+1]
					if a&(1<<j) != 0 && b&(1<<j2) != 0 {
						across++
					}
					if b&(1<<j) != 0 && a&(1<<j2) != 0 {
						across++
					}
				}
				rest = append(rest, both<<4|across)
			}
			slices.Sort(rest)
			want := inPairs<<4 | inFixed
			for _, x := range rest {
				want = want<<8 | x
			}
			if got[j] != want {
				t.Fatalf("c=%d k=%d state %v column %d: %x, want %x", c, k, s[:n], j, got[j], want)
			}
		}
	}
}
