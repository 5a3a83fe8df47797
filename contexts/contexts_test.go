package contexts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad(t *testing.T) {
	p := write(t, `# clusters
current-context: prod
contexts:
  prod:
    bootstrap-server: k1:9092,k2:9092
    group: connect-prod
    timeout: 7s
    tls-ca: certs/ca.pem
    sasl-mechanism: SCRAM-SHA-512
    sasl-user: connect
    sasl-password-file: pw.txt
  empty:
`)
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.CurrentContext != "prod" || strings.Join(f.Names(), ",") != "empty,prod" {
		t.Fatalf("%+v", f)
	}
	c, _ := f.Get("prod")
	dir := filepath.Dir(p)
	if c.Timeout != 7*time.Second || c.TLSCA != filepath.Join(dir, "certs/ca.pem") || c.SASLPasswordFile != filepath.Join(dir, "pw.txt") {
		t.Errorf("%+v", c)
	}
	if err := os.WriteFile(filepath.Join(dir, "pw.txt"), []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if pw, err := c.Password("prod"); err != nil || pw != "s3cret" {
		t.Errorf("password file: %q, %v", pw, err)
	}
	if _, err := f.Get("nosuch"); err == nil || !strings.Contains(err.Error(), "use one of empty, prod") {
		t.Errorf("unknown context: %v", err)
	}
}

func TestMissingFileIsEmpty(t *testing.T) {
	f, err := Load(filepath.Join(t.TempDir(), "none.yaml"))
	if err != nil || f.Exists() || len(f.Contexts) != 0 || f.CurrentContext != "" {
		t.Fatalf("%+v, %v", f, err)
	}
}

func TestRefusedFiles(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"contexts:\n  prod:\n    sasl-user: connect\n    sasl-password: hunter2\n",
			":4: context prod: sasl-password holds a password in clear; keep it elsewhere and name it with sasl-password-env: VARIABLE or sasl-password-file: PATH"},
		{"contexts:\n  prod:\n    password: hunter2\n", "context prod: password holds a password in clear"},
		{"contexts:\n  prod:\n    bootstrap: k:9092\n", ":3: unknown key bootstrap"},
		{"contexts:\n  prod:\n    sasl-password-env: A\n    sasl-password-file: b\n", "not both"},
		{"contexts: [\n", "did not find expected"},
		{"contexts:\n  <<: {a: {group: g}}\n", ":2: a merge (<<) among the contexts is not supported"},
		{"contexts:\n  a:\n    <<: [{group: g}, 2]\n", ":3: a merge (<<) takes a mapping or a list of mappings"},
		{"contexts:\n  a:\n    \"<<\": {group: g}\n", ":3: unknown key <<"},
		{"contexts:\n  ~: {group: g}\n", `:2: a context's name must be text, not null ("~"); quote it`},
		{"contexts:\n  a: {group: g}\n---\ncontexts:\n  b: {group: h}\n", ":4: a second YAML document: keep one mapping of current-context and contexts"},
	} {
		_, err := Load(write(t, tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: %v, want %q and no password", tc.text, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error is not one line: %q", tc.text, err)
		}
	}
}

func TestPasswordEnv(t *testing.T) {
	c := &Context{SASLPasswordEnv: "CONNECTSCOPE_TEST_PW"}
	t.Setenv("CONNECTSCOPE_TEST_PW", "")
	if _, err := c.Password("x"); err == nil || !strings.Contains(err.Error(), "CONNECTSCOPE_TEST_PW, which is not set") {
		t.Errorf("unset: %v", err)
	}
	t.Setenv("CONNECTSCOPE_TEST_PW", "pw")
	if pw, err := c.Password("x"); pw != "pw" || err != nil {
		t.Errorf("%q %v", pw, err)
	}
}

