// Package parallel runs the worker goroutines of the counting kernels so
// that a panic in any of them becomes an error of the call, with the
// goroutine's stack, instead of killing the process: the pipeline then fails
// the stage, publishes nothing and logs the stack.
package parallel

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// PanicError is a panic recovered in a worker: its value and the stack of
// the goroutine that panicked.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// StackTrace returns the stack of the panicking goroutine, for the log.
func (e *PanicError) StackTrace() []byte { return e.Stack }

// Recover turns a panic of the calling goroutine into *err. Use it as
// `defer parallel.Recover(&err)` at the top of a goroutine's function.
func Recover(err *error) {
	if v := recover(); v != nil {
		*err = &PanicError{Value: v, Stack: debug.Stack()}
	}
}

// Run calls fn(w) for w = 0, …, workers−1, each on a goroutine of its own
// (at least one), waits for all, and returns the first non-nil error in
// worker order; a panic in fn is returned as a *PanicError.
func Run(workers int, fn func(w int) error) error {
	workers = max(1, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			defer Recover(&errs[w])
			errs[w] = fn(w)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Chunks splits the indices [0, n) into workers contiguous ranges and calls
// fn(lo, hi) for each on its own goroutine, as Run does.
func Chunks(n, workers int, fn func(lo, hi int) error) error {
	workers = max(1, workers)
	return Run(workers, func(w int) error {
		return fn(w*n/workers, (w+1)*n/workers)
	})
}

// Stopped returns ctx's error: long loops call it every few thousand steps
// (a nil ctx never stops).
func Stopped(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}
