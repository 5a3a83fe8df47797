package format

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jedib0t/go-pretty/v6/table"
)

// wholeGrid is writeGrid as it was, every column laid out by go-pretty:
// the reference for writeRows.
func wholeGrid(withHeader bool, header []string, rows [][]string, gap, failed int, color bool) string {
	var out strings.Builder
	tw := table.NewWriter()
	style := borderless()
	style.Box.PaddingRight = strings.Repeat(" ", gap)
	tw.SetStyle(style)
	if withHeader {
		row := table.Row{}
		for _, h := range header {
			row = append(row, paint(h, ansiBold, color))
		}
		tw.AppendHeader(row)
	}
	for _, r := range rows {
		alert := failed >= 0 && failed < len(r) && isPositiveCount(r[failed])
		row := table.Row{}
		for c, v := range r {
			code := stateColors[v]
			if alert && (c == 0 || c == failed) {
				code = ansiRed
			}
			row = append(row, paint(v, code, color))
		}
		tw.AppendRow(row)
	}
	for _, line := range strings.Split(tw.Render(), "\n") {
		out.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return out.String()
}

var gridCells = []string{"", " ", "a", "RUNNING", "FAILED", "2", "0", "orders-sink", "a b", " lead", "trail ", "x\ty", "x\r\ny", "x\ny", "x\ry", "日本語", "e\u0301", "\x1b[31mred\x1b[0m", strings.Repeat("long ", 40),
	"\t", "a\t", "🙂", "x\u200by", "\u3000wide space", "ｆｕｌｌ", "^[[31m", "\\u202e", "1 (gen 2)", "t+0s..2.5s"}

// The rows written one a line without go-pretty give the bytes go-pretty
// gave, for tables of every shape:
// ragged and empty rows, empty columns, colours, wide runes, tabs and line
// breaks (which make go-pretty lay it out whole).
func TestGridIsGoPretty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 30000 {
		cols := 1 + r.IntN(5)
		header := make([]string, cols)
		for i := range header {
			header[i] = strings.ToUpper(gridCells[r.IntN(len(gridCells))])
		}
		rows := make([][]string, r.IntN(7))
		for i := range rows {
			rows[i] = make([]string, max(0, cols-r.IntN(2)+r.IntN(2)))
			for c := range rows[i] {
				rows[i][c] = gridCells[r.IntN(len(gridCells))]
			}
		}
		withHeader, color, gap, failed := r.IntN(2) == 0, r.IntN(2) == 0, 1+r.IntN(3), r.IntN(cols+1)-1
		var got strings.Builder
		writeGrid(&got, withHeader, header, rows, gap, failed, color)
		if want := wholeGrid(withHeader, header, rows, gap, failed, color); got.String() != want {
			t.Fatalf("header %q (shown %v), rows %q, gap %d, failed %d, color %v:\n got %q\nwant %q", header, withHeader, rows, gap, failed, color, got.String(), want)
		}
	}
}

// 15,000 rows beside one cell of 175 KB in the last column (check upgrade
// of 5,000 workers): go-pretty padded every row to it.
func BenchmarkGridLongLastCell(b *testing.B) {
	rows := make([][]string, 15000)
	for i := range rows {
		rows[i] = []string{"info", "U9", "10.0.0.1:8083", "short"}
	}
	rows[0][3] = strings.Repeat("10.0.0.1:8083 (version unknown), ", 5000)
	b.ReportAllocs()
	for b.Loop() {
		var out strings.Builder
		writeGrid(&out, true, []string{"SEVERITY", "RULE", "SUBJECT", "MESSAGE"}, rows, 3, -1, false)
	}
}
