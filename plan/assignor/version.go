package assignor

import (
	"fmt"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

// features are the assignor behaviours that changed between Kafka releases
// (assignor.md §8, §9).
type features struct {
	resetDelayWhenNothingLost bool // 2.4.0 KAFKA-9184
	generationCheck           bool // 2.5.1/2.6.0 KAFKA-9848 (also: lost with nobody departed -> now)
	duplicates                bool // 2.5.1/2.6.0 KAFKA-9841
	multiCandidate            bool // 2.6.2/2.7.1/2.8.0 KAFKA-10413 (also: old LB trims to ceil)
	newRevocation             bool // 3.4.0 KAFKA-12495 (LB of §3.1 + consecutive backoff)
	zeroDelayNow              bool // 3.5.2/3.6.1/3.7.0 KAFKA-15693
}

// defaultVersion is the release replayed when none is given.
var defaultVersion = kafkaversion.New(3, 9, 0)

// replayedVersion is the release whose assignor replays for v: an unknown
// version means defaultVersion. Releases before Connect's cooperative
// assignor (2.3.0) are refused.
func replayedVersion(v kafkaversion.Version) (kafkaversion.Version, error) {
	if !v.Known {
		return defaultVersion, nil
	}
	if v.Less(kafkaversion.New(2, 3, 0)) {
		return kafkaversion.Version{}, fmt.Errorf("kafka version %s: Connect's cooperative assignor starts at 2.3.0 (use protocol eager for older clusters)", v)
	}
	return v, nil
}

func featuresFor(v kafkaversion.Version) features {
	k := kafkaversion.New
	return features{
		resetDelayWhenNothingLost: v.AtLeast(k(2, 4, 0)),
		generationCheck:           v.AtLeast(k(2, 5, 1), k(2, 6, 0)),
		duplicates:                v.AtLeast(k(2, 5, 1), k(2, 6, 0)),
		multiCandidate:            v.AtLeast(k(2, 6, 2), k(2, 7, 1), k(2, 8, 0)),
		newRevocation:             v.AtLeast(k(3, 4, 0)),
		zeroDelayNow:              v.AtLeast(k(3, 5, 2), k(3, 6, 1), k(3, 7, 0)),
	}
}

// newestVerifiedLine is the newest Kafka release line whose own assignors were
// run against these profiles (e2e/assignordiff: every line from 2.3 on).
var newestVerifiedLine = kafkaversion.New(4, 4, 0)

// NewestVerifiedLine names it, as MAJOR.MINOR, for messages.
func NewestVerifiedLine() string {
	return fmt.Sprintf("%d.%d", newestVerifiedLine.Major, newestVerifiedLine.Minor)
}

// BeyondVerified reports whether version names a Kafka release line newer
// than the newest one whose assignor this package was checked against (or a
// 3.x line after 3.9, which was never released). Such versions replay the
// newest behaviour; the caller should say so. An unparseable version is not
// "beyond" (NewSim reports it).
func BeyondVerified(version kafkaversion.Version) bool {
	v, err := replayedVersion(version)
	if err != nil {
		return false
	}
	if v.Major == 3 && v.Minor > 9 {
		return true
	}
	return kafkaversion.New(newestVerifiedLine.Major, newestVerifiedLine.Minor, 1<<30).Less(v)
}
