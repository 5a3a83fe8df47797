package kafkatest

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

// WaitingTests runs M's tests with more parallel tests at once than
// -parallel's default (one per CPU), unless -parallel is given: tests
// against embedded brokers mostly wait on the network (dial timeouts,
// silent listeners, rebalance delays), not on the CPU.
type WaitingTests struct {
	M *testing.M
	// PerCPU is how many parallel tests run at once per CPU; 0 means 2.
	// A package whose tests use next to no CPU while they wait (the
	// sandbox's: about 1 CPU-second in 30 s of session timeouts and
	// delays) can take more.
	PerCPU int
}

// Run is testing.M's Run with the raised default.
func (w WaitingTests) Run() int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	per := w.PerCPU
	if per <= 0 {
		per = 2
	}
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(per*runtime.GOMAXPROCS(0))); err != nil {
			panic(err)
		}
	}
	return w.M.Run()
}
