// Command benchbroker serves an embedded Kafka (kfake) filled for the live
// reading benchmarks: a status topic of -status records and a 25-partition
// offsets topic of -offsets records. It prints the bootstrap address and
// serves until interrupted. See BENCHMARKS.md.
//
//	go run ./internal/kafkatest/cmd/benchbroker -listen 127.0.0.1:19092
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:19092", "broker address `HOST:PORT`")
	status := flag.Int("status", 1_000_000, "records in the status topic")
	offsets := flag.Int("offsets", 1_000_000, "records in the offsets topic")
	flag.Parse()
	if err := run(*listen, *status, *offsets); err != nil {
		fmt.Fprintln(os.Stderr, "benchbroker:", err)
		os.Exit(1)
	}
}

func run(listen string, status, offsets int) error {
	host, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return err
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return err
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(port),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) {
			return net.Listen(network, net.JoinHostPort(host, portText))
		}),
		kfake.SeedTopics(1, kafkatest.ConfigTopic), kfake.SeedTopics(25, kafkatest.OffsetTopic), kfake.SeedTopics(5, kafkatest.StatusTopic))
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	sb, err := kafkatest.Fill(ctx, c.ListenAddrs(), status, kafkatest.StatusRecord)
	if err != nil {
		return err
	}
	ob, err := kafkatest.Fill(ctx, c.ListenAddrs(), offsets, kafkatest.OffsetRecord)
	if err != nil {
		return err
	}
	fmt.Printf("filled in %s: %s %d records (%d key+value bytes), %s %d records in 25 partitions (%d bytes)\n",
		time.Since(start).Round(time.Millisecond), kafkatest.StatusTopic, status, sb, kafkatest.OffsetTopic, offsets, ob)
	fmt.Printf("serving on %s; Ctrl-C to stop\n", listen)
	<-ctx.Done()
	return nil
}
