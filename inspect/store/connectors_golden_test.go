package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/internal/golden"
)

// recTablesText renders tables plainly (tab-separated, wide columns marked
// with *) so a golden file shows exactly what the result hands the printer.
func recTablesText(tables []format.Table) string {
	var b strings.Builder
	for _, t := range tables {
		b.WriteString("## " + t.Title + "\n")
		header := append([]string{}, t.Header...)
		for _, w := range t.Wide {
			header[w] += "*"
		}
		b.WriteString(strings.Join(header, "\t") + "\n")
		for _, row := range t.Rows {
			b.WriteString(strings.Join(row, "\t") + "\n")
		}
		for _, f := range t.Footer {
			b.WriteString("-- " + f + "\n")
		}
	}
	return b.String()
}

// TestTablesGolden pins the table form of two replay vectors' results.
func TestTablesGolden(t *testing.T) {
	for _, name := range []string{"hw-st-running-failed-unassigned", "hw-cfg-restart-requests"} {
		t.Run(name, func(t *testing.T) {
			recs := recReadDump(t, filepath.Join(recVectorDir, "replay", "public", name+".jsonl"))
			config, status, _, _ := SplitTopics(recs, inspect.DefaultTopicNames())
			cfg := DecodeConfigs(config, DecodeOptions{})
			st := DecodeStatus(status, DecodeOptions{})
			var all []format.Table
			all = append(all, cfg.Tables()...)
			all = append(all, st.Tables()...)
			all = append(all, Connectors(cfg, st).Tables()...)
			got := recTablesText(all)
			path := filepath.Join("testdata", "records-"+name+".golden")
			if golden.Update() {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-records-golden to create it)", err)
			}
			if got != string(want) {
				t.Errorf("tables differ from %s:\n%s", path, got)
			}
		})
	}
}
