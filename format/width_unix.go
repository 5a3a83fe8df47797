//go:build linux || darwin || freebsd

package format

import (
	"os"
	"syscall"
	"unsafe"
)

// terminalColumns asks the terminal behind f for its width (TIOCGWINSZ);
// 0 when f is not a terminal.
func terminalColumns(f *os.File) int {
	if !IsTerminal(f) {
		return 0
	}
	var ws struct{ Row, Col, X, Y uint16 }
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws))); errno != 0 {
		return 0
	}
	return int(ws.Col)
}
