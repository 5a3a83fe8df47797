//go:build e2e

package realkafka

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// howToGet is the one line printed when Java or Maven is missing.
const howToGet = "real-Kafka tests need java (17+) and mvn on PATH: apt-get install openjdk-17-jdk-headless maven, then e2e/realkafka/warm-cache.sh"

// Require stops the test when Java or Maven is missing: a failure under
// CI=true (CI must run these tests), a skip elsewhere.
func Require(t testing.TB) {
	t.Helper()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("real-Kafka test skipped under -short")
	}
	missing := ""
	if _, err := javaPath(); err != nil {
		missing = "java"
	} else if _, err := javacPath(); err != nil {
		missing = "javac (a JDK, not only a JRE)"
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		if missing != "" {
			missing += " and "
		}
		missing += "mvn"
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found; %s", missing, howToGet)
	}
	t.Skipf("%s not found; %s", missing, howToGet)
}

// javaPath is $JAVA_HOME/bin/java when JAVA_HOME is set, else java on PATH.
func javaPath() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return exec.LookPath("java")
}

// javacPath is javac beside the java javaPath finds, else javac on PATH.
func javacPath() (string, error) {
	if java, err := javaPath(); err == nil {
		if real, err := filepath.EvalSymlinks(java); err == nil {
			p := filepath.Join(filepath.Dir(real), "javac")
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	return exec.LookPath("javac")
}
