//go:build unix

package kafkatest

import (
	"fmt"
	"syscall"
	"testing"
)

// RefusedAddr is a loopback address that refuses connections for the whole
// test. A port taken with Listen and closed again can be handed to another
// test's listener at once (a parallel test's broker then answers, and a
// "refused" test passes or fails by chance); a socket bound to the port and
// never listening holds it until the test ends, while a connection to it is
// refused as to any closed port.
func RefusedAddr(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatalf("socket: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("binding a loopback port: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("getsockname: %v", err)
	}
	in4, ok := sa.(*syscall.SockaddrInet4)
	if !ok {
		t.Fatalf("getsockname: %T", sa)
	}
	return fmt.Sprintf("127.0.0.1:%d", in4.Port)
}
