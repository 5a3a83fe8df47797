//go:build e2e

package realkafka

import "syscall"

// procAttr makes the kernel kill a JVM when the test process dies, so an
// interrupted test leaves no broker or worker behind.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
