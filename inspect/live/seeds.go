package live

import (
	"context"
	"sync"
	"time"

	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// seedProbeTimeout is how long a bootstrap server has to answer ApiVersions
// before it is left out: long enough for a slow link, short next to
// --timeout.
func seedProbeTimeout(t time.Duration) time.Duration {
	return min(max(t/6, 2*time.Second), 5*time.Second)
}

// answeringSeeds asks every bootstrap server, at once, for its API versions
// (a read that changes nothing) and keeps those that answer in time, in
// the given order. A server that accepts connections and never answers is
// thus left out, as Java clients stop using a node whose requests hang;
// franz-go would otherwise keep sending it a request now and then and wait
// out each one. With one server, or when none answers, the list is returned
// as it is, so the read fails with the usual explanation.
func answeringSeeds(ctx context.Context, o ConnOptions) []string {
	seeds := workerconfig.List(o.Bootstrap...)
	if len(seeds) < 2 {
		return o.Bootstrap
	}
	ctx, cancel := context.WithTimeout(ctx, seedProbeTimeout(o.timeout()))
	defer cancel()
	ok := make([]bool, len(seeds))
	var wg sync.WaitGroup
	for i, s := range seeds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok[i] = seedAnswers(ctx, o, s)
		}()
	}
	wg.Wait()
	var keep []string
	for i, s := range seeds {
		if ok[i] {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 {
		return o.Bootstrap
	}
	return keep
}

// seedAnswers reports whether one server answers ApiVersions before ctx ends.
func seedAnswers(ctx context.Context, o ConnOptions, seed string) bool {
	one := o
	one.Bootstrap = []string{seed}
	opts, err := one.clientOpts(nil)
	if err != nil {
		return false
	}
	cl, err := kgo.NewClient(append(opts, kgo.RequestRetries(0))...)
	if err != nil {
		return false
	}
	defer cl.Close()
	_, err = kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, cl)
	return err == nil
}
