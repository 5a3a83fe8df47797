package kafkatest

import (
	"encoding/binary"
	"net"
	"sort"
	"strconv"
	"sync"

	"github.com/twmb/franz-go/pkg/kfake"
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
	kmsg.PushTelemetry, // client metrics: a read-only tool pushes nothing at all
}

// RequestLog records every request the brokers receive, with the client id
// from its header, by watching the bytes clients send (a kfake control
// function sees the request but not who sent it, and a test's own workers and
// consumers heartbeat and commit while the code under test runs).
type RequestLog struct {
	mu         sync.Mutex
	recording  bool
	keys       map[string]map[int16]int // client id -> key -> count
	autoCreate int                      // metadata requests asking to create missing topics
}

// WatchAutoCreate also counts metadata requests that ask the broker to
// create missing topics (a kfake control function sees request bodies;
// no test client asks that, so any such request is a violation).
func (l *RequestLog) WatchAutoCreate(c *Cluster) {
	c.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if m, ok := req.(*kmsg.MetadataRequest); ok && m.AllowAutoTopicCreation {
			l.mu.Lock()
			if l.recording {
				l.autoCreate++
			}
			l.mu.Unlock()
		}
		return nil, nil, false
	})
}

// WithRequestLog returns a kfake option that makes the brokers' listeners
// feed log; pass it to New.
func WithRequestLog(log *RequestLog) kfake.Opt {
	return kfake.ListenFn(func(network, address string) (net.Listener, error) {
		l, err := net.Listen(network, address)
		if err != nil {
			return nil, err
		}
		return spyListener{Listener: l, log: log}, nil
	})
}

// NewRequestLog returns an empty log that is not recording yet.
func NewRequestLog() *RequestLog { return &RequestLog{keys: map[string]map[int16]int{}} }

// Start begins recording and forgets what was recorded before.
func (l *RequestLog) Start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recording, l.keys, l.autoCreate = true, map[string]map[int16]int{}, 0
}

// Stop ends recording.
func (l *RequestLog) Stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recording = false
}

func (l *RequestLog) note(clientID string, key int16) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.recording {
		return
	}
	if l.keys[clientID] == nil {
		l.keys[clientID] = map[int16]int{}
	}
	l.keys[clientID][key]++
}

// Seen lists the request kinds clientID sent, sorted by name.
func (l *RequestLog) Seen(clientID string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for k := range l.keys[clientID] {
		out = append(out, keyName(k))
	}
	sort.Strings(out)
	return out
}

// Count is how many requests of key clientID sent.
func (l *RequestLog) Count(clientID string, key kmsg.Key) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.keys[clientID][int16(key)]
}

// Clients lists the client ids seen, sorted.
func (l *RequestLog) Clients() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for id := range l.keys {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Violations lists the forbidden request kinds clientID sent, and any
// auto-creating metadata request seen (see WatchAutoCreate).
func (l *RequestLog) Violations(clientID string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, k := range ForbiddenKeys {
		if l.keys[clientID][int16(k)] > 0 {
			out = append(out, keyName(int16(k)))
		}
	}
	if l.autoCreate > 0 {
		out = append(out, "Metadata with AllowAutoTopicCreation")
	}
	return out
}

func keyName(k int16) string {
	if n := kmsg.NameForKey(k); n != "" {
		return n
	}
	return "key " + strconv.Itoa(int(k))
}

type spyListener struct {
	net.Listener
	log *RequestLog
}

func (s spyListener) Accept() (net.Conn, error) {
	c, err := s.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &spyConn{Conn: c, log: s.log}, nil
}

// spyConn parses the request frames a client sends: int32 size, then the
// header's int16 key, int16 version, int32 correlation id and nullable
// string client id.
type spyConn struct {
	net.Conn
	log  *RequestLog
	hdr  []byte // bytes of the current frame's beginning
	skip int    // bytes of the current frame still to pass
}

const headerNeed = 4 + 2 + 2 + 4 + 2

func (c *spyConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.scan(p[:n])
	return n, err
}

func (c *spyConn) scan(b []byte) {
	for len(b) > 0 {
		if c.skip > 0 {
			k := min(c.skip, len(b))
			c.skip -= k
			b = b[k:]
			continue
		}
		c.hdr = append(c.hdr, b[0])
		b = b[1:]
		if len(c.hdr) < headerNeed {
			continue
		}
		idLen := int(int16(binary.BigEndian.Uint16(c.hdr[12:14])))
		if idLen < 0 {
			idLen = 0
		}
		if len(c.hdr) < headerNeed+idLen {
			continue
		}
		size := int(binary.BigEndian.Uint32(c.hdr[0:4]))
		key := int16(binary.BigEndian.Uint16(c.hdr[4:6]))
		c.log.note(string(c.hdr[headerNeed:headerNeed+idLen]), key)
		c.skip = size + 4 - len(c.hdr)
		c.hdr = c.hdr[:0]
	}
}
