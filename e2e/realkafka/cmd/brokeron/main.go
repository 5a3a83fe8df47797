//go:build e2e

// Command brokeron runs one real Apache Kafka broker (the e2e harness's,
// from the Maven cache) and forwards -listen, Kafka's default address
// unless told otherwise, to it until interrupted; it then prints how many
// connections came to -listen. DEVELOPMENT.md runs the quick run beside it
// to show the tests never read a Kafka they did not start:
//
//	go run -tags e2e ./e2e/realkafka/cmd/brokeron -listen 127.0.0.1:9092
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:9092", "address `HOST:PORT` forwarded to the broker")
	version := flag.String("version", realkafka.Newest4x, "Kafka `VERSION` of the broker")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *listen, *version); err != nil {
		fmt.Fprintln(os.Stderr, "brokeron:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, listen, version string) error {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("listening on %s (is something there already?): %w", listen, err)
	}
	defer ln.Close()
	startCtx, cancel := context.WithTimeout(ctx, 10*time.Minute) // a cold cache runs Maven
	b, err := realkafka.Launch(startCtx, realkafka.BrokerOptions{Version: version})
	cancel()
	if err != nil {
		return fmt.Errorf("starting Kafka %s: %w", version, err)
	}
	defer b.Close()
	fmt.Printf("Kafka %s at %s, forwarded from %s; interrupt to stop\n", b.Version(), b.Bootstrap(), listen)

	var conns atomic.Int64
	var wg sync.WaitGroup
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, net.ErrClosed) {
				return fmt.Errorf("accepting on %s: %w", listen, err)
			}
			break
		}
		conns.Add(1)
		wg.Add(1)
		go func() { defer wg.Done(); forward(ctx, c, b.Bootstrap()) }()
	}
	wg.Wait()
	fmt.Printf("%d connections came to %s\n", conns.Load(), listen)
	return nil
}

// forward copies both ways between c and the broker until either side
// closes or ctx ends.
func forward(ctx context.Context, c net.Conn, broker string) {
	defer c.Close()
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	up, err := d.DialContext(dctx, "tcp", broker)
	cancel()
	if err != nil {
		return
	}
	defer up.Close()
	stop := context.AfterFunc(ctx, func() { c.Close(); up.Close() })
	defer stop()
	done := make(chan struct{})
	go func() { _, _ = io.Copy(up, c); up.Close(); close(done) }()
	_, _ = io.Copy(c, up)
	c.Close()
	<-done
}
