// Package archtest holds ARCHITECTURE.md to the code: its layer table
// against the imports `go list` reports.
package archtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
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
// files, as `go list` reports them, the e2e suites (build tag e2e) included.
func packages(t *testing.T) []pkg {
	t.Helper()
	listed.once.Do(func() {
		cmd := exec.Command("go", "list", "-tags", "e2e", "-json=ImportPath,Imports", module+"/...")
		cmd.Dir = "../.."
		out, err := cmd.Output()
		if err != nil {
			listed.err = fmt.Errorf("go list: %w", err)
			return
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for dec.More() {
			var p pkg
			if err := dec.Decode(&p); err != nil {
				listed.err = err
				return
			}
			listed.pkgs = append(listed.pkgs, p)
		}
	})
	if listed.err != nil {
		t.Fatal(listed.err)
	}
	return listed.pkgs
}

// listed is go list's answer, asked once for all the tests.
var listed struct {
	once sync.Once
	pkgs []pkg
	err  error
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

// arrows are the arrows ARCHITECTURE.md states in words for one package:
// the packages of this module it may import, and whether the helpers of
// the table's last layer (errors that name an input or setting, the
// bounded and atomic files, the JSON scanner and writer) come on top.
type arrows struct {
	uses    []string
	helpers bool
}

// stated are the arrows ARCHITECTURE.md states in words (the Parts table's
// "depends on nothing of ours", "standard library only", "main only", and
// the list under the layer table). A package not listed is held by the
// layer table alone.
var stated = map[string]arrows{
	"cmd/connectscope":     {uses: []string{"commands"}},             // main only
	"inspect":              {},                                       // the model only
	"inspect/protocol":     {},                                       // standard library only
	"inspect/kafkaversion": {},                                       // the one reading of a release number
	"plan/assignor":        {uses: []string{"inspect/kafkaversion"}}, // nothing of inspect but the version type
	"format":               {},                                       // depends on nothing of ours
	"format/jsonout":       {},                                       // beside format, nothing of ours either
	"inspect/redact":       {uses: []string{"inspect", "inspect/protocol"}},
	"inspect/store":        {uses: []string{"inspect", "inspect/protocol", "inspect/redact", "inspect/kafkaversion", "format"}, helpers: true},
	"inspect/group":        {uses: []string{"inspect", "inspect/protocol", "inspect/redact", "format"}, helpers: true},
	"inspect/watch":        {uses: []string{"inspect", "inspect/store", "inspect/group", "format"}, helpers: true},
	"inspect/views":        {uses: []string{"inspect", "inspect/store", "inspect/group", "inspect/watch", "inspect/redact", "inspect/filter"}, helpers: true},
	"inspect/live":         {uses: []string{"inspect", "inspect/store", "inspect/watch", "inspect/workerconfig"}, helpers: true},
	"inspect/source":       {uses: []string{"inspect", "format"}, helpers: true},
	"inspect/workerconfig": {uses: []string{"inspect", "inspect/redact"}, helpers: true},
}

// TestStatedArrows holds the arrows ARCHITECTURE.md states in words to the
// imports, both ways: a package imports nothing the page does not say, and
// every package the page names this way exists.
func TestStatedArrows(t *testing.T) {
	layer := layers(t)
	bottom := 0
	for _, n := range layer {
		bottom = max(bottom, n)
	}
	seen := map[string]bool{}
	for _, p := range packages(t) {
		from := rel(p.ImportPath)
		a, ok := stated[from]
		if !ok {
			continue
		}
		seen[from] = true
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := rel(imp)
			if a.helpers && layer[to] == bottom {
				continue
			}
			if !slices.Contains(a.uses, to) {
				t.Errorf("%s imports %s, which ARCHITECTURE.md does not say it uses; fix the code or the page (and this list)", from, to)
			}
		}
	}
	for from := range stated {
		if !seen[from] {
			t.Errorf("%s is named in ARCHITECTURE.md's arrows but is no package", from)
		}
	}
}

// TestOnlyTopImportsSandbox: production code never imports the sandbox but
// commands/top, for `demo` and `sandbox`.
func TestOnlyTopImportsSandbox(t *testing.T) {
	for _, p := range packages(t) {
		from := rel(p.ImportPath)
		if testOnly.MatchString(from) || from == "commands/top" {
			continue
		}
		if slices.Contains(p.Imports, module+"/sandbox") {
			t.Errorf("%s imports sandbox: only commands/top may", from)
		}
	}
}

// TestCLIKitKnowsNoCommand: commands/cli imports no noun's package nor the
// root of the command line.
func TestCLIKitKnowsNoCommand(t *testing.T) {
	for _, p := range packages(t) {
		if rel(p.ImportPath) != "commands/cli" {
			continue
		}
		for _, imp := range p.Imports {
			if to := rel(imp); to == "commands" || strings.HasPrefix(to, "commands/") {
				t.Errorf("commands/cli imports %s: the kit knows no command", to)
			}
		}
	}
}

// namedPath is a path of this repository written in backquotes.
var namedPath = regexp.MustCompile("`((?:cmd|commands|inspect|plan|check|format|sandbox|contexts|internal|e2e|completions|examples|docs)(?:/[A-Za-z0-9_.-]+)*/?)`")

// placeholder is a path with a part in capitals standing for any name.
var placeholder = regexp.MustCompile(`(^|/)[A-Z]+(\.[a-z]+)?$`)

// TestNamedPathsExist: every package, folder or file ARCHITECTURE.md names
// in backquotes is in the repository.
func TestNamedPathsExist(t *testing.T) {
	page, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range namedPath.FindAllStringSubmatch(string(page), -1) {
		if placeholder.MatchString(m[1]) {
			continue // a pattern such as check/testdata/rules/ID.txtar
		}
		if _, err := os.Stat("../../" + m[1]); err != nil {
			t.Errorf("ARCHITECTURE.md names %s, which is not in the repository", m[1])
		}
	}
}

// identShaped is a word shaped like a Go identifier in camel case
// (joinWindowMs, LoadWorkerConfig), as a comment names a declaration.
var identShaped = regexp.MustCompile(`^([a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)$`)

// qualified is pkg.Name in a comment (Name a function, type, value or
// method of package pkg).
var qualified = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z]\w*)`)

// notGo are words shaped like identifiers that name no Go declaration.
var notGo = map[string]bool{"PowerShell": true}

// comment is a comment of the module's Go files; documents is the
// declaration a doc comment documents, "" for other comments.
type comment struct {
	pos       token.Position
	documents string
	text      string
}

// scan reads every Go file of the module: every top-level name, method
// and field declared; each package name's top-level names and methods; and
// the comments.
func scan(t *testing.T) (declared map[string]bool, byPackage map[string]map[string]bool, comments []comment) {
	t.Helper()
	fset := token.NewFileSet()
	declared = map[string]bool{}             // every top-level name, method and field
	byPackage = map[string]map[string]bool{} // package name → its top-level names and methods
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "../.." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		pkg := f.Name.Name
		if pkg == "main" || strings.HasSuffix(pkg, "_test") {
			pkg = ""
		}
		top := byPackage[pkg]
		if top == nil {
			top = map[string]bool{}
			byPackage[pkg] = top
		}
		docFor := map[*ast.CommentGroup]string{}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				declared[decl.Name.Name] = true
				top[decl.Name.Name] = true // pkg.Method names a method loosely, as comments do
				if decl.Doc != nil {
					docFor[decl.Doc] = decl.Name.Name
				}
			case *ast.GenDecl:
				for i, spec := range decl.Specs {
					var name string
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						name = spec.Name.Name
					case *ast.ValueSpec:
						for _, id := range spec.Names {
							declared[id.Name], top[id.Name] = true, true
						}
						name = spec.Names[0].Name
					default:
						continue
					}
					declared[name], top[name] = true, true
					if i == 0 && decl.Doc != nil {
						docFor[decl.Doc] = name
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if field, ok := n.(*ast.Field); ok {
				for _, id := range field.Names {
					declared[id.Name] = true
				}
			}
			return true
		})
		for _, cg := range f.Comments {
			comments = append(comments, comment{fset.Position(cg.Pos()), docFor[cg], cg.Text()})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return declared, byPackage, comments
}

// declarations are scan's names alone.
func declarations(t *testing.T) (map[string]bool, map[string]map[string]bool) {
	declared, byPackage, _ := scan(t)
	return declared, byPackage
}

// TestCommentsNameWhatExists finds comments that name a declaration that is
// no longer there: a declaration's doc comment that starts with another
// identifier than the one it documents (the name before a rename) when no
// declaration has that name, and pkg.Name in any comment, for a package of
// this module, when that package declares no Name.
func TestCommentsNameWhatExists(t *testing.T) {
	declared, byPackage, comments := scan(t)
	for _, c := range comments {
		if c.documents != "" {
			if words := strings.Fields(c.text); len(words) > 0 {
				first := strings.TrimSuffix(strings.TrimRight(words[0], ",:;."), "'s")
				if first != c.documents && identShaped.MatchString(first) && !declared[first] && !notGo[first] {
					t.Errorf("%s: the comment of %s names %s, which is declared nowhere", rel2(c.pos), c.documents, first)
				}
			}
		}
		for _, m := range qualified.FindAllStringSubmatch(c.text, -1) {
			if names, ok := byPackage[m[1]]; ok && m[1] != "" && !names[m[2]] {
				t.Errorf("%s: a comment names %s.%s, which package %s does not declare", rel2(c.pos), m[1], m[2], m[1])
			}
		}
	}
}

// rel2 is a position relative to the repository's root.
func rel2(p token.Position) string {
	return fmt.Sprintf("%s:%d", strings.TrimPrefix(filepath.ToSlash(p.Filename), "../../"), p.Line)
}

// longAllowed are the functions longer than 100 lines on purpose: the port
// of fdlibm's pow, kept line for line beside its C original.
var longAllowed = map[string]bool{"plan/assignor/fdlibm.go fdlibmPow": true}

// TestSizes: no production file over 500 lines and no production function
// over 100 (DEVELOPMENT.md, "Sizes").
func TestSizes(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "../.." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		name := strings.TrimPrefix(filepath.ToSlash(path), "../../")
		if testOnly.MatchString(filepath.ToSlash(filepath.Dir(name))) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		if n := fset.File(f.Pos()).LineCount(); n > 500 {
			t.Errorf("%s has %d lines (at most 500): split it by meaning", name, n)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n > 100 && !longAllowed[name+" "+fn.Name.Name] {
				t.Errorf("%s: %s has %d lines (at most 100)", name, fn.Name.Name, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// namedIdent is a Go identifier in backquotes: Name, pkg.Name, Name().
var namedIdent = regexp.MustCompile("`(?:([a-z][a-z0-9]*)\\.)?([A-Za-z][A-Za-z0-9]*)(?:\\(\\))?`")

// placeholders are the identifiers ARCHITECTURE.md uses as patterns, and
// the names it quotes of others' code (Kafka's Java class, urfave/cli's
// flag field).
var placeholders = map[string]bool{"NewCmdVerb": true, "NewCmdNoun": true, "W": true, "ConnectDistributed": true, "Action": true}

// TestNamedIdentifiersExist: every Go name ARCHITECTURE.md writes in
// backquotes (a type, function, field or method; pkg.Name for a package of
// this module) is declared.
func TestNamedIdentifiersExist(t *testing.T) {
	page, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	declared, byPackage := declarations(t)
	for _, m := range namedIdent.FindAllStringSubmatch(string(page), -1) {
		pkg, name := m[1], m[2]
		if placeholders[name] || (pkg == "" && !identShaped.MatchString(name) && !strings.ContainsAny(name[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
			continue // a plain word
		}
		if names, ok := byPackage[pkg]; ok && pkg != "" {
			if !names[name] {
				t.Errorf("ARCHITECTURE.md names %s.%s, which package %s does not declare", pkg, name, pkg)
			}
			continue
		}
		if pkg != "" && !strings.ContainsAny(name[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			continue // a file name (classify.go) or a variable's unexported part
		}
		if !declared[name] {
			t.Errorf("ARCHITECTURE.md names %s, which is declared nowhere", m[0])
		}
	}
}

// TestPartsNameEveryPackage: ARCHITECTURE.md's Parts table names every
// package of the module, test-only ones too.
func TestPartsNameEveryPackage(t *testing.T) {
	page, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	start, end := strings.Index(text, "## Parts"), strings.Index(text, "## Arrows")
	if start < 0 || end < start {
		t.Fatal("ARCHITECTURE.md has no Parts section before Arrows")
	}
	parts := text[start:end]
	for _, p := range packages(t) {
		if name := rel(p.ImportPath); !strings.Contains(parts, "`"+name+"`") {
			t.Errorf("%s is not in ARCHITECTURE.md's Parts table", name)
		}
	}
}
