package live

import (
	"os"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// TestMain runs more parallel tests at once than one per CPU: most of
// them wait on dial timeouts and silent listeners.
func TestMain(m *testing.M) { os.Exit(kafkatest.WaitingTests{M: m}.Run()) }
