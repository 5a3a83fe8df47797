//go:build e2e

package realkafka

import (
	"strings"
)

// stuckThreads is what a JVM's last thread dump (SIGQUIT, in log) says
// about Connect's own threads that are doing something: the shutdown hook
// and the herder, so that a stop that overran its grace names what it
// waited for in the failure itself (a CI log keeps only part of a worker's
// log). Empty when the log holds no dump.
func stuckThreads(log string) string {
	i := strings.LastIndex(log, "Full thread dump")
	if i < 0 {
		return ""
	}
	var b strings.Builder
	kept := 0
	for _, block := range strings.Split(log[i:], "\n\n") {
		block = strings.TrimSpace(block)
		if !strings.HasPrefix(block, `"`) || !busyConnectThread(block) {
			continue
		}
		lines := strings.Split(block, "\n")
		if len(lines) > 14 {
			lines = append(lines[:14], "\t...")
		}
		b.WriteString("\n" + strings.Join(lines, "\n"))
		if kept++; kept == 4 {
			break
		}
	}
	if kept == 0 {
		return ""
	}
	return "\nConnect's busy threads in the dump taken before the kill:" + b.String()
}

// busyConnectThread: a thread running Connect's code that is not an idle
// pool thread waiting for work.
func busyConnectThread(block string) bool {
	return strings.Contains(block, "org.apache.kafka.connect.") &&
		!strings.Contains(block, "ThreadPoolExecutor.getTask") &&
		!strings.Contains(block, "QueuedThreadPool.idleJobPoll")
}
