package heuristic

import (
	"maps"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestSampleTransition(t *testing.T) {
	text := os.Getenv("SAMPLE_SHAPE")
	if text == "" {
		t.Skip()
	}
	s, _ := grid.ParseShape(text)
	r, c := s.R, s.C
	rel := permutations(r)
	levels := make([]*subsetLevel, r+1)
	for j := 0; j <= r; j++ {
		levels[j] = newSubsetLevel(r, j, rel)
	}
	var start state
	for k := range levels[1].masks {
		start = start.add(k, c)
	}
	binom := binomials(r * c)
	c0 := cpuNow()
	states, err := advance(map[state]*big.Int{start: big.NewInt(1)}, levels[1], levels[2], c, binom)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v: level 2 has %d orbits, 1->2 in %v CPU", s, len(states), cpuNow()-c0)
	keys := slices.SortedFunc(maps.Keys(states), state.compare)
	rng := rand.New(rand.NewPCG(1, 2))
	step := newTransition(levels[2], levels[3], c, binom)
	var total time.Duration
	const samples = 6
	for x := 0; x < samples; x++ {
		k := keys[rng.IntN(len(keys))]
		c1 := cpuNow()
		targets, err := step.targets(k)
		if err != nil {
			t.Fatal(err)
		}
		d := cpuNow() - c1
		total += d
		t.Logf("source %x: %d raw targets in %v CPU", k, len(targets), d)
	}
	t.Logf("%v: mean %v CPU per level-2 source, times %d orbits = %v", s, total/samples, len(keys), total/samples*time.Duration(len(keys)))
}
