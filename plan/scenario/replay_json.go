package scenario

import (
	"io"
	"slices"
	"strconv"

	"github.com/connectscope/connectscope/format/jsonout"
	"github.com/connectscope/connectscope/plan/assignor"
)

// The replay output can be tens of megabytes (1,000 workers x 100,000
// tasks), so it is written directly instead of through reflection. The layout
// is the vectors' one: objects indented by two spaces, lists on one line.

// MarshalJSON returns the compact form (encoding/json re-indents it).
func (r *ReplayResult) MarshalJSON() ([]byte, error) {
	w := &jsonWriter{Writer: jsonout.New(nil, 0)}
	w.result(r)
	return w.B, nil
}

// WriteJSON writes the indented form to out, faster than encoding/json.
func (r *ReplayResult) WriteJSON(out io.Writer) error {
	w := &jsonWriter{Writer: jsonout.New(out, 1<<16), indent: true}
	w.result(r)
	w.Raw("\n")
	return w.Close()
}

// jsonWriter lays out a replay result on the shared writer, indented or
// compact.
type jsonWriter struct {
	*jsonout.Writer
	indent bool
}

func (w *jsonWriter) nl(depth int) {
	if w.indent {
		w.Newline(depth)
	}
}

func (w *jsonWriter) key(depth int, first bool, k string) {
	if !first {
		w.B = append(w.B, ',')
	}
	w.nl(depth)
	w.String(k)
	w.B = append(w.B, ':')
	if w.indent {
		w.B = append(w.B, ' ')
	}
}

func (w *jsonWriter) names(l []string) { w.B = appendNames(w.B, l) }

func (w *jsonWriter) tasks(l []assignor.TaskID) { w.B = appendTasks(w.B, l) }

// pieces writes two fields: connector names, then task ids.
func (w *jsonWriter) pieces(depth int, first bool, connKey string, conns []string, taskKey string, tasks []assignor.TaskID) {
	w.key(depth, first, connKey)
	w.names(conns)
	w.key(depth, false, taskKey)
	w.tasks(tasks)
}

func sortedMapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (w *jsonWriter) result(r *ReplayResult) {
	w.B = append(w.B, '{')
	w.key(1, true, "name")
	w.String(r.Name)
	w.key(1, false, "rounds")
	w.B = append(w.B, '[')
	for i := range r.Rounds {
		if i > 0 {
			w.B = append(w.B, ',')
		}
		w.nl(2)
		w.round(&r.Rounds[i])
	}
	if len(r.Rounds) > 0 {
		w.nl(1)
	}
	w.B = append(w.B, ']')
	w.key(1, false, "final")
	w.objects(1, sortedMapKeys(r.Final), func(k string) {
		o := r.Final[k]
		w.pieces(3, true, "connectors", o.Connectors, "tasks", o.Tasks)
	})
	w.nl(0)
	w.B = append(w.B, '}')
}

// objects writes an object, at nesting depth, of one object per key in
// the order given; fields writes each one's fields (at depth+2).
func (w *jsonWriter) objects(depth int, keys []string, fields func(k string)) {
	w.B = append(w.B, '{')
	for i, k := range keys {
		w.key(depth+1, i == 0, k)
		w.B = append(w.B, '{')
		fields(k)
		w.nl(depth + 1)
		w.B = append(w.B, '}')
		w.MaybeFlush()
	}
	if len(keys) > 0 {
		w.nl(depth)
	}
	w.B = append(w.B, '}')
}

func (w *jsonWriter) round(r *ReplayRound) {
	w.B = append(w.B, '{')
	w.key(3, true, "step")
	w.B = strconv.AppendInt(w.B, int64(r.Step), 10)
	w.key(3, false, "generation")
	w.B = strconv.AppendInt(w.B, int64(r.Generation), 10)
	w.key(3, false, "time_ms")
	w.B = strconv.AppendInt(w.B, r.TimeMs, 10)
	w.key(3, false, "workers")
	w.objects(3, sortedMapKeys(r.Workers), func(k string) {
		x := r.Workers[k]
		w.pieces(5, true, "assigned_connectors", x.AssignedConnectors, "assigned_tasks", x.AssignedTasks)
		w.pieces(5, false, "revoked_connectors", x.RevokedConnectors, "revoked_tasks", x.RevokedTasks)
		w.key(5, false, "delay_ms")
		w.B = strconv.AppendInt(w.B, x.DelayMs, 10)
		w.pieces(5, false, "connectors", x.Connectors, "tasks", x.Tasks)
	})
	w.nl(2)
	w.B = append(w.B, '}')
}
