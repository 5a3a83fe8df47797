package store

import (
	"bytes"

	"github.com/connectscope/connectscope/inspect"
)

// Key prefixes Connect writes to its config topic (connect-internals.md §6.3).
var configKeyPrefixes = [][]byte{
	[]byte("target-state-"), []byte("connector-"), []byte("task-"), []byte("commit-"),
	[]byte("restart-connector-"), []byte("tasks-fencing-"), []byte("logger-cluster-"),
}

// SplitTopics sorts records into the three internal topics, keeping their
// order. A record goes by its topic name when that is one of names;
// otherwise by the shape of its key (a dump may not say which topic a record
// came from, or the topics may have other names). Records that fit none are
// returned in unknown; UnclassifiedProblems turns them into problems so they
// are counted, never dropped.
func SplitTopics(records []inspect.Record, names inspect.TopicNames) (config, status, offsets []inspect.Record, unknown []inspect.Record) {
	// Classify once, then size each list exactly: a million-record dump
	// should not be copied through doubling slices. When every record is of
	// one kind the input is returned as is (capacity capped, so appending to
	// the result cannot write into the caller's slice).
	kinds := make([]topicKind, len(records))
	var counts [4]int
	for i, r := range records {
		kinds[i] = classifyRecord(r, names)
		counts[kinds[i]]++
	}
	for k, n := range counts {
		if n == len(records) && n > 0 {
			whole := records[:n:n]
			switch topicKind(k) {
			case topicKindConfig:
				return whole, nil, nil, nil
			case topicKindStatus:
				return nil, whole, nil, nil
			case topicKindOffsets:
				return nil, nil, whole, nil
			default:
				return nil, nil, nil, whole
			}
		}
	}
	out := [4][]inspect.Record{}
	for k, n := range counts {
		if n > 0 {
			out[k] = make([]inspect.Record, 0, n)
		}
	}
	for i, r := range records {
		out[kinds[i]] = append(out[kinds[i]], r)
	}
	return out[topicKindConfig], out[topicKindStatus], out[topicKindOffsets], out[topicKindUnknown]
}

// UnclassifiedProblems reports the records SplitTopics could not place.
func UnclassifiedProblems(unknown []inspect.Record) []inspect.Problem {
	out := make([]inspect.Problem, 0, len(unknown))
	for _, r := range unknown {
		out = append(out, recordProblem(r, "record is from topic \""+r.Topic+
			"\", which is none of the internal topics, and its key has no shape Connect writes"))
	}
	return out
}

type topicKind int

const (
	topicKindUnknown topicKind = iota
	topicKindConfig
	topicKindStatus
	topicKindOffsets
)

func classifyRecord(r inspect.Record, names inspect.TopicNames) topicKind {
	switch {
	case r.Topic == "":
	case r.Topic == names.Config:
		return topicKindConfig
	case r.Topic == names.Status:
		return topicKindStatus
	case r.Topic == names.Offset:
		return topicKindOffsets
	}
	return classifyKey(r.Key)
}

// classifyKey guesses a record's topic from its key alone.
func classifyKey(key []byte) topicKind {
	if key == nil {
		return topicKindUnknown
	}
	if statusKeyKind(key) != StatusKeyOther { // its prefixes (§7)
		return topicKindStatus
	}
	if string(key) == "session-key" {
		return topicKindConfig
	}
	for _, p := range configKeyPrefixes {
		if bytes.HasPrefix(key, p) {
			return topicKindConfig
		}
	}
	if firstJSONByte(key) == '[' {
		return topicKindOffsets
	}
	return topicKindUnknown
}
