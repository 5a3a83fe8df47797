package views

import (
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/redact"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/watch"
)

// The views' options and results, named here so that their readers (the
// commands) start from the decoding and need not know the decoders.
type (
	Options          = store.DecodeOptions
	ConfigsResult    = store.ConfigsResult
	StatusResult     = store.StatusResult
	OffsetsResult    = store.OffsetsResult
	ConnectorsResult = store.ConnectorsResult
	MembersResult    = group.MembersResult
	SinksResult      = group.SinksResult
	WatchEvent       = watch.Event
	WatchSummary     = watch.Summary
)

// Of is ds decoded with the default options: secrets redacted, every
// connector, the newest readers' rules.
func Of(ds *inspect.Dataset) *Dataset { return Decode(ds, Options{}) }

// Sinks is the sink connectors' consumer groups (only the options'
// connector, when they name one).
func (d *Dataset) Sinks() SinksResult { return group.Sinks(d.Dataset, d.opts.Connector) }

// MembersOf is the members view of one group description.
func MembersOf(gd *inspect.GroupDescription) MembersResult { return group.Members(gd) }

// ConnectorType is a connector's type (source, sink) as its config says,
// "" when it does not.
func ConnectorType(config map[string]any) string { return store.ConnectorType(config) }

// Streamer reads a dataset, handing add each record of one topic instead
// of keeping it; streamed reports whether it could (a snapshot file is read
// whole, and its records stay in the dataset).
type Streamer func(add func(*inspect.Record)) (ds *inspect.Dataset, streamed bool, err error)

// StreamStatus decodes the status topic while read streams it, so memory
// follows the distinct keys kept, not the size of the input.
func StreamStatus(opts Options, read Streamer) (*Dataset, error) {
	dec := store.NewStatusDecoder(opts)
	return stream(opts, read, dec.Add, func(d *Dataset) { d.WithStatus(dec.Result()) })
}

// StreamOffsets decodes the offsets topic while read streams it (records
// by value: a live read hands them so, and a million of them must not each
// be allocated).
func StreamOffsets(opts Options, read func(add func(inspect.Record)) (ds *inspect.Dataset, streamed bool, err error)) (*Dataset, error) {
	dec := store.NewOffsetsDecoder(opts)
	return stream(opts, read, dec.Add, func(d *Dataset) { d.WithOffsets(dec.Result()) })
}

// stream reads a dataset while handing each record of one topic to add (a
// decoder's), and keeps the decoder's view (keep) when read could stream.
func stream[R any](opts Options, read func(add func(R)) (*inspect.Dataset, bool, error), add func(R), keep func(*Dataset)) (*Dataset, error) {
	ds, streamed, err := read(add)
	if err != nil {
		return nil, err
	}
	d := Decode(ds, opts)
	if streamed {
		keep(d)
	}
	return d, nil
}

// Redacted is ds as a file may hold it (a snapshot): files outlive
// terminals, so secret values are redacted unless show, and the session
// key's material is never written.
func Redacted(ds *inspect.Dataset, show bool) *inspect.Dataset { return redact.Dataset(ds, show) }

// StatusRecords are the status topic's records, in the order read (the
// rebalance history reads them so).
func (d *Dataset) StatusRecords() []inspect.Record {
	if d.empty() {
		return nil
	}
	d.splitTopics()
	return d.status
}

// RedactText hides what looks secret in a free text (a message that quotes
// a config or a URL with its password).
func RedactText(s string) string { return redact.Text(s) }
