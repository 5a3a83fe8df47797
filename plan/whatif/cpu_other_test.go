//go:build !unix

package whatif

// processCPU is not measured here (see cpu_unix_test.go).
func processCPU() int64 { return 0 }
