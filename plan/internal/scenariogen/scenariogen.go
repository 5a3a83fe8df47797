// Package scenariogen writes large scenario files for timing `plan replay`.
package scenariogen

import (
	"bytes"
	"fmt"
)

// ScaleOut returns a format-1 scenario: `connectors` connectors with `tasks`
// tasks each, `workers` workers join and one round assigns everything, then
// one more worker joins and the cluster settles (java-timings.md "End to end"
// with 1000, 10000, 10).
func ScaleOut(workers, connectors, tasks int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"scenario\": 1,\n  \"name\": \"%d workers, %d connectors x %d tasks: assign all, one joins, settle\",\n", workers, connectors, tasks)
	b.WriteString("  \"protocol\": \"sessioned\",\n  \"max_delay_ms\": 300000,\n  \"steps\": [\n    {\"connectors\": {")
	list(&b, connectors, func(i int) string { return fmt.Sprintf("\"connector-%05d\": %d", i, tasks) })
	b.WriteString("}},\n    {\"join\": [")
	list(&b, workers, func(i int) string { return fmt.Sprintf("\"worker-%04d\"", i) })
	b.WriteString("]},\n    {\"rebalance\": {}},\n    {\"join\": [\"worker-new\"]},\n    {\"settle\": {}}\n  ]\n}\n")
	return b.Bytes()
}

// OneRound returns a format-1 scenario where `workers` workers join at once
// and one round assigns `connectors` connectors of `tasks` tasks each.
func OneRound(workers, connectors, tasks int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"scenario\": 1, \"name\": \"%d workers, one round\", \"steps\": [\n{\"connectors\": {", workers)
	list(&b, connectors, func(i int) string { return fmt.Sprintf("\"connector-%06d\": %d", i, tasks) })
	b.WriteString("}},\n{\"join\": [")
	list(&b, workers, func(i int) string { return fmt.Sprintf("\"worker-%06d\"", i) })
	b.WriteString("]},\n{\"rebalance\": {}}\n]}\n")
	return b.Bytes()
}

// list writes n items, comma-separated.
func list(b *bytes.Buffer, n int, item func(i int) string) {
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(item(i))
	}
}
