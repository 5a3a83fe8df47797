package cli

import (
	"net"
	"strconv"
	"testing"
)

func FuzzCheckBootstrap(f *testing.F) {
	for _, s := range []string{"127.0.0.1:99999", "127.0.0.1:0", "h:-1", "h:65536", "broker:port", ":9092", "[::1]:9092", "localhost", "h:1", "h:65535"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, server string) {
		if err := checkBootstrap([]string{server}, "-b"); err != nil {
			return
		}
		host, port, err := net.SplitHostPort(server)
		if err != nil {
			return // no port: Kafka's default
		}
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || host == "" {
			t.Fatalf("accepted %q", server)
		}
	})
}
