//go:build unix

package whatif

import "syscall"

// processCPU is the CPU time (user + system) the test process has used so
// far, in ns: benchmarks report it per op beside the wall time, which a
// shared machine inflates.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
