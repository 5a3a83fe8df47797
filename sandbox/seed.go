package sandbox

import (
	"context"
	"fmt"
)

// seedNames are the names SeedConnectors uses first; every third is a sink.
var seedNames = []string{
	"orders-cdc", "payments-cdc", "orders-s3",
	"users-cdc", "inventory-cdc", "search-es",
	"clicks-file", "logs-file", "metrics-jdbc",
	"shipments-cdc", "refunds-cdc", "archive-s3",
}

// SeedConnectors creates n connectors with tasks tasks each; every third one
// is a sink (with its own data topic), the others are sources.
func (c *Cluster) SeedConnectors(ctx context.Context, n, tasks int) error {
	for i := 0; i < n; i++ {
		kind := KindSource
		if i%3 == 2 {
			kind = KindSink
		}
		name := fmt.Sprintf("%s-%02d", kind, i+1)
		if i < len(seedNames) {
			name = seedNames[i]
		}
		if err := c.AddConnector(ctx, ConnectorSpec{Name: name, Kind: kind, Tasks: tasks}); err != nil {
			return err
		}
	}
	return nil
}

// AddWorkers starts n workers with the default protocol.
func (c *Cluster) AddWorkers(ctx context.Context, n int) error {
	for i := 0; i < n; i++ {
		if _, err := c.AddWorker(ctx, "", ""); err != nil {
			return err
		}
	}
	return nil
}
