//go:build !unix

package kafkatest

import "testing"

// RefusedAddr is a loopback port nothing listens on (elsewhere than unix, a
// port closed again: another listener may take it).
func RefusedAddr(t testing.TB) string {
	t.Helper()
	l := loopback(t)
	addr := l.Addr().String()
	l.Close()
	return addr
}
