package grid

import (
	"context"
	"testing"
)

// bandColumnGrid is the classic grid with its first band in the canonical
// form of Felgenhauer and Jarvis and its first column completed: the kind
// of partial grid the exact stage cross-checks, with 11,297,664 completions.
const bandColumnGrid = `123456789
456789123
789123456
2........
3........
5........
6........
8........
9........`

func benchmarkCount(b *testing.B, text string, shape Shape, workers int) {
	g, err := Parse(text, shape)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := g.Count(context.Background(), workers); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCountBandColumn9x9(b *testing.B) { benchmarkCount(b, bandColumnGrid, Shape{3, 3}, 1) }
func BenchmarkCountBandColumn9x9Workers2(b *testing.B) {
	benchmarkCount(b, bandColumnGrid, Shape{3, 3}, 2)
}
func BenchmarkCountEmpty4x4(b *testing.B) { benchmarkCount(b, "................", Shape{2, 2}, 1) }
func BenchmarkCountEmpty6x6(b *testing.B) {
	benchmarkCount(b, "....................................", Shape{2, 3}, 1)
}
func BenchmarkCountEmpty6x6Workers2(b *testing.B) {
	benchmarkCount(b, "....................................", Shape{2, 3}, 2)
}

// BenchmarkCounterReuse counts with one Counter and its warm memo, as the
// Knuth hybrid estimator does for each walk.
func BenchmarkCounterReuse(b *testing.B) {
	g, _ := Parse(bandColumnGrid, Shape{3, 3})
	c, _ := NewCounter(g.Shape)
	for b.Loop() {
		if err := c.Load(g.Cells); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Count(); err != nil {
			b.Fatal(err)
		}
	}
}
