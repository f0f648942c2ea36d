package ridder

import (
	"math"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// Measures are Ridder's performance measures of a run (see the package
// documentation).
type Measures struct {
	Log10Population, Log10Probability float64
	RAT                               float64
	Log10EFF                          float64 // with the deterministic work as cost
	Log10VarGamma                     float64 // log10 σ²_γ, for EFF with another cost (EFFWith)
}

// Log10EFFWith returns log10 EFF with workPerSample as the cost per sample.
func (m Measures) Log10EFFWith(workPerSample float64) float64 {
	return -(m.Log10VarGamma + math.Log10(workPerSample))
}

// MeasuresOf computes the measures of moments m of the count estimator
// Y = |Ω|·γ on shape s; γ's moments are Y's divided by |Ω| and |Ω|².
func MeasuresOf(m montecarlo.Moments, s grid.Shape) Measures {
	lp := montecarlo.ValueOfInt(Population(s)).Log10()
	st := m.Stats()
	logMean := m.Log10Estimate() - lp
	logMeanSq := m.Log10MeanSquare() - 2*lp
	// σ²_γ = relvar · E[γ]²
	logVar := math.Log10(st.RelVar) + 2*logMean
	return Measures{
		Log10Population:  lp,
		Log10Probability: logMean,
		RAT:              logMeanSq / logMean,
		Log10EFF:         -(logVar + math.Log10(st.WorkPerSample)),
		Log10VarGamma:    logVar,
	}
}
