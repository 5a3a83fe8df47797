//go:build e2e

package realkafka

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrOverran marks a JVM that did not stop, or become ready, within the
// time the harness gives it: a fault of the machine or of the release
// under test, not of what a test checks, so a test may try its step again.
var ErrOverran = errors.New("overran the harness's grace")

// jvm is one running java process whose output goes to a log file.
type jvm struct {
	name    string
	logPath string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, once done
}

// jvmFlags sizes a JVM so a broker and four workers fit in 3 GiB and start
// fast: a small serial-GC heap and only the C1 compiler.
func jvmFlags(heapMB int) []string {
	return []string{
		fmt.Sprintf("-Xmx%dm", heapMB), "-Xms64m", "-Xss512k",
		"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
		"-XX:MaxMetaspaceSize=160m", "-XX:ReservedCodeCacheSize=48m",
		"-Djava.awt.headless=true",
	}
}

// start launches java with args, appending its output to the log file.
func (j *jvm) start(args []string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.cmd != nil && !j.exited() {
		return fmt.Errorf("%s is already running (pid %d)", j.name, j.cmd.Process.Pid)
	}
	java, err := javaPath()
	if err != nil {
		return fmt.Errorf("starting %s: java not found: %s", j.name, howToGet)
	}
	logf, err := os.OpenFile(j.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("starting %s: opening its log: %w", j.name, err)
	}
	fmt.Fprintf(logf, "==== realkafka: starting %s at %s\n", j.name, time.Now().UTC().Format(time.RFC3339Nano))
	cmd := exec.Command(java, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("starting %s: %w", j.name, err)
	}
	done := make(chan struct{})
	j.cmd, j.done = cmd, done
	go func() {
		err := cmd.Wait()
		logf.Close()
		j.mu.Lock()
		j.err = err
		j.mu.Unlock()
		close(done)
	}()
	return nil
}

// exited reports whether the process has ended (call with mu held or not:
// done is only replaced under mu by start).
func (j *jvm) exited() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// running reports whether the process was started and has not ended.
func (j *jvm) running() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.cmd != nil && !j.exited()
}

// exitErr is why the process ended, for messages.
func (j *jvm) exitErr() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	return errors.New("exited with status 0")
}

// send sends sig without waiting for anything.
func (j *jvm) send(sig syscall.Signal) error {
	j.mu.Lock()
	cmd := j.cmd
	j.mu.Unlock()
	if cmd == nil || j.exited() {
		return fmt.Errorf("%s is not running", j.name)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("signalling %s (pid %d) with %v: %w", j.name, cmd.Process.Pid, sig, err)
	}
	return nil
}

// signal sends sig and waits up to grace for the process to end; past grace
// it is killed.
func (j *jvm) signal(sig syscall.Signal, grace time.Duration) error {
	j.mu.Lock()
	cmd, done := j.cmd, j.done
	j.mu.Unlock()
	if cmd == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	default:
	}
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("signalling %s (pid %d): %w", j.name, cmd.Process.Pid, err)
	}
	select {
	case <-done:
		return nil
	case <-time.After(grace):
	}
	if sig != syscall.SIGKILL {
		// A JVM prints every thread's stack on SIGQUIT: the log then shows
		// what the stop was waiting for.
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}
	_ = cmd.Process.Kill()
	select {
	case <-done:
		return fmt.Errorf("%s did not stop within %s of %v; killed (%w)%s", j.name, grace, sig, ErrOverran, stuckThreads(j.logTail(4000)))
	case <-time.After(10 * time.Second):
		return fmt.Errorf("%s (pid %d) did not end even after SIGKILL", j.name, cmd.Process.Pid)
	}
}

// logTail is the last n lines of the log.
func (j *jvm) logTail(n int) string {
	b, err := os.ReadFile(j.logPath)
	if err != nil {
		return fmt.Sprintf("(no log for %s: %v)", j.name, err)
	}
	return tail(string(b), n)
}

// freePorts reserves n distinct loopback ports. They are released before the
// JVM binds them; the window is short and each port is used once.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// WriteProperties writes a Java .properties file, keys sorted, keys and
// values escaped as Java reads them back (mode 0600: it may hold secrets).
func WriteProperties(path string, props map[string]string) error {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(escapeProperty(k, true))
		b.WriteString("=")
		b.WriteString(escapeProperty(props[k], false))
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func escapeProperty(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case key && (r == '=' || r == ':' || r == ' '):
			b.WriteRune('\\')
			b.WriteRune(r)
		case !key && i == 0 && r == ' ':
			b.WriteString(`\ `)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// logConfig writes both logging configurations (log4j2 for Kafka 4.x,
// reload4j for 3.x) sending everything to stdout, which goes to the log file;
// levels sets extra logger levels (e.g. "kafka.request.logger": "DEBUG").
func logConfig(dir string, levels map[string]string) ([]string, error) {
	names := make([]string, 0, len(levels))
	for k := range levels {
		names = append(names, k)
	}
	sort.Strings(names)
	l2 := []string{
		"status = warn",
		"appender.out.type = Console",
		"appender.out.name = OUT",
		"appender.out.layout.type = PatternLayout",
		"appender.out.layout.pattern = [%d] %p %m (%c)%n",
		"rootLogger.level = INFO",
		"rootLogger.appenderRef.out.ref = OUT",
	}
	l1 := []string{
		"log4j.rootLogger=INFO, out",
		"log4j.appender.out=org.apache.log4j.ConsoleAppender",
		"log4j.appender.out.layout=org.apache.log4j.PatternLayout",
		"log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n",
	}
	for i, n := range names {
		l2 = append(l2, fmt.Sprintf("logger.l%d.name = %s", i, n), fmt.Sprintf("logger.l%d.level = %s", i, levels[n]))
		l1 = append(l1, fmt.Sprintf("log4j.logger.%s=%s", n, levels[n]))
	}
	p2, p1 := filepath.Join(dir, "log4j2.properties"), filepath.Join(dir, "log4j.properties")
	if err := os.WriteFile(p2, []byte(strings.Join(l2, "\n")+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("writing %s: %w", p2, err)
	}
	if err := os.WriteFile(p1, []byte(strings.Join(l1, "\n")+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("writing %s: %w", p1, err)
	}
	return []string{"-Dlog4j2.configurationFile=" + p2, "-Dlog4j.configuration=file:" + p1}, nil
}

// poll calls f every interval until it returns nil, ctx ends, or stop
// reports the thing being waited for is gone.
func poll(ctx context.Context, what string, interval time.Duration, stop func() error, f func(context.Context) error) error {
	var last error
	for {
		if err := stop(); err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if last = f(ctx); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last: %v)", what, ctx.Err(), last)
		case <-time.After(interval):
		}
	}
}

// pid is the running process's id, 0 when it is not running.
func (j *jvm) pid() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.cmd == nil || j.exited() {
		return 0
	}
	return j.cmd.Process.Pid
}
