package parallel

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestRunRecoversPanics(t *testing.T) {
	err := Run(4, func(w int) error {
		if w == 2 {
			var m map[int]int
			m[w] = 1 // panics: assignment to entry in nil map
		}
		return nil
	})
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Run = %v, want a *PanicError", err)
	}
	if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "nil map") {
		t.Errorf("error %q: want one line naming the panic", err)
	}
	if !strings.Contains(string(pe.StackTrace()), "parallel_test.go") {
		t.Errorf("stack does not name the panicking function:\n%s", pe.StackTrace())
	}
}

func TestRunFirstErrorInWorkerOrder(t *testing.T) {
	e1, e3 := errors.New("one"), errors.New("three")
	err := Run(4, func(w int) error {
		switch w {
		case 1:
			return e1
		case 3:
			return e3
		}
		return nil
	})
	if err != e1 {
		t.Errorf("Run = %v, want %v", err, e1)
	}
}

func TestChunksCoverEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 7} {
		var seen [100]atomic.Int32
		if err := Chunks(len(seen), workers, func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("workers %d: index %d visited %d times", workers, i, seen[i].Load())
			}
		}
	}
}

func TestStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	if Stopped(ctx) != nil || Stopped(nil) != nil {
		t.Fatal("stopped before cancel")
	}
	cancel()
	if !errors.Is(Stopped(ctx), context.Canceled) {
		t.Fatal("not stopped after cancel")
	}
}
