package scenario

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/connectscope/connectscope/plan/internal/scenariogen"
)

// BenchmarkReplayEndToEnd is `plan replay` of java-timings.md's end-to-end
// scenario minus process start: parse, replay (3 rounds) and the JSON output,
// written directly (WriteJSON) or through encoding/json with indentation.
func BenchmarkReplayEndToEnd(b *testing.B) {
	data := scenariogen.ScaleOut(1000, 10000, 10)
	for _, mode := range []string{"writejson", "encoding-json"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sc, err := ParseScenario(data)
				if err != nil {
					b.Fatal(err)
				}
				res, err := Replay(sc, ReplayOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Rounds) != 3 {
					b.Fatalf("%d rounds, want 3", len(res.Rounds))
				}
				if mode == "writejson" {
					err = res.WriteJSON(io.Discard)
				} else {
					enc := json.NewEncoder(io.Discard)
					enc.SetIndent("", "  ")
					err = enc.Encode(res)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
