package triple

import (
	"context"
	"math/big"
	"os"
	"testing"
	"time"
)

// TestBuild4 builds the 3×4 tables and saves them to $TRIPLE_TABLES4.
func TestBuild4(t *testing.T) {
	path := os.Getenv("TRIPLE_TABLES4")
	if path == "" || os.Getenv("TRIPLE_BUILD4") == "" {
		t.Skip("set TRIPLE_BUILD4 and TRIPLE_TABLES4")
	}
	start := time.Now()
	tab, err := BuildTables(context.Background(), 4)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built in %v: %d key orbits, %d gangsters", time.Since(start), tab.Orbits, len(tab.Gangsters))
	var w, stacks big.Int
	perBase := map[int]int{}
	var maxE uint64
	for _, g := range tab.Gangsters {
		w.Add(&w, new(big.Int).SetUint64(g.Weight))
		x := new(big.Int).SetUint64(g.Weight)
		stacks.Add(&stacks, x.Mul(x, new(big.Int).SetUint64(g.E)))
		perBase[g.Base]++
		maxE = max(maxE, g.E)
	}
	t.Logf("weights %v (want 34650^4 = %v), stacks %v, per base %v, max E %d", &w, new(big.Int).Exp(big.NewInt(34650), big.NewInt(4), nil), &stacks, perBase, maxE)
	distinct := map[uint32]bool{}
	for _, e := range tab.E {
		for _, v := range e {
			distinct[v] = true
		}
	}
	t.Logf("%d distinct stack counts", len(distinct))
	if err := tab.Save(path); err != nil {
		t.Fatal(err)
	}
}
