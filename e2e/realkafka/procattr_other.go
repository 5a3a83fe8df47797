//go:build e2e && !linux

package realkafka

import "syscall"

func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
