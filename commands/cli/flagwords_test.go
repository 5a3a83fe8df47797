package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/setting"
)

// Every setting the deep packages name has a global flag behind it.
func TestEverySettingHasAFlag(t *testing.T) {
	names := map[string]bool{}
	for _, f := range globalFlags(false) {
		for _, n := range f.Names() {
			names[n] = true
		}
	}
	for _, s := range setting.All {
		words := FlagName(s)
		if words == "" {
			t.Errorf("setting %q has no flag words", s)
			continue
		}
		for _, m := range flagToken.FindAllStringSubmatch(words, -1) {
			if !names[strings.TrimLeft(m[1], "-")] {
				t.Errorf("setting %q maps to %q: %s is not a global flag", s, words, m[1])
			}
		}
	}
}

// flagToken is a -x or --name token in a text.
var flagToken = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.-])(--?[a-z][a-z0-9-]*)`)

// otherToolsFlags are texts in the deep packages that name another
// program's flags, not ours.
var otherToolsFlags = []string{
	"kafka-streams-groups --delete --group ID", // check rule K: Kafka's own group tools
}

// flagsInCatalogue are rule texts of check's catalogue (RULES.md and the
// findings' fix) that still name a global flag: the catalogue is plain
// strings, so the commands cannot put their flag names in.
var flagsInCatalogue = []string{
	"pass every worker's file with --worker-config (globs allowed)",
}

// The deep packages name settings, never the CLI's global flags: a string
// literal in a non-test file of inspect, plan or check that holds a global
// --flag fails here. Comments may name flags.
func TestDeepPackagesNameNoGlobalFlags(t *testing.T) {
	global := map[string]bool{}
	for _, f := range globalFlags(false) {
		for _, n := range f.Names() {
			if len(n) > 1 {
				global["--"+n] = true
			}
		}
	}
	allowed := func(text string) bool {
		for _, a := range append(slices.Clone(otherToolsFlags), flagsInCatalogue...) {
			if strings.Contains(text, a) {
				return true
			}
		}
		return false
	}
	files := 0
	for _, dir := range []string{"../../inspect", "../../plan", "../../check"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			files++
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				text, err := strconv.Unquote(lit.Value)
				if err != nil {
					text = lit.Value
				}
				for _, m := range flagToken.FindAllStringSubmatch(text, -1) {
					if global[m[1]] && !allowed(text) {
						t.Errorf("%s: string %s names the global flag %s; name the setting (inspect/setting) and let commands name the flag", fset.Position(lit.Pos()), lit.Value, m[1])
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Fatalf("scanned only %d files: is the test running from commands/cli?", files)
	}
}
