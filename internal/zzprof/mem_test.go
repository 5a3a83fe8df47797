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

func TestMem(t *testing.T) {
	runtime.MemProfileRate = 64 << 10
	var peak uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak {
				peak = ms.HeapInuse
			}
		}
	}()
	ds, err := inspect.ReadLive(context.Background(), inspect.LiveOptions{Conn: inspect.ConnOptions{Bootstrap: []string{"127.0.0.1:19092"}, Timeout: 30 * time.Second}, SkipSinkGroups: true, Read: []string{"connect-status"}})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	f, _ := os.Create("/tmp/prof/mem.out")
	pprof.WriteHeapProfile(f)
	f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	close(stop)
	t.Logf("after GC heap inuse %d MB; peak inuse %d MB; records %d", ms.HeapInuse>>20, peak>>20, len(ds.Records))
}
