package sampling

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadCPU is the CPU time the calling thread has used so far (the caller
// keeps its goroutine on the thread with runtime.LockOSThread). It reads
// clock_gettime(CLOCK_THREAD_CPUTIME_ID), exact to the nanosecond, rather
// than getrusage(RUSAGE_THREAD), which lags by up to a scheduler tick: too
// coarse for units of milliseconds.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
