package sandbox

import (
	"os"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// TestMain runs four parallel tests at once per CPU: each test owns
// its cluster and mostly waits on session timeouts and rebalance delays
// (the package uses about 1 CPU-second in 30 s of tests).
func TestMain(m *testing.M) { os.Exit(kafkatest.WaitingTests{M: m, PerCPU: 4}.Run()) }
