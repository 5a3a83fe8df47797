// Package views is the one decoding of a dataset that every command, plan
// and check starts from: the records split by topic, each topic decoded the
// first time it is asked for (a view of the status topic never pays for a
// million offsets records), and the group's members.
package views

import (
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
)

// Dataset is a dataset with its decoded views. The views are computed once,
// on first use, with the options given to Decode (their Topic is set per
// topic). A nil *Dataset, or one of no dataset, has no views.
type Dataset struct {
	*inspect.Dataset
	opts store.DecodeOptions

	split                   bool
	config, status, offsets []inspect.Record
	unplaced                []inspect.Problem

	configs     *store.ConfigsResult
	statuses    *store.StatusResult
	offsetsRes  *store.OffsetsResult
	members     *group.MembersResult
	membersDone bool
}

// Decode wraps ds for decoding with opts (ShowSecrets, Connector).
func Decode(ds *inspect.Dataset, opts store.DecodeOptions) *Dataset {
	return &Dataset{Dataset: ds, opts: opts}
}

func (d *Dataset) empty() bool { return d == nil || d.Dataset == nil }

// Loaded reports whether there is a dataset behind d.
func (d *Dataset) Loaded() bool { return !d.empty() }

func (d *Dataset) splitTopics() {
	if d.split {
		return
	}
	d.split = true
	var unknown []inspect.Record
	d.config, d.status, d.offsets, unknown = store.SplitTopics(d.Records, d.Topics)
	d.unplaced = store.UnclassifiedProblems(unknown)
}

func (d *Dataset) options(topic string) store.DecodeOptions {
	o := d.opts
	o.Topic = topic
	return o
}

// decoded is one topic's view of a dataset: *view when it is decoded (or
// was, while the records streamed), else decoded now from the topic's
// records (*records, read once the records are split) and kept.
func decoded[R any](d *Dataset, view **R, records *[]inspect.Record, topic string, decode func([]inspect.Record, store.DecodeOptions) *R) *R {
	if *view == nil {
		d.splitTopics()
		*view = decode(*records, d.options(topic))
	}
	return *view
}

// Configs is the config topic replayed; nil without a dataset.
func (d *Dataset) Configs() *store.ConfigsResult {
	if d.empty() {
		return nil
	}
	return decoded(d, &d.configs, &d.config, d.Topics.Config, store.DecodeConfigs)
}

// WithStatus sets the status view to res, decoded while the records were
// streamed from the file (source.StreamFile) instead of kept.
func (d *Dataset) WithStatus(res *store.StatusResult) *Dataset {
	d.statuses = res
	return d
}

// WithOffsets sets the offsets view to res, decoded while streaming.
func (d *Dataset) WithOffsets(res *store.OffsetsResult) *Dataset {
	d.offsetsRes = res
	return d
}

// Status is the status topic replayed; nil without a dataset.
func (d *Dataset) Status() *store.StatusResult {
	if d.empty() {
		return nil
	}
	return decoded(d, &d.statuses, &d.status, d.Topics.Status, store.DecodeStatus)
}

// Offsets is the offsets topic replayed; nil without a dataset.
func (d *Dataset) Offsets() *store.OffsetsResult {
	if d.empty() {
		return nil
	}
	return decoded(d, &d.offsetsRes, &d.offsets, d.Topics.Offset, store.DecodeOffsets)
}

// Members is the Connect group's members view; nil when the dataset has no
// group description.
func (d *Dataset) Members() *group.MembersResult {
	if d.empty() || d.Group == nil {
		return nil
	}
	if !d.membersDone {
		d.membersDone = true
		m := group.Members(d.Group)
		d.members = &m
	}
	return d.members
}

// ExtraProblems are the problems a view of the given topics must also
// report: records that fit no internal topic, and bad input entries of these
// topics or of none known, so every view accounts for everything it could
// have shown.
func (d *Dataset) ExtraProblems(topics ...string) []inspect.Problem {
	if d.empty() {
		return nil
	}
	d.splitTopics()
	out := append([]inspect.Problem{}, d.unplaced...)
	known := map[string]bool{d.Topics.Config: true, d.Topics.Status: true, d.Topics.Offset: true}
	mine := map[string]bool{}
	for _, n := range topics {
		mine[n] = true
	}
	for _, p := range d.Problems {
		if mine[p.Topic] || !known[p.Topic] {
			out = append(out, p)
		}
	}
	return out
}
