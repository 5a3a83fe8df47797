package prof

import (
	"context"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

func TestSize(t *testing.T) {
	cl, _ := kgo.NewClient(kgo.SeedBrokers("127.0.0.1:19092"))
	defer cl.Close()
	adm := kadm.NewClient(cl)
	dirs, err := adm.DescribeAllLogDirs(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	dirs.Each(func(d kadm.DescribedLogDir) {
		d.Topics.Each(func(p kadm.DescribedLogDirPartition) { sizes[p.Topic] += p.Size })
	})
	t.Logf("%v", sizes)
}
