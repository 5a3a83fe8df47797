package views

import (
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
)

// MembersView is `inspect members`' view: the members (the zero view "no
// group description was read" without one) and, when the dataset holds the
// config topic's end offset, how far behind it each member's assignment is,
// and which members missed a record that rebalances.
func (d *Dataset) MembersView() group.MembersResult {
	res := group.Members(nil)
	if m := d.Members(); m != nil {
		res = *m
	}
	if d.empty() {
		return res
	}
	if end, ok := d.EndOffsets[d.Topics.Config][0]; ok {
		res.ConfigEnd(end, d.Isolation == "read_committed")
		if configRead(d.Dataset) {
			res.ConfigRejoin(group.ConfigRejoinFrom(d.Records, d.Topics.Config))
		}
	}
	return res
}

// configRead says whether the dataset holds the config topic's records, all
// of them up to its end offset (a snapshot or a live read does; a dump may
// not, and then nothing is assumed).
func configRead(ds *inspect.Dataset) bool {
	end, ok := ds.EndOffsets[ds.Topics.Config][0]
	if !ok {
		return false
	}
	last := int64(-1)
	for _, r := range ds.Records {
		if r.Topic == ds.Topics.Config {
			last = max(last, r.Offset)
		}
	}
	return end == 0 || last >= 0
}
