//go:build e2e

package realkafka

import (
	"encoding/base64"
	"strings"
	"testing"
)

// A cluster id starting with '-' makes kafka-storage format fail with
// "argument --cluster-id/-t: expected one argument"; one random id in 64
// starts that way, so 10,000 draws would all but surely meet one.
func TestClusterIDIsNeverAnOption(t *testing.T) {
	for i := 0; i < 10000; i++ {
		id := clusterID()
		if strings.HasPrefix(id, "-") {
			t.Fatalf("cluster id %q starts with '-'", id)
		}
		if b, err := base64.RawURLEncoding.DecodeString(id); err != nil || len(b) != 16 {
			t.Fatalf("cluster id %q is not a base64url UUID: %v", id, err)
		}
	}
}
