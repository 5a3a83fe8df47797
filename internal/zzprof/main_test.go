package prof

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
)

func TestProf(t *testing.T) {
	f, _ := os.Create("/tmp/prof/cpu.out")
	pprof.StartCPUProfile(f)
	start := time.Now()
	ds, err := inspect.ReadLive(context.Background(), inspect.LiveOptions{Conn: inspect.ConnOptions{Bootstrap: []string{"127.0.0.1:19092"}, Timeout: 30 * time.Second}, SkipSinkGroups: true, Read: []string{"connect-status"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("readlive %s, %d records", time.Since(start), len(ds.Records))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap inuse %d MB, sys %d MB, numgc %d, pause %s", ms.HeapInuse>>20, ms.Sys>>20, ms.NumGC, time.Duration(ms.PauseTotalNs))
	start = time.Now()
	_, st, _, _ := inspect.SplitTopics(ds.Records, ds.Topics)
	res := inspect.DecodeStatus(st, inspect.DecodeOptions{})
	t.Logf("decode %s, %d tasks", time.Since(start), len(res.Tasks))
	pprof.StopCPUProfile()
}
