package completions

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hostileCandidates are names a cluster may hold (anyone who can create a
// connector chooses them), each with the word the completed command line
// must hand to connectscope: itself, literally, as one argument.
var hostileCandidates = [][]string{
	{"$(touch PWNED1)"},
	{"x;touch PWNED2;"},
	{"`touch PWNED3`"},
	{"a b  c"},
	{"*"},
	{"it's"},
	{`a"b\c`},
	{"{a,b}"},
	{"$HOME"},
	{"x|touch PWNED4"},
	{"x&&touch PWNED5"},
	{"<in>out"},
	{"#comment"},
	{"~root"},
	{"ok-name_1.2:8083"},
	// Two candidates: Tab inserts what they share.
	{"$(touch PWNED6)a", "$(touch PWNED6)b"},
}

// wantWord is the argument a completed line gives for candidates: the one
// candidate, or what several share.
func wantWord(cands []string) string {
	w := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, w) {
			w = w[:len(w)-1]
		}
	}
	return w
}

// TestCompletionInRealShells loads each completion script into the real
// shell, on a pseudo-terminal (zsh's zpty), types a command line, presses
// Tab and Enter, and checks what the shell ran: the candidate as one
// literal argument, never globbed, split or run as shell syntax. A stand-in
// connectscope offers the hostile candidates, so the scripts' quoting is
// what is tested. CI installs bash, zsh and fish; elsewhere a missing shell
// is skipped.
func TestCompletionInRealShells(t *testing.T) {
	if testing.Short() {
		t.Skip("drives interactive shells")
	}
	if _, err := exec.LookPath("zsh"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("zsh is not installed; CI must install it")
		}
		t.Skip("zsh (and its zpty module) drive the shells")
	}
	driver, err := filepath.Abs(filepath.Join("testdata", "drive.zsh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(shell); err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("%s is not installed; CI must install it (apt-get install -y %s)", shell, shell)
				}
				t.Skipf("%s is not installed", shell)
			}
			root := t.TempDir()
			bin, cases, work := filepath.Join(root, "bin"), filepath.Join(root, "cases"), filepath.Join(root, "work")
			for _, d := range []string{bin, cases, work} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			script, err := Script(shell)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "script"), script, 0o644); err != nil {
				t.Fatal(err)
			}
			// Files a glob would pick up.
			for _, f := range []string{"file1", "file2"} {
				if err := os.WriteFile(filepath.Join(work, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			standIn := "#!/bin/sh\n" +
				"case \"$1\" in\n" +
				"completion) cat \"$CASES/../script\" ;;\n" +
				"__complete) cat \"$CASES/current\" ;;\n" +
				"*) for a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$CASES/args.tmp\"; mv \"$CASES/args.tmp\" \"$CASES/args\" ;;\n" +
				"esac\n"
			if err := os.WriteFile(filepath.Join(bin, "connectscope"), []byte(standIn), 0o755); err != nil {
				t.Fatal(err)
			}
			var dirs []string
			for i, cands := range hostileCandidates {
				d := filepath.Join(cases, fmt.Sprintf("case%02d", i))
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, "candidates"), []byte(strings.Join(cands, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				dirs = append(dirs, d)
			}
			cmd := exec.Command("zsh", append([]string{"-f", driver, shell, "connectscope inspect connector "}, dirs...)...)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "CASES="+cases, "HOME="+root, "XDG_CONFIG_HOME="+root, "XDG_DATA_HOME="+root)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("driving %s: %v\n%s", shell, err, out)
			}
			for i, cands := range hostileCandidates {
				b, err := os.ReadFile(filepath.Join(dirs[i], "args"))
				if err != nil {
					t.Errorf("%q: the completed line did not run connectscope: %v", cands, err)
					continue
				}
				args := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
				want := []string{"inspect", "connector", wantWord(cands)}
				if shell == "fish" && cands[0] == "~root" {
					// fish would expand the ~ as it inserts: the script leaves it out.
					want = want[:2]
				}
				if strings.Join(args, "\x00") != strings.Join(want, "\x00") {
					t.Errorf("%q completed and ran as %q, want %q", cands, args, want)
				}
			}
			if pwned, _ := filepath.Glob(filepath.Join(work, "PWNED*")); len(pwned) > 0 {
				t.Errorf("completing ran cluster data as shell code: %v", pwned)
			}
		})
	}
}
