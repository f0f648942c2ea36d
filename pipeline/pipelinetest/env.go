package pipelinetest

import (
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
