package check

import (
	"net"
	"path/filepath"
	"strings"

	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// defaultListeners is Connect's listeners default (RestServerConfig).
const defaultListeners = "http://:8083"

// advertisedAddress is the host and port a worker advertises to the group, as
// Connect's RestServer works it out: the protocol from rest.advertised.listener
// (else http, unless listeners name only https), the listener of that
// protocol, then rest.advertised.host.name and rest.advertised.port over the
// listener's host and port. host is "" when the listener binds every
// interface: the worker then advertises its machine's own address.
func advertisedAddress(w *workerconfig.Config) (host, port string) {
	listeners := w.List("listeners")
	if len(listeners) == 0 {
		listeners = []string{defaultListeners}
	}
	protocol := strings.ToLower(w.Str("rest.advertised.listener"))
	if protocol == "" {
		joined := strings.ToLower(strings.Join(listeners, ","))
		protocol = "http"
		if !strings.Contains(joined, "http://") && strings.Contains(joined, "https://") {
			protocol = "https"
		}
	}
	for _, l := range listeners {
		scheme, hp, ok := strings.Cut(strings.TrimSpace(l), "://")
		if !ok || !strings.EqualFold(scheme, protocol) {
			continue
		}
		if h, p, err := net.SplitHostPort(strings.TrimSuffix(hp, "/")); err == nil {
			host, port = h, p
		}
		break
	}
	if h := w.Str("rest.advertised.host.name"); h != "" {
		host = h
	}
	if p := w.Str("rest.advertised.port"); p != "" {
		port = p
	}
	return host, port
}

// WorkerIDOf is the worker id (advertised host:port) a worker file gives its
// worker, or "" when the file leaves the host to the machine.
func WorkerIDOf(w *workerconfig.Config) string {
	host, port := advertisedAddress(w)
	if host == "" || port == "" {
		return ""
	}
	return net.JoinHostPort(host, port)
}

// matchFiles pairs worker files with members' worker ids (host:port):
// by the advertised id; then a file whose host is its machine's own (the
// default listener) with a member on its port whose host the file is named
// after (worker-2.properties and worker-2:8083); then, when one such file
// and one member on its port are left, with each other. It returns, for
// each file, the index of its member or -1.
func matchFiles(files []*workerconfig.Config, memberIDs []string) []int {
	out := make([]int, len(files))
	used := make([]bool, len(memberIDs))
	claim := func(fi int, ok func(host, port string) bool) {
		for mi, id := range memberIDs {
			h, p, err := net.SplitHostPort(id)
			if !used[mi] && err == nil && ok(h, p) {
				used[mi], out[fi] = true, mi
				return
			}
		}
	}
	var hostless []int
	for fi, w := range files {
		out[fi] = -1
		if id := WorkerIDOf(w); id != "" {
			claim(fi, func(h, p string) bool { return net.JoinHostPort(h, p) == id })
		} else if _, port := advertisedAddress(w); port != "" {
			hostless = append(hostless, fi)
		}
	}
	var left []int
	for _, fi := range hostless {
		_, port := advertisedAddress(files[fi])
		stem := strings.TrimSuffix(filepath.Base(files[fi].Path), filepath.Ext(files[fi].Path))
		claim(fi, func(h, p string) bool {
			first, _, _ := strings.Cut(h, ".")
			return p == port && (strings.EqualFold(h, stem) || strings.EqualFold(first, stem))
		})
		if out[fi] < 0 {
			left = append(left, fi)
		}
	}
	if len(left) == 1 {
		_, port := advertisedAddress(files[left[0]])
		var free []int
		for mi, id := range memberIDs {
			if _, p, err := net.SplitHostPort(id); !used[mi] && err == nil && p == port {
				free = append(free, mi)
			}
		}
		if len(free) == 1 {
			used[free[0]], out[left[0]] = true, free[0]
		}
	}
	return out
}
