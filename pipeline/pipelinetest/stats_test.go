package pipelinetest

import (
	"math"
	"testing"
)

func TestMeanInterval(t *testing.T) {
	// 1, 2, 3: mean 2, sd 1, half-width 4.30/√3 (t with 2 degrees of freedom).
	mean, half := MeanInterval([]float64{1, 2, 3})
	if mean != 2 || math.Abs(half-4.30/math.Sqrt(3)) > 1e-12 {
		t.Errorf("MeanInterval(1, 2, 3) = %v, %v", mean, half)
	}
	if mean, half := MeanInterval([]float64{5}); mean != 5 || half != 0 {
		t.Errorf("MeanInterval(5) = %v, %v", mean, half)
	}
}
