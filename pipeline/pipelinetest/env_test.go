package pipelinetest_test

import (
	"fmt"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
)

// fatalRecorder is a testing.TB whose Fatalf records the message and stops
// the helper's goroutine, as the real one does, without failing the test.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic(r)
}

// envCount runs EnvCount with the variable set to v and returns its value
// or the message it failed with.
func envCount(t *testing.T, v string) (n uint64, msg string) {
	t.Setenv("PIPELINETEST_COUNT", v)
	r := &fatalRecorder{TB: t}
	defer func() {
		if p := recover(); p != nil {
			if p != r {
				panic(p)
			}
			msg = r.msg
		}
	}()
	return pipelinetest.EnvCount(r, "PIPELINETEST_COUNT", 7), ""
}

func TestEnvCount(t *testing.T) {
	for v, want := range map[string]uint64{"": 7, "1": 1, "1e9": 1e9, "250000": 250000, "9.2e18": 9.2e18} {
		if got, msg := envCount(t, v); msg != "" || got != want {
			t.Errorf("%q: got %d (%q), want %d", v, got, msg, want)
		}
	}
	for _, v := range []string{"2.5", "NaN", "Inf", "-1", "0", "1e30", "9.3e18", "abc", "0x10p0x", " 5"} {
		if got, msg := envCount(t, v); msg == "" {
			t.Errorf("%q: got %d, want a failure naming the key", v, got)
		} else if want := `PIPELINETEST_COUNT="` + v + `": want a whole number`; len(msg) < len(want) || msg[:len(want)] != want {
			t.Errorf("%q: message %q, want it to begin %q", v, msg, want)
		}
	}
}
