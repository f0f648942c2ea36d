package pair

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// TestPlanUnits6 times the kernel on units of the c = 6 plan (PLAN_UNITS
// units of 32 orbits from PLAN_FIRST, default 0): go test -run TestPlanUnits6 -v
func TestPlanUnits6(t *testing.T) {
	env := os.Getenv("PLAN_UNITS")
	if env == "" {
		t.Skip("set PLAN_UNITS")
	}
	n, _ := strconv.Atoi(env)
	first, _ := strconv.Atoi(os.Getenv("PLAN_FIRST"))
	start := time.Now()
	p, err := NewPlan(context.Background(), 6, 2, 8<<30)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("plan: %d orbits, %d halves, %v", len(p.Orbits), p.NumHalves(), time.Since(start))
	for u := first; u < first+n; u++ {
		lo, hi := 32*u, min(32*u+32, len(p.Orbits))
		start := time.Now()
		sum, err := p.Sum(context.Background(), lo, hi, 2)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("unit %d: %v tables built %d, %v", u, sum, p.TablesBuilt(), time.Since(start))
	}
}

// TestHalfCost6 builds PLAN_HALVES half tables drawn uniformly from the
// c = 6 plan's classes and reports their sizes and times.
func TestHalfCost6(t *testing.T) {
	env := os.Getenv("PLAN_HALVES")
	if env == "" {
		t.Skip("set PLAN_HALVES")
	}
	n, _ := strconv.Atoi(env)
	p, err := NewPlan(context.Background(), 6, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	var s pairstacks.StackCounter
	var total float64
	var bytes int64
	for k := range n {
		id := k * p.NumHalves() / n
		start := time.Now()
		h, err := pairstacks.BuildHalf(context.Background(), &s, 6, p.halves[id])
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(start).Seconds()
		total += d
		bytes += h.Bytes()
		t.Logf("half %d %x: %d states %.2fs", id, p.halves[id], h.Len(), d)
	}
	t.Logf("mean %.2fs, %.1f MB per table; all %d: %.0f s, %.1f GB", total/float64(n), float64(bytes)/float64(n)/1e6,
		p.NumHalves(), total/float64(n)*float64(p.NumHalves()), float64(bytes)/float64(n)*float64(p.NumHalves())/1e9)
}
