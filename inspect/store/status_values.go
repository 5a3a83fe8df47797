package store

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/connectscope/connectscope/inspect/internal/jsonscan"
)

// A status record's value: its state, worker, generation and trace, read
// by a fast scanner with encoding/json behind it for what the scanner does
// not take.

// statusState is a status state name, kept small on the hot path.
type statusState uint8

var statusStateNames = [...]string{"", "UNASSIGNED", "RUNNING", "PAUSED", "FAILED", "DESTROYED", "RESTARTING", "STOPPED"}

func parseStatusState(b []byte) statusState {
	for i := 1; i < len(statusStateNames); i++ {
		if string(b) == statusStateNames[i] {
			return statusState(i)
		}
	}
	return stateNone
}

// statusValue is a decoded connector or task status. worker and trace stay
// raw JSON tokens (sub-slices of the record value) and are only turned into
// strings for the statuses that win: most records of a big topic lose.
type statusValue struct {
	state      statusState
	generation int32
	worker     []byte // JSON string token, or nil for null/absent
	trace      []byte
}

// scanned decodes a status topic's value: the common, well-formed case by
// scan, by hand without allocating; anything unusual by slow, through
// encoding/json, which also explains what is wrong.
func scanned[T any](value []byte, scan func([]byte) (T, bool), slow func([]byte) (T, string)) (T, string) {
	if v, ok := scan(value); ok {
		return v, ""
	}
	return slow(value)
}

// parseStatusValueSlow decodes {"state","trace","worker_id","generation"}
// through encoding/json.
func parseStatusValueSlow(value []byte) (statusValue, string) {
	var v statusValue
	m, reason := jsonObject(value)
	if reason != "" {
		return v, reason
	}
	state, ok := jsonText(m["state"])
	if !ok {
		return v, "status has no string \"state\""
	}
	if v.state = parseStatusState([]byte(state)); v.state == stateNone {
		return v, "unknown status state " + strconv.Quote(state)
	}
	gen, ok := jsonLong(m["generation"])
	if !ok {
		return v, "status has no integer \"generation\""
	}
	v.generation = javaInt(gen)
	for _, f := range []struct {
		name string
		dst  *[]byte
	}{{"worker_id", &v.worker}, {"trace", &v.trace}} {
		raw := m[f.name]
		if isJSONNull(raw) {
			continue
		}
		if _, ok := jsonText(raw); !ok {
			return v, "status field \"" + f.name + "\" is not a string"
		}
		*f.dst = bytes.TrimSpace(raw)
	}
	return v, ""
}

// scanStatusValue is the allocation-free fast path of parseStatusValueSlow. It
// succeeds only for valid JSON objects with flat members, unescaped member
// names and well-typed status fields; it reports false for everything else.
func scanStatusValue(b []byte) (statusValue, bool) {
	var v statusValue
	var stateTok, genTok []byte
	i, ok := jsonscan.Punct(b, 0, '{')
	if !ok {
		return v, false
	}
	for more := true; more; {
		name, start, ok := jsonscan.MemberName(b, i)
		if !ok {
			return v, false // an empty object too: no state, the slow path says so
		}
		kind, next, ok := jsonscan.Scalar(b, start)
		if !ok {
			return v, false
		}
		tok := b[start:next]
		switch string(name) {
		case "state":
			if kind != jsonscan.KindString {
				return v, false
			}
			stateTok = tok
		case "generation":
			if kind != jsonscan.KindInteger {
				return v, false
			}
			genTok = tok
		case "worker_id", "trace":
			dst := &v.trace
			if name[0] == 'w' {
				dst = &v.worker
			}
			switch kind {
			case jsonscan.KindNull:
				*dst = nil
			case jsonscan.KindString:
				*dst = tok
			default:
				return v, false
			}
		}
		if i, more, ok = jsonscan.NextMember(b, next); !ok {
			return v, false
		}
	}
	if jsonscan.Space(b, i+1) != len(b) || stateTok == nil || genTok == nil {
		return v, false
	}
	if bytes.IndexByte(stateTok, '\\') >= 0 {
		return v, false
	}
	if v.state = parseStatusState(stateTok[1 : len(stateTok)-1]); v.state == stateNone {
		return v, false
	}
	gen, ok := integerToken(genTok)
	if !ok {
		return v, false
	}
	v.generation = javaInt(gen)
	return v, true
}

// statusText turns a raw JSON string token into a string (nil for null).
func statusText(tok []byte) *string {
	if tok == nil {
		return nil
	}
	var s string
	if bytes.IndexByte(tok, '\\') < 0 && len(tok) >= 2 {
		s = string(tok[1 : len(tok)-1])
	} else if err := json.Unmarshal(tok, &s); err != nil {
		return nil
	}
	return &s
}

// plainASCII reports whether a string token has no escapes and no byte
// outside ASCII, so its text is its bytes.
func plainASCII(tok []byte) bool {
	for _, c := range tok {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

const (
	stateNone statusState = iota
	stateUnassigned
	stateRunning
	statePaused
	stateFailed
	stateDestroyed
	stateRestarting
	stateStopped
)
