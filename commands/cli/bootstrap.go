package cli

import (
	"net"
	"strconv"
	"strings"
)

// checkBootstrap refuses a bootstrap server whose port cannot exist, at
// once, instead of letting every dial fail until --timeout. A server
// without a port is left to the client (Kafka's 9092).
func checkBootstrap(servers []string, from string) error {
	for _, s := range servers {
		host, port, err := net.SplitHostPort(s)
		if err != nil {
			if strings.Contains(err.Error(), "missing port") {
				continue
			}
			return UsageErrorf("%s: %q is not HOST:PORT", from, s)
		}
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return UsageErrorf("%s: %q: the port must be a number from 1 to 65535", from, s)
		}
		if host == "" {
			return UsageErrorf("%s: %q has no host", from, s)
		}
	}
	return nil
}
