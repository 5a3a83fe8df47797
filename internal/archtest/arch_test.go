// Package archtest holds ARCHITECTURE.md to the code: its layer table
// against the imports `go list` reports.
package archtest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/connectscope/connectscope"

// testOnly are the packages that sit beside the stack (ARCHITECTURE.md:
// the test helpers of internal/, the real-Kafka suites of e2e/ and the
// generators): they may use any layer, and production code never imports
// them. Every package under the top-level internal/ is a test helper.
var testOnly = regexp.MustCompile(`^((internal|e2e)/.*|.*/internal/gen[a-z]*|plan/internal/scenariogen)$`)

// layers reads the table of ARCHITECTURE.md's Arrows section: package →
// layer number.
func layers(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	in, seen := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## Arrows"):
			seen = true
		case seen && line == "```":
			if in {
				return out
			}
			in = true
		case in:
			fields := strings.Fields(strings.ReplaceAll(line, "(the root)", ""))
			n, err := strconv.Atoi(fields[0])
			if err != nil {
				t.Fatalf("layer line %q: %v", line, err)
			}
			for _, p := range fields[1:] {
				if p == "(model)" {
					continue
				}
				out[p] = n
			}
		}
	}
	t.Fatal("ARCHITECTURE.md has no layer table under ## Arrows")
	return nil
}

type pkg struct {
	ImportPath string
	Imports    []string
}

// packages are the module's packages and the imports of their non-test
// files, as `go list` reports them.
func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", module+"/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func rel(path string) string {
	if path == module {
		return "inspect/.." // the module root holds no package
	}
	return strings.TrimPrefix(path, module+"/")
}

// TestLayers: every production package is in the table, and each imports
// only packages on lower layers (larger numbers) and no test support.
func TestLayers(t *testing.T) {
	layer := layers(t)
	var missing []string
	for _, p := range packages(t) {
		from := rel(p.ImportPath)
		if testOnly.MatchString(from) {
			continue
		}
		l, ok := layer[from]
		if !ok {
			missing = append(missing, from)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := rel(imp)
			if testOnly.MatchString(to) {
				t.Errorf("%s (production) imports the test support %s", from, to)
				continue
			}
			if m, ok := layer[to]; ok && m <= l {
				t.Errorf("%s (layer %d) imports %s (layer %d): an arrow up or sideways; fix the code or ARCHITECTURE.md", from, l, to, m)
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s is not in ARCHITECTURE.md's layer table", m)
	}
}

// TestCommandsStartFromTheViews: the command line reaches the decoders, the
// group views and the assignor only through inspect/views, plan and
// check (ARCHITECTURE.md, "What a verb reads and prints").
func TestCommandsStartFromTheViews(t *testing.T) {
	for _, p := range packages(t) {
		from := rel(p.ImportPath)
		if from != "commands" && !strings.HasPrefix(from, "commands/") {
			continue
		}
		for _, imp := range p.Imports {
			switch rel(imp) {
			case "inspect/store", "inspect/group", "plan/assignor":
				t.Errorf("%s imports %s: reach it through inspect/views, plan or check", from, rel(imp))
			}
		}
	}
}

// TestFormatDependsOnNothingOfOurs: format, and the JSON writer beside it,
// import no package of this module (ARCHITECTURE.md, Parts).
func TestFormatDependsOnNothingOfOurs(t *testing.T) {
	for _, p := range packages(t) {
		from := rel(p.ImportPath)
		if from != "format" && !strings.HasPrefix(from, "format/") {
			continue
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module+"/") {
				t.Errorf("%s imports %s: format depends on nothing of ours", from, rel(imp))
			}
		}
	}
}
