package plot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/connectscope/connectscope/plan/advise"
	"github.com/connectscope/connectscope/plan/whatif"
)

// hostileNames are worker names a cluster can carry: every character XML
// 1.0 forbids, markup, terminal controls, bidi overrides.
// (Short: the layout of long lane names is another matter.)
var hostileNames = []string{
	"w\x00", "w\x1b]0;t\x07", "w\x08\x0b\x0c", "w<b>&amp;\"'",
	"w\u202ee", "w\ufffe\uffff", "w\x85\x9b", "w\xff\xfe", "w]]>",
}

// Names from the cluster with control characters, markup or bytes that are
// not UTF-8 still give well-formed SVG, with each name shown visibly.
func TestSVGWithHostileNamesIsXML(t *testing.T) {
	st, opts := classic()
	res, err := whatif.RollingRestartPlan(st, opts, 90000, whatif.StopClean, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The lanes take the hostile names first, in a fixed order, so the
	// OSC and markup names are always drawn as lanes (the map's own order
	// would leave them off the lanes in some runs).
	members := Hosts(res.Branches[0].Cooperative, func(m string) string { return m })
	for m := range res.Labels {
		if !slices.Contains(members, m) {
			members = append(members, m)
		}
	}
	for i, m := range members {
		res.Labels[m] = fmt.Sprintf("%s%d", hostileNames[i%len(hostileNames)], i)
	}
	res.Branches[0].Name = "r\x1b[2J" + hostileNames[0]
	var buf bytes.Buffer
	if err := WriteTimeline(&buf, FormatSVG, res); err != nil {
		t.Fatal(err)
	}
	texts := parseSVG(t, buf.Bytes())
	if bytes.ContainsAny(buf.Bytes(), "\x00\x1b\x08\u202e") {
		t.Errorf("a control or bidi character reaches the SVG raw")
	}
	// Every lane is named, visibly escaped, once per panel.
	label := func(m string) string { return text(res.Labels[m]) }
	for _, h := range Hosts(res.Branches[0].Cooperative, label) {
		if got := count(texts, label(h)); got != 2 {
			t.Errorf("lane %q appears %d times, want 2", label(h), got)
		}
	}
	if count(texts, "w^[]0;t^G1") != 2 && count(texts, `w<b>&amp;"'3`) != 2 {
		t.Errorf("neither the OSC name nor the markup name is shown as text: %v", texts)
	}

	adv, err := advise.Advise(context.Background(), st, opts, advise.AdviseOptions{RestartMs: 90000, MaxMoves: -1})
	if err != nil {
		t.Fatal(err)
	}
	for m := range adv.Labels {
		adv.Labels[m] = hostileNames[0] + hostileNames[5]
	}
	buf.Reset()
	if err := WriteTradeoff(&buf, FormatSVG, adv); err != nil {
		t.Fatal(err)
	}
	parseSVG(t, buf.Bytes())
}

// Save draws into a temporary file and renames it: a symbolic link at the
// path is replaced, not followed; a failed drawing leaves the old picture;
// two writers at once leave one whole picture.
func TestSaveIsAtomic(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "plan.svg")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	picture := func(body string) func(io.Writer, string) error {
		return func(w io.Writer, _ string) error { _, err := io.WriteString(w, body); return err }
	}
	if err := Save(link, picture("<svg/>")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("the link's target was overwritten: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink != 0 || fi.Mode().Perm() != 0o644 {
		t.Errorf("the picture is not a plain 0644 file at the path: %v %v", fi.Mode(), err)
	}

	failing := func(w io.Writer, _ string) error {
		io.WriteString(w, "<sv")
		return errors.New("drawing failed")
	}
	if err := Save(link, failing); err == nil {
		t.Fatal("a failed drawing is not an error")
	}
	if b, _ := os.ReadFile(link); string(b) != "<svg/>" {
		t.Errorf("a failed drawing changed the old picture: %q", b)
	}

	var wg sync.WaitGroup
	bodies := []string{strings.Repeat("A", 1<<20), strings.Repeat("B", 1<<20)}
	for r := 0; r < 10; r++ {
		for _, body := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := Save(link, picture(body)); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if b, _ := os.ReadFile(link); string(b) != bodies[0] && string(b) != bodies[1] {
			t.Fatalf("two writers left a torn picture (%d bytes)", len(b))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".plan.svg.*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
