package pipelinetest

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// EnvInt reads one integer from the environment variable key, def when it
// is unset; a value that is not an integer fails t. Long surveys and
// projections take their sizes this way.
func EnvInt(t testing.TB, key string, def int) int {
	t.Helper()
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	i, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s=%q: want an integer", key, v)
	}
	return i
}

// EnvInts reads the comma- or space-separated integers of the environment
// variable key (none when it is unset); one that is not an integer fails t.
func EnvInts(t testing.TB, key string) []int {
	t.Helper()
	var out []int
	for _, f := range strings.Fields(strings.ReplaceAll(os.Getenv(key), ",", " ")) {
		i, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %q is not an integer", key, f)
		}
		out = append(out, i)
	}
	return out
}

// EnvCount reads a count of work units from the environment variable key,
// written as an integer or in exponent form such as 1e9, def when it is
// unset; a value that is not a whole number in [1, 2^63) fails t.
func EnvCount(t testing.TB, key string, def uint64) uint64 {
	t.Helper()
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f != math.Trunc(f) || f < 1 || f >= 1<<63 {
		t.Fatalf("%s=%q: want a whole number in [1, 2^63), such as 1e9", key, v)
	}
	return uint64(f)
}
