package live

import (
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
)

// joinTopics puts the records in the order Dataset.Records promises:
// config, offsets, status; within a topic each partition in log order.
// Partitions are concatenated in partition order (each key lives in one
// partition, so the order across partitions does not matter to a reader),
// except that the status topic's are merged by timestamp when it holds a
// connector tombstone, which drops task statuses stored in other
// partitions. The records are moved within the backing array, never copied
// to a new one.
func joinTopics(f *fetched, names inspect.TopicNames) []inspect.Record {
	n, spilled := 0, false
	for _, c := range f.parts {
		n += len(c.recs)
		spilled = spilled || len(c.recs) > c.reserve
	}
	if spilled { // a partition outgrew its reservation: assemble afresh
		out := make([]inspect.Record, 0, n)
		for _, c := range f.parts {
			if c.topic == names.Status {
				continue
			}
			out = append(out, c.recs...)
		}
		return appendMerged(out, f.topic(names.Status))
	}
	dst := 0
	statusFrom, statusTo := -1, -1
	var statusLens []int
	for _, c := range f.parts {
		if c.topic == names.Status {
			if statusFrom < 0 {
				statusFrom = dst
			}
			statusLens = append(statusLens, len(c.recs))
		}
		dst += copy(f.backing[dst:], c.recs) // moves left or stays: no segment outgrew its reserve
		if c.topic == names.Status {
			statusTo = dst
		}
	}
	out := f.backing[:dst:dst]
	if statusFrom >= 0 && len(statusLens) > 1 && hasConnectorTombstone(out[statusFrom:statusTo]) {
		region := out[statusFrom:statusTo]
		var parts [][]inspect.Record
		at := 0
		for _, l := range statusLens {
			parts = append(parts, region[at:at+l])
			at += l
		}
		permuteInPlace(region, mergeOrder(parts))
	}
	f.backing, f.parts = nil, nil
	return out
}

// hasConnectorTombstone reports whether a status-topic record's effect
// crosses partitions: only a connector's tombstone does (it drops the
// statuses of the connector's tasks, kept under other keys). Without one,
// the partitions' order among themselves cannot change what a reader builds.
func hasConnectorTombstone(recs []inspect.Record) bool {
	for i := range recs {
		if recs[i].Value == nil && store.ParseStatusKey(recs[i].Key).Is(store.StatusKeyConnector) {
			return true
		}
	}
	return false
}

// mergeOrder returns, for each position of the merged sequence, the index
// (into the concatenation of parts) of the record that goes there.
func mergeOrder(parts [][]inspect.Record) []int32 {
	starts := make([]int32, len(parts))
	n := 0
	for i, p := range parts {
		starts[i] = int32(n)
		n += len(p)
	}
	order := make([]int32, 0, n)
	eachMerged(parts, func(part, pos int) { order = append(order, starts[part]+int32(pos)) })
	return order
}

// permuteInPlace rearranges a so that a[i] becomes the old a[order[i]],
// following each cycle of the permutation once; order is consumed.
func permuteInPlace(a []inspect.Record, order []int32) {
	for i := range order {
		if order[i] < 0 || int(order[i]) == i {
			continue
		}
		tmp := a[i]
		j := i
		for {
			k := int(order[j])
			order[j] = -1
			if k == i {
				a[j] = tmp
				break
			}
			a[j] = a[k]
			j = k
		}
	}
}

// mergePartitions merges one topic's partitions by timestamp (see
// appendMerged).
func mergePartitions(parts [][]inspect.Record) []inspect.Record {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	return appendMerged(make([]inspect.Record, 0, n), parts)
}

// appendMerged appends the partitions' records to out in merged order.
func appendMerged(out []inspect.Record, parts [][]inspect.Record) []inspect.Record {
	eachMerged(parts, func(part, pos int) { out = append(out, parts[part][pos]) })
	return out
}

// eachMerged visits the partitions' records with each partition in log
// order, taking next the earliest timestamp among the partitions' heads
// (ties: the lower partition). A small binary heap keeps it O(n log k).
func eachMerged(parts [][]inspect.Record, visit func(part, pos int)) {
	type head struct{ part, pos int }
	less := func(a, b head) bool {
		ta, tb := parts[a.part][a.pos].Timestamp, parts[b.part][b.pos].Timestamp
		return ta < tb || (ta == tb && a.part < b.part)
	}
	var h []head
	for i, p := range parts {
		if len(p) > 0 {
			h = append(h, head{i, 0})
		}
	}
	down := func(i int) {
		for {
			l, small := 2*i+1, i
			if l < len(h) && less(h[l], h[small]) {
				small = l
			}
			if r := l + 1; r < len(h) && less(h[r], h[small]) {
				small = r
			}
			if small == i {
				return
			}
			h[i], h[small] = h[small], h[i]
			i = small
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(h) > 0 {
		top := h[0]
		visit(top.part, top.pos)
		if top.pos+1 < len(parts[top.part]) {
			h[0].pos++
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
}
