package commands

import (
	"bytes"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// runInput executes connectscope in-process with stdin.
func runInput(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(append([]string{"connectscope"}, args...), Streams{In: strings.NewReader(stdin), Out: &out, Err: &errb}, BuildInfo{Version: "v9.9.9-test"})
	return out.String(), errb.String(), code
}

// fastSandbox are flags that keep the sandbox's rebalances short in tests.
var fastSandbox = []string{"sandbox", "--listen", "127.0.0.1:0", "--session-timeout", "600ms", "--heartbeat-interval", "40ms", "--scheduled-delay", "300ms"}

func TestSandboxCommandRunsScript(t *testing.T) {
	t.Parallel() // waits on the network mostly
	script := strings.Join([]string{
		"help",
		"add-worker",
		"wait",
		"add-connector extra 2 sink",
		"tasks orders-cdc 3",
		"pause payments-cdc",
		"fail extra-1",
		// Settle first, so worker-3 holds work when it stops: pieces it
		// never received are new work, assigned at once, not held.
		"wait",
		"stop worker-3",
		"wait",
		"kill worker-1",
		"wait",
		"status",
		"bogus",
		"stop nobody",
		"quit",
		"status", // after quit: never run
	}, "\n")
	args := append(fastSandbox, "--workers", "2", "--connectors", "2", "--tasks", "1")
	out, errOut, code := runInput(t, script, args...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"sandbox ready: Kafka at 127.0.0.1:",
		"add-connector NAME TASKS [source|sink]", // help
		"(sessioned), leader worker-",
		"worker worker-3 started",
		"connector extra created (sink, 2 tasks)",
		"connector orders-cdc reconfigured to 3 tasks",
		"worker worker-3 stopped (LeaveGroup sent)",
		"worker worker-1 killed",
		"stable",
		"payments-cdc  source  PAUSED",
		"sandbox stopped",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// The stopped worker's pieces wait for the 300 ms delay. A round that
	// follows under load is told only what remains of it, so any delay up
	// to 300 ms shows the hold.
	if m := regexp.MustCompile(`scheduled rebalance in (\d+)ms`).FindStringSubmatch(out); m == nil {
		t.Errorf("no scheduled rebalance after worker-3 stopped:\n%s", out)
	} else if d, _ := strconv.Atoi(m[1]); d <= 0 || d > 300 {
		t.Errorf("scheduled delay %dms, want 1..300 (the sandbox's scheduled delay):\n%s", d, out)
	}
	if !strings.Contains(out, "\nworker-2 ") || !strings.Contains(out, "payments-cdc  source  PAUSED") {
		t.Errorf("status does not list worker-2 and the paused connector:\n%s", out)
	}
	statusRuns := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "WORKER ") && strings.Contains(line, "PROTOCOL") {
			statusRuns++
		}
	}
	if statusRuns != 1 {
		t.Errorf("status ran %d times, want once (nothing after quit):\n%s", statusRuns, out)
	}
	for _, want := range []string{`error: unknown command "bogus" (type help)`, `error: no running worker "nobody"`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestSandboxCommandStopsAtEndOfInput(t *testing.T) {
	t.Parallel()
	out, errOut, code := runInput(t, "", append(fastSandbox, "--workers", "1", "--connectors", "1")...)
	if code != 0 || !strings.Contains(out, "worker worker-1 stopped (LeaveGroup sent)") || !strings.HasSuffix(out, "sandbox stopped\n") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestSandboxCommandUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"sandbox", "--protocol", "fancy"},
		{"sandbox", "--workers", "-1"},
		{"sandbox", "--heartbeat-interval", "5s", "--session-timeout", "1s"},
		{"sandbox", "extra-argument"},
	} {
		_, errOut, code := runInput(t, "", args...)
		if code != ExitUsage {
			t.Errorf("connectscope %s: exit %d, want %d (%s)", strings.Join(args, " "), code, ExitUsage, errOut)
		}
	}
}

func TestSandboxCommandPortInUse(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, errOut, code := runInput(t, "", "sandbox", "--listen", ln.Addr().String())
	if code != ExitInput || !strings.Contains(errOut, "starting the sandbox") {
		t.Fatalf("listen on a busy port: exit %d, stderr %q; want exit %d", code, errOut, ExitInput)
	}
}

func TestDemoTour(t *testing.T) {
	t.Parallel()
	out, errOut, code := runInput(t, "", "demo")
	if code != 0 {
		t.Fatalf("demo: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"$ connectscope -b broker:9092 inspect connectors",
		"$ connectscope -b broker:9092 inspect members",
		"$ connectscope -b broker:9092 plan join --add 1",
		"payments-cdc", "search-es", "sessioned",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(exit status") {
		t.Errorf("a tour step failed:\n%s", out)
	}
	// The failed task must show up in the connectors view.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "payments-cdc ") && !strings.Contains(line, "FAILED") && !strings.Contains(line, " 1 ") {
			t.Errorf("payments-cdc line does not show its failed task: %q", line)
		}
	}
}

// Names typed into the sandbox (or read from its broker) reach the terminal
// as text: ESC and bidi marks are escaped on its log and its error lines.
func TestSandboxCommandNamesAreText(t *testing.T) {
	t.Parallel()
	script := "add-connector \x1b]0;X\x07evil 1 sink\nadd-connector \u202eq 1 weird\nquit\n"
	stdout, stderr, code := runInput(t, script, append(fastSandbox, "--workers", "1", "--connectors", "0")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	all := stdout + stderr
	if strings.ContainsAny(all, "\x1b\x07\u202e") {
		t.Errorf("raw terminal control in the sandbox's output:\n%q", all)
	}
	if !strings.Contains(stdout, "connector ^[]0;X^Gevil created") || !strings.Contains(stderr, `\u202eq: kind "weird"`) {
		t.Errorf("names not shown escaped:\nstdout %q\nstderr %q", stdout, stderr)
	}
}
