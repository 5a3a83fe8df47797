package kafkatest

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

// WaitingTests runs M's tests with twice as many parallel tests at once as
// -parallel's default (one per CPU), unless -parallel is given: tests
// against embedded brokers mostly wait on the network (dial timeouts,
// silent listeners, rebalance delays), not on the CPU.
type WaitingTests struct{ M *testing.M }

// Run is testing.M's Run with the raised default.
func (w WaitingTests) Run() int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0))); err != nil {
			panic(err)
		}
	}
	return w.M.Run()
}
