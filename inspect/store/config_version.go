package store

import "github.com/connectscope/connectscope/inspect/kafkaversion"

// configRules are the config reader's choices that changed between Kafka
// releases; configRulesOf gives the newest behaviour for an unknown version.
type configRules struct {
	// commitNeedsConfig: a task commit read while its connector has no
	// config drops everything held for the connector and is ignored
	// (KAFKA-16838, first in 3.7.1 and 3.8.0). Before, the commit applied
	// its task configs and count anyway, so a connector whose config record
	// comes later in the (compacted) log got its tasks back.
	commitNeedsConfig bool
}

// commitNeedsConfigSince are the first releases with KAFKA-16838, one per line.
var commitNeedsConfigSince = []kafkaversion.Version{kafkaversion.New(3, 7, 1), kafkaversion.New(3, 8, 0)}

func configRulesOf(v kafkaversion.Version) configRules {
	if !v.Known {
		return configRules{commitNeedsConfig: true}
	}
	return configRules{commitNeedsConfig: v.AtLeast(commitNeedsConfigSince...)}
}
