//go:build e2e

package realbroker

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// secureWorkerFile writes a worker .properties file that reaches the broker
// on listener as user with mechanism: the running worker's group and topics,
// the connection settings a real worker on that listener would have.
func (c *cluster) secureWorkerFile(t *testing.T, listener, mechanism, user string) string {
	t.Helper()
	props, err := c.b.ClientProps(listener, mechanism, user)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"group.id", "config.storage.topic", "offset.storage.topic", "status.storage.topic"} {
		props[k] = c.w.Props()[k]
	}
	path := filepath.Join(t.TempDir(), strings.ToLower(listener)+"-"+strings.ToLower(mechanism)+".properties")
	if err := realkafka.WriteProperties(path, props); err != nil {
		t.Fatal(err)
	}
	return path
}

// testSecurity reads the cluster over the SSL, SASL_SSL and SASL_PLAINTEXT
// listeners, configured by flags and by worker files, with SCRAM-SHA-512
// credentials the broker got at format time.
func testSecurity(t *testing.T, c *cluster) {
	pki, users := c.b.PKI(), c.b.Users()
	const user = "alice"
	pw := users[user]
	group := c.w.Group()
	cases := []struct {
		name string
		args []string
	}{
		{"SSL by flags", []string{"-b", c.b.Listener("SSL"), "--tls-ca", pki.CAFile}},
		{"SASL_SSL SCRAM-SHA-512 by flags", []string{"-b", c.b.Listener("SASL_SSL"), "--tls-ca", pki.CAFile,
			"--sasl-mechanism", "SCRAM-SHA-512", "--sasl-user", user, "--sasl-password", pw}},
		{"SASL_PLAINTEXT SCRAM-SHA-512 by flags", []string{"-b", c.b.Listener("SASL_PLAINTEXT"),
			"--sasl-mechanism", "SCRAM-SHA-512", "--sasl-user", user, "--sasl-password", pw}},
		{"SASL_SSL SCRAM-SHA-512 by --worker-config", []string{"--worker-config", c.secureWorkerFile(t, "SASL_SSL", "SCRAM-SHA-512", user)}},
		{"SASL_PLAINTEXT SCRAM-SHA-512 by --worker-config", []string{"--worker-config", c.secureWorkerFile(t, "SASL_PLAINTEXT", "SCRAM-SHA-512", user)}},
		{"SSL by --worker-config", []string{"--worker-config", c.secureWorkerFile(t, "SSL", "", "")}},
	}
	log := newRequestLog(c.b.Dir())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mark := log.mark(t)
			for _, cmd := range [][]string{{"inspect", "members", "-o", "json"}, {"inspect", "configs", "-o", "json"}, {"check", "all", "-o", "json"}} {
				args := append(append([]string{"--timeout", "20s"}, tc.args...), cmd...)
				if slices.Contains(tc.args, "--worker-config") && cmd[0] == "check" {
					// worker files alone keep the checks offline; -b makes them read
					// the cluster, still with the file's security settings.
					args = append([]string{"-b", bootstrapOf(t, tc.args[1])}, args...)
				}
				stdout, stderr, code := run(args...)
				name := strings.Join(cmd, " ")
				if code != 0 && !(cmd[0] == "check" && code == 1) {
					t.Errorf("%s: exit %d: %s", name, code, stderr)
					continue
				}
				if strings.Contains(stdout+stderr, pw) {
					t.Errorf("%s printed the SASL password", name)
				}
				if cmd[1] == "members" {
					var m struct {
						Group   string            `json:"group"`
						State   string            `json:"state"`
						Members []json.RawMessage `json:"members"`
					}
					if err := json.Unmarshal([]byte(stdout), &m); err != nil {
						t.Fatalf("%s: %v: %s", name, err, stdout)
					}
					if m.Group != group || m.State != "Stable" || len(m.Members) != 1 {
						t.Errorf("%s: group %q %s with %d members, want %s Stable with the one worker", name, m.Group, m.State, len(m.Members), group)
					}
				}
			}
			time.Sleep(200 * time.Millisecond)
			// The broker's own account of the connections: the listener and
			// the authenticated principal of connectscope's requests.
			listener, principal := strings.Fields(tc.name)[0], "User:ANONYMOUS"
			if strings.HasPrefix(listener, "SASL") {
				principal = "User:" + user
			}
			seen := map[string]int{}
			for _, r := range log.since(t, mark) {
				if r.ClientID == "connectscope" {
					seen[r.Listener+" "+r.Principal]++
				}
			}
			if len(seen) != 1 || seen[listener+" "+principal] == 0 {
				t.Errorf("connectscope's requests came over %v, want only %s as %s", seen, listener, principal)
			}
		})
	}
	t.Run("a wrong SCRAM password is one clear error, exit 3", func(t *testing.T) {
		_, stderr, code := run("--timeout", "10s", "-b", c.b.Listener("SASL_SSL"), "--tls-ca", pki.CAFile,
			"--sasl-mechanism", "SCRAM-SHA-512", "--sasl-user", user, "--sasl-password", "wrong-"+pw, "inspect", "members")
		if code != 3 || !strings.Contains(stderr, `authentication failed for user "alice" with SCRAM-SHA-512`) {
			t.Errorf("exit %d: %s", code, stderr)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 0 || strings.Contains(stderr, pw) {
			t.Errorf("want one line without the password, got: %q", stderr)
		}
	})
	t.Run("TLS without the CA is refused with the fix", func(t *testing.T) {
		_, stderr, code := run("--timeout", "10s", "-b", c.b.Listener("SSL"), "--tls", "inspect", "members")
		if code != 3 || !strings.Contains(stderr, "--tls-ca") {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
}

// bootstrapOf reads bootstrap.servers from a worker file.
func bootstrapOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "bootstrap.servers="); ok {
			return v
		}
	}
	t.Fatalf("%s has no bootstrap.servers", path)
	return ""
}
