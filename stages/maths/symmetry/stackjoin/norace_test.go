//go:build !race

package stackjoin

// raceDetector is true when the tests run under the race detector (see
// race_test.go).
const raceDetector = false
