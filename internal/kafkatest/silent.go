package kafkatest

import (
	"net"
	"sync"
	"testing"
)

// SilentListener accepts connections on loopback and never answers: a
// broker that hangs. It returns the address; the listener and every
// accepted connection close when the test ends.
func SilentListener(t testing.TB) string {
	t.Helper()
	ln := loopback(t)
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

// loopback listens on a free loopback port.
func loopback(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
