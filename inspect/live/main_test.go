package live

import (
	"os"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// TestMain runs four parallel tests at once per CPU: most of them wait
// on dial timeouts and silent listeners (the package uses under a
// CPU-second in 20 s of tests).
func TestMain(m *testing.M) { os.Exit(kafkatest.WaitingTests{M: m, PerCPU: 4}.Run()) }
