package history

import (
	"strconv"
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

// TestPieceOfHostileKeys: a status key names the piece Kafka reads from it
// (the shared table); keys Kafka discards and topic keys name none.
func TestPieceOfHostileKeys(t *testing.T) {
	for _, v := range vectors.HostileStatusKeys {
		piece, task, ok := pieceOf([]byte(v.Key))
		var want string
		switch v.Kind {
		case "connector":
			want = v.Connector
		case "task":
			want = v.Connector + "-" + strconv.Itoa(int(v.Task))
		}
		if ok != (want != "") || piece != want || task != (v.Kind == "task") {
			t.Errorf("%q: %q task %v ok %v, want %q (%s)", v.Key, piece, task, ok, want, v.Kind)
		}
	}
}
