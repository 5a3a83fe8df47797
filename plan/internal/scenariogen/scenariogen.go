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
	for i := 0; i < connectors; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"connector-%05d\": %d", i, tasks)
	}
	b.WriteString("}},\n    {\"join\": [")
	for i := 0; i < workers; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"worker-%04d\"", i)
	}
	b.WriteString("]},\n    {\"rebalance\": {}},\n    {\"join\": [\"worker-new\"]},\n    {\"settle\": {}}\n  ]\n}\n")
	return b.Bytes()
}

// OneRound returns a format-1 scenario where `workers` workers join at once
// and one round assigns `connectors` connectors of `tasks` tasks each.
func OneRound(workers, connectors, tasks int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"scenario\": 1, \"name\": \"%d workers, one round\", \"steps\": [\n{\"connectors\": {", workers)
	for i := 0; i < connectors; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"connector-%06d\": %d", i, tasks)
	}
	b.WriteString("}},\n{\"join\": [")
	for i := 0; i < workers; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"worker-%06d\"", i)
	}
	b.WriteString("]},\n{\"rebalance\": {}}\n]}\n")
	return b.Bytes()
}
