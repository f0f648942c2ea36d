package pairstacks

import (
	"context"
	"testing"
)

// BenchmarkBuildHalf6 builds the table of one c = 6 half of about half a
// million states.
func BenchmarkBuildHalf6(b *testing.B) {
	half := []uint8{0x00, 0x00, 0x03, 0x07, 0x0f, 0x19}
	var s StackCounter
	for b.Loop() {
		if _, err := BuildHalf(context.Background(), &s, 6, half); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJoin6 joins the table of one c = 6 half of about half a million
// states with itself (as if it were its own complement's), walking every
// state.
func BenchmarkJoin6(b *testing.B) {
	var s StackCounter
	h, err := BuildHalf(context.Background(), &s, 6, []uint8{0x00, 0x00, 0x03, 0x07, 0x0f, 0x19})
	if err != nil {
		b.Fatal(err)
	}
	var id RowPerm
	for r := range id {
		id[r] = int8(r)
	}
	var j Joiner
	b.ResetTimer()
	for b.Loop() {
		if _, err := j.Join(h, h, id); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(h.keys)), "ns/state")
}
