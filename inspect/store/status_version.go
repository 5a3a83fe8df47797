package store

import "github.com/connectscope/connectscope/inspect/kafkaversion"

// statusRules are the status reader's choices that changed between Kafka
// releases. The zero value is not used: statusRulesOf gives the newest
// behaviour for an unknown version.
type statusRules struct {
	// staleUnassignedIgnored: a task's UNASSIGNED record is ignored while
	// the status held is RUNNING of the same or a newer generation
	// (KAFKA-12525, commit adacfea, first released in 3.6.0 and not
	// backported to 3.5.x). Before, the last record always won, so a late
	// UNASSIGNED from the task's previous worker hid a running task.
	staleUnassignedIgnored bool
}

// staleUnassignedSince is the first release with KAFKA-12525's reader check.
var staleUnassignedSince = kafkaversion.New(3, 6, 0)

func statusRulesOf(v kafkaversion.Version) statusRules {
	if !v.Known {
		return statusRules{staleUnassignedIgnored: true}
	}
	return statusRules{staleUnassignedIgnored: v.AtLeast(staleUnassignedSince)}
}
