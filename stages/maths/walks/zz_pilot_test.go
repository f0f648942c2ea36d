package walks

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

func BenchmarkPilot30(b *testing.B) {
	exact, _ := strconv.Atoi(os.Getenv("PILOT_EXACT"))
	n, _ := strconv.Atoi(os.Getenv("PILOT_N"))
	shape := os.Getenv("PILOT_SHAPE")
	s := mustShape(b, shape)
	v := Variant{Name: "stackshybrid", Stacks: true, StacksExact: exact}
	for b.Loop() {
		start := cpuTime()
		spec := montecarlo.Spec{Seed: 7, Stage: "bench", Shape: shape, Variant: v.Name, BlockSize: 100}
		res, err := montecarlo.Run(context.Background(), spec, int64(n), 1, func() (montecarlo.Sampler, error) { return NewSampler(context.Background(), s, v) }, nil)
		if err != nil {
			b.Fatal(err)
		}
		perSample := (cpuTime() - start).Seconds() / float64(n)
		st := res.Total.Stats()
		fmt.Printf("%s exact=%d n=%d relvar=%.3f s/sample=%.4f relvar*s=%.4f hours(±1%%)=%.2f\n", shape, exact, n, st.RelVar, perSample, st.RelVar*perSample, st.RelVar*perSample*38416/3600)
	}
}
