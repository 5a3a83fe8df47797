//go:build e2e

package assignordiff

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const howToGetJava = "assignordiff: needs java (17+), javac and mvn on PATH (Debian: apt-get install openjdk-17-jdk-headless maven); CI=true makes this a failure"

// toolchain finds java, javac and mvn; without them the suite fails under
// CI=true and skips elsewhere.
func toolchain(t *testing.T) (java, javac, mvn string) {
	t.Helper()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("assignor differential suite skipped under -short (it runs every Kafka release's jars)")
	}
	var missing []string
	look := func(name string) string {
		p, err := exec.LookPath(name)
		if err != nil {
			missing = append(missing, name)
		}
		return p
	}
	java, javac, mvn = look("java"), look("javac"), look("mvn")
	if len(missing) > 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (missing: %s)", howToGetJava, strings.Join(missing, ", "))
		}
		t.Skip(howToGetJava)
	}
	return java, javac, mvn
}

// newerJava finds a JDK 21+ java for the --jdk 21 runs: $CONNECTSCOPE_JAVA21,
// else the newest /usr/lib/jvm/*-2[1-9]*/bin/java.
func newerJava() string {
	if p := os.Getenv("CONNECTSCOPE_JAVA21"); p != "" {
		return p
	}
	matches, _ := filepath.Glob("/usr/lib/jvm/*-[2-9][0-9]*/bin/java")
	if len(matches) == 0 {
		return ""
	}
	return matches[len(matches)-1]
}

// cacheRoot is where the jars of each Kafka version are resolved (outside the
// repository), as warm-cache.sh has it. It is not connectscope/kafka, where the
// real-cluster harness keeps its own, fuller layout per version.
func cacheRoot() (string, error) {
	if d := os.Getenv("CONNECTSCOPE_ASSIGNORDIFF_CACHE"); d != "" {
		return d, nil
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the jar cache: %w (set CONNECTSCOPE_ASSIGNORDIFF_CACHE)", err)
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "connectscope", "assignordiff"), nil
}

// readVersions returns versions.txt without comments.
func readVersions(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("versions.txt")
	if err != nil {
		t.Fatalf("reading the version list: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// resolveJars makes sure the cache holds the jars of one Kafka version,
// running Maven on driver/pom.xml when it does not, and returns the directory.
func resolveJars(mvn, version string) (string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, version)
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir, nil
	}
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return "", fmt.Errorf("clearing %s: %w", tmp, err)
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", fmt.Errorf("creating the jar cache: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	pom, err := filepath.Abs(filepath.Join("driver", "pom.xml"))
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, mvn, "-q", "-B", "-Dstyle.color=never", "-f", pom, "-Dkafka.version="+version,
		"dependency:copy-dependencies", "-DoutputDirectory="+tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("resolving the jars of Kafka %s with Maven (is Maven Central reachable?): %w\n%s", version, err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return "", err
	}
	_ = os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("publishing the jar cache of Kafka %s: %w", version, err)
	}
	return dir, nil
}

// buildDriver compiles the Java driver into a temporary directory against
// the Jackson jars of a resolved version.
func buildDriver(t *testing.T, javac, jars string) string {
	t.Helper()
	srcs, err := filepath.Glob(filepath.Join("driver", "src", "main", "java", "connectscope", "assignordiff", "*.java"))
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no driver sources under driver/src (err %v)", err)
	}
	out := filepath.Join(t.TempDir(), "driver-classes")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--release", "17", "-nowarn", "-d", out, "-cp", filepath.Join(jars, "*")}, srcs...)
	if b, err := exec.CommandContext(ctx, javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("compiling the driver: %v\n%s", err, b)
	}
	return out
}

// runDriver replays every scenario of in through one JVM for one version.
func runDriver(java, driver, jars, in, out string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cp := driver + string(os.PathListSeparator) + filepath.Join(jars, "*")
	cmd := exec.CommandContext(ctx, java, "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
		"-cp", cp, "connectscope.assignordiff.Driver", in, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("running the driver (%s): %w\n%s", java, err, b)
	}
	return nil
}