func TestUseContextKeepsTheRest(t *testing.T) {
	text := "# my clusters\ncontexts:\n  a:\n    group: ga # the old one\n  b:\n    group: gb\n"
	p := write(t, text)
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.UseContext("b"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := "# my clusters\ncurrent-context: b\n" + strings.TrimPrefix(text, "# my clusters\n"); string(got) != want {
		t.Errorf("rewritten file:\n%s", got)
	}
	if err := f.UseContext("a"); err != nil {
		t.Fatal(err)
	}
	g, err := Load(p)
	if err != nil || g.CurrentContext != "a" {
		t.Fatalf("%v %+v", err, g)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	if err := f.UseContext("c"); err == nil {
		t.Error("unknown context accepted")
	}
}

// TestSecondDocumentIsNeverDropped: the commands that rewrite the file
// refuse one with a second document rather than write back the first alone,
// even when it was loaded before the second document was added.
func TestSecondDocumentIsNeverDropped(t *testing.T) {
	first := "contexts:\n  a:\n    group: ga\n"
	p := write(t, first)
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	text := first + "---\ncontexts:\n  b:\n    group: gb\n"
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, rewrite := range map[string]func() error{
		"use-context": func() error { return f.UseContext("a") },
		"set-context": func() error { return f.SetContext("a", []Setting{{Key: "group", Value: "g2"}}) },
	} {
		if err := rewrite(); err == nil || !strings.Contains(err.Error(), ":5: a second YAML document") {
			t.Errorf("%s: %v, want the second document refused", name, err)
		}
		if got, _ := os.ReadFile(p); string(got) != text {
			t.Errorf("%s rewrote the file:\n%s", name, got)
		}
	}
	// A trailing --- is an empty document, not a second one.
	if _, err := Load(write(t, first+"---\n")); err != nil {
		t.Errorf("trailing ---: %v", err)
	}
}

// TestReadmeExample loads the config file the README shows.
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "## Named clusters (contexts)")
	_, block, ok2 := strings.Cut(sec, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README has no yaml example under Named clusters (contexts)")
	}
	f, err := Load(write(t, block))
	if err != nil {
		t.Fatal(err)
	}
	prod, err := f.Get("prod")
	if err != nil || f.CurrentContext != "prod" || prod.SASLPasswordEnv != "PROD_KAFKA_PASSWORD" || prod.Timeout != 10*time.Second {
		t.Errorf("%v %+v", err, prod)
	}
	if st, err := f.Get("staging"); err != nil || len(st.WorkerConfig) != 1 {
		t.Errorf("staging: %v %+v", err, st)
	}
}

func TestSetContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new", "config.yaml")
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetContext("prod", []Setting{{"bootstrap-server", "k:9092"}, {"tls", true}, {"worker-config", []string{"/w.properties"}}}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Dir(p)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("directory: %v %v", st.Mode(), err)
	}
	text := "# mine\ncurrent-context: prod\ncontexts:\n  prod:\n    group: g # keep me\n  dev: {}\n"
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.SetContext("prod", []Setting{{"group", "g2"}, {"sasl-password-env", "PW"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.SetContext("dev", []Setting{{"bootstrap-server", "d:9092"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := "# mine\ncurrent-context: prod\ncontexts:\n  prod:\n    group: g2 # keep me\n    sasl-password-env: PW\n  dev:\n    bootstrap-server: d:9092\n"
	if string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	// What Load refuses is refused before writing.
	if err := f.SetContext("prod", []Setting{{"sasl-password-file", "/pw"}}); err == nil || !strings.Contains(err.Error(), "not both") || !strings.Contains(err.Error(), p) {
		t.Errorf("both references: %v", err)
	}
	if after, _ := os.ReadFile(p); string(after) != want {
		t.Errorf("a refused change was written:\n%s", after)
	}
	// A file of comments alone (yaml.v3 finds no node for them), or an
	// empty document, keeps its comments above the first context.
	for _, start := range []string{"# my clusters\n  # staging soon\n", "# my clusters\n---\n# staging soon\n", "~\n"} {
		if err := os.WriteFile(p, []byte(start), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := f.SetContext("dev", []Setting{{"group", "g"}}); err != nil {
			t.Fatalf("%q: %v", start, err)
		}
		want := "contexts:\n  dev:\n    group: g\n"
		if start != "~\n" {
			want = "# my clusters\n# staging soon\n\n" + want
		}
		if got, _ := os.ReadFile(p); string(got) != want {
			t.Errorf("%q became:\n%s\nwant:\n%s", start, got, want)
		}
	}
}

// An unknown key is refused with the file, its line and the key, in words
// a user knows (not yaml.v3's "field … not found in type contexts.Context").
func TestUnknownKeyNamesFileLineAndKey(t *testing.T) {
	p := write(t, "contexts:\n  prod:\n    bootstrap-server: k:9092\n    colour: red\n")
	_, err := Load(p)
	if err == nil {
		t.Fatal("unknown key accepted")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, p+":4: unknown key colour") || strings.Contains(msg, "contexts.Context") || strings.Contains(msg, "\n") {
		t.Errorf("error = %q", msg)
	}
}
