//go:build race

package stackjoin

// raceDetector is true when the tests run under the race detector, which
// slows the counts tenfold or more: the worker tests then take a few
// classes only.
const raceDetector = true
