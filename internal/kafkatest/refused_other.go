//go:build !unix

package kafkatest

import (
	"net"
	"testing"
)

// RefusedAddr is a loopback port nothing listens on (elsewhere than unix, a
// port closed again: another listener may take it).
func RefusedAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
