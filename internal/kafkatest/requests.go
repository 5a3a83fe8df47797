package kafkatest

import (
	"sort"
	"strconv"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// ForbiddenKeys are the requests a read-only tool must never send: group
// membership, commits, produce, and any change to topics, configs, records,
// groups or transactions.
var ForbiddenKeys = []kmsg.Key{
	kmsg.JoinGroup, kmsg.SyncGroup, kmsg.Heartbeat, kmsg.LeaveGroup,
	kmsg.OffsetCommit, kmsg.TxnOffsetCommit, kmsg.Produce,
	kmsg.CreateTopics, kmsg.DeleteTopics, kmsg.AlterConfigs, kmsg.IncrementalAlterConfigs,
	kmsg.CreatePartitions, kmsg.InitProducerID, kmsg.AddPartitionsToTxn, kmsg.AddOffsetsToTxn,
	kmsg.EndTxn, kmsg.DeleteRecords, kmsg.DeleteGroups, kmsg.OffsetDelete,
	kmsg.ConsumerGroupHeartbeat, kmsg.AlterPartitionAssignments, kmsg.ElectLeaders,
	kmsg.CreateACLs, kmsg.DeleteACLs, kmsg.AlterUserSCRAMCredentials, kmsg.AlterClientQuotas,
}

// RequestLog records the key of every request the cluster handles while it
// is recording. It observes only: the cluster answers every request as usual.
type RequestLog struct {
	mu        sync.Mutex
	recording bool
	keys      map[int16]int
	autoTopic int // metadata requests asking to auto-create topics
}

// RecordRequests installs an observer on every request. Call Start and Stop
// around the code under test so the test's own setup traffic is not counted.
func (c *Cluster) RecordRequests() *RequestLog {
	l := &RequestLog{keys: map[int16]int{}}
	c.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.recording {
			l.keys[req.Key()]++
			if m, ok := req.(*kmsg.MetadataRequest); ok && m.AllowAutoTopicCreation {
				l.autoTopic++
			}
		}
		return nil, nil, false
	})
	return l
}

// Start begins recording and forgets what was recorded before.
func (l *RequestLog) Start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recording, l.keys, l.autoTopic = true, map[int16]int{}, 0
}

// Stop ends recording.
func (l *RequestLog) Stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recording = false
}

// Seen lists the names of the request kinds recorded, sorted.
func (l *RequestLog) Seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for k := range l.keys {
		out = append(out, keyName(k))
	}
	sort.Strings(out)
	return out
}

// Count is how many requests of key were recorded.
func (l *RequestLog) Count(key kmsg.Key) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.keys[int16(key)]
}

// Violations lists the forbidden requests recorded (name and count), and a
// metadata request that asked to auto-create topics.
func (l *RequestLog) Violations() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, k := range ForbiddenKeys {
		if n := l.keys[int16(k)]; n > 0 {
			out = append(out, keyName(int16(k)))
		}
	}
	if l.autoTopic > 0 {
		out = append(out, "Metadata with AllowAutoTopicCreation")
	}
	sort.Strings(out)
	return out
}

func keyName(k int16) string {
	if n := kmsg.NameForKey(k); n != "" {
		return n
	}
	return "key " + strconv.Itoa(int(k))
}
