package sandbox

import (
	"os"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// TestMain runs more parallel tests at once than one per CPU: each test
// owns its cluster and mostly waits on session timeouts and rebalance
// delays, not on the CPU.
func TestMain(m *testing.M) { os.Exit(kafkatest.WaitingTests{M: m}.Run()) }
