package plot

import (
	"net"
	"strconv"
	"strings"
)

// maxLaneName is the longest lane name a picture writes; longer names keep
// their start and end ("connect-wo…ker-17"), which tell similar names apart.
const maxLaneName = 22

// ShortNames shortens the worker names of one picture for its lane labels
// and event labels: a port every worker shares and a domain every host
// shares are said once (in the returned note, "*.prod.example.com:8083")
// instead of on every lane, and what is still longer than maxLaneName is
// cut in the middle. A restarted incarnation ("HOST:PORT.2") keeps its
// ".2". Names stay distinct: when shortening would merge two, the names
// are kept whole.
func ShortNames(names []string) (short map[string]string, note string) {
	short = map[string]string{}
	bases := make([]string, 0, len(names))
	seen := map[string]bool{}
	for _, n := range names {
		b, _ := splitIncarnation(n, names)
		if !seen[b] {
			seen[b] = true
			bases = append(bases, b)
		}
	}
	port := commonPort(bases)
	domain := commonDomain(bases, port)
	cut := map[string]string{}
	used := map[string]string{}
	for _, b := range bases {
		s := b
		if port != "" {
			s = strings.TrimSuffix(s, ":"+port)
		}
		if domain != "" {
			s = strings.TrimSuffix(s, domain)
		}
		s = middleCut(s, maxLaneName)
		if other, dup := used[s]; dup && other != b {
			return identity(names), ""
		}
		used[s] = b
		cut[b] = s
	}
	for _, n := range names {
		b, inc := splitIncarnation(n, names)
		short[n] = cut[b] + inc
	}
	switch {
	case domain != "" && port != "":
		note = "*" + domain + ":" + port
	case domain != "":
		note = "*" + domain
	case port != "":
		note = "*:" + port
	}
	return short, note
}

func identity(names []string) map[string]string {
	m := map[string]string{}
	for _, n := range names {
		m[n] = n
	}
	return m
}

// splitIncarnation splits "HOST:PORT.2" into the worker and ".2" when the
// worker itself is among names, or its name has a port before the dot.
func splitIncarnation(n string, names []string) (base, inc string) {
	i := strings.LastIndexByte(n, '.')
	if i <= 0 {
		return n, ""
	}
	if _, err := strconv.Atoi(n[i+1:]); err != nil {
		return n, ""
	}
	for _, o := range names {
		if o == n[:i] {
			return n[:i], n[i:]
		}
	}
	if _, port, err := net.SplitHostPort(n[:i]); err == nil && port != "" {
		return n[:i], n[i:]
	}
	return n, ""
}

// commonPort is the port every name ends in, or "". Addresses keep their
// port: 10.0.1.12.2, a restarted incarnation without it, reads as another
// address.
func commonPort(names []string) string {
	port := ""
	for _, n := range names {
		h, p, err := net.SplitHostPort(n)
		if err != nil || (port != "" && p != port) || net.ParseIP(h) != nil {
			return ""
		}
		port = p
	}
	if len(names) < 2 {
		return ""
	}
	return port
}

// commonDomain is the domain (".prod.example.com") every host name shares
// after its first label, or "". Addresses have no domain.
func commonDomain(names []string, port string) string {
	domain := ""
	for _, n := range names {
		host := n
		if port != "" {
			host = strings.TrimSuffix(n, ":"+port)
		}
		if net.ParseIP(host) != nil {
			return ""
		}
		i := strings.IndexByte(host, '.')
		if i <= 0 || (domain != "" && host[i:] != domain) {
			return ""
		}
		domain = host[i:]
	}
	if len(names) < 2 {
		return ""
	}
	return domain
}

// middleCut keeps the start and end of s when it is longer than n runes.
func middleCut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	tail := (n - 1) / 2
	return string(r[:n-1-tail]) + "…" + string(r[len(r)-tail:])
}

// RealLookingName is the n-th worker of the README's pictures and the
// picture tests: connect-worker-N.prod.example.com:8083.
func RealLookingName(n int) string {
	return "connect-worker-" + strconv.Itoa(n) + ".prod.example.com:8083"
}
