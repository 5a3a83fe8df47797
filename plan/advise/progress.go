package advise

import (
	"fmt"
	"io"
	"time"
)

// AdviseProgressLine is a Progress for a terminal: one line on w, rewritten
// in place ("plan advise: 37/99 simulations, 12s"), and done, which clears
// it once the sweep ends. It is for people watching a terminal; callers
// pass it only when w is one, so redirected output never carries it.
func AdviseProgressLine(w io.Writer) (progress func(done, total int), done func()) {
	start := time.Now()
	shown := false
	progress = func(n, total int) {
		fmt.Fprintf(w, "\rplan advise: %d/%d simulations, %s\x1b[K", n, total, time.Since(start).Round(time.Second))
		shown = true
	}
	done = func() {
		if shown {
			fmt.Fprint(w, "\r\x1b[K")
		}
	}
	return progress, done
}
