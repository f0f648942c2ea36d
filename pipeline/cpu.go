package pipeline

import (
	"syscall"
	"time"
)

// ProcessCPU is the user and system CPU time the process has used so far,
// summed over its threads (0 if the system does not say). The engine times
// stages with it; stages use it for their own measurements (walks per CPU
// second), which go to the run report, never into an artifact.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
