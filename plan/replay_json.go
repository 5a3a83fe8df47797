package plan

import (
	"bufio"
	"io"
	"slices"
	"strconv"

	"github.com/connectscope/connectscope/plan/assignor"
)

// The replay output can be tens of megabytes (1,000 workers x 100,000
// tasks), so it is written directly instead of through reflection. The layout
// is the vectors' one: objects indented by two spaces, lists on one line.

// MarshalJSON returns the compact form (encoding/json re-indents it).
func (r *ReplayResult) MarshalJSON() ([]byte, error) {
	w := &jsonWriter{indent: false}
	w.result(r)
	return w.b, nil
}

// WriteJSON writes the indented form to out, faster than encoding/json.
func (r *ReplayResult) WriteJSON(out io.Writer) error {
	bw := bufio.NewWriterSize(out, 1<<16)
	w := &jsonWriter{indent: true, flush: bw}
	w.result(r)
	w.b = append(w.b, '\n')
	if _, err := bw.Write(w.b); err != nil {
		return err
	}
	return bw.Flush()
}

type jsonWriter struct {
	b      []byte
	indent bool
	flush  *bufio.Writer
	err    error
}

func (w *jsonWriter) maybeFlush() {
	if w.flush != nil && len(w.b) > 1<<16 && w.err == nil {
		_, w.err = w.flush.Write(w.b)
		w.b = w.b[:0]
	}
}

func (w *jsonWriter) nl(depth int) {
	if !w.indent {
		return
	}
	w.b = append(w.b, '\n')
	for i := 0; i < depth; i++ {
		w.b = append(w.b, "  "...)
	}
}

func (w *jsonWriter) key(depth int, first bool, k string) {
	if !first {
		w.b = append(w.b, ',')
	}
	w.nl(depth)
	w.b = appendJSONString(w.b, k)
	w.b = append(w.b, ':')
	if w.indent {
		w.b = append(w.b, ' ')
	}
}

func (w *jsonWriter) names(l []string) {
	w.b = append(w.b, '[')
	for i, s := range l {
		if i > 0 {
			w.b = append(w.b, ", "...)
		}
		w.b = appendJSONString(w.b, s)
	}
	w.b = append(w.b, ']')
}

func (w *jsonWriter) tasks(l []assignor.TaskID) {
	w.b = append(w.b, '[')
	for i, t := range l {
		if i > 0 {
			w.b = append(w.b, ", "...)
		}
		if plainJSON(t.Connector) {
			w.b = append(w.b, '"')
			w.b = append(w.b, t.Connector...)
			w.b = append(w.b, '-')
			w.b = strconv.AppendInt(w.b, int64(t.Task), 10)
			w.b = append(w.b, '"')
		} else {
			w.b = appendJSONString(w.b, t.String())
		}
	}
	w.b = append(w.b, ']')
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
	w.b = append(w.b, '{')
	w.key(1, true, "name")
	w.b = appendJSONString(w.b, r.Name)
	w.key(1, false, "rounds")
	w.b = append(w.b, '[')
	for i := range r.Rounds {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.nl(2)
		w.round(&r.Rounds[i])
	}
	if len(r.Rounds) > 0 {
		w.nl(1)
	}
	w.b = append(w.b, ']')
	w.key(1, false, "final")
	w.b = append(w.b, '{')
	keys := sortedMapKeys(r.Final)
	for i, k := range keys {
		o := r.Final[k]
		w.key(2, i == 0, k)
		w.b = append(w.b, '{')
		w.key(3, true, "connectors")
		w.names(o.Connectors)
		w.key(3, false, "tasks")
		w.tasks(o.Tasks)
		w.nl(2)
		w.b = append(w.b, '}')
		w.maybeFlush()
	}
	if len(keys) > 0 {
		w.nl(1)
	}
	w.b = append(w.b, '}')
	w.nl(0)
	w.b = append(w.b, '}')
}

func (w *jsonWriter) round(r *ReplayRound) {
	w.b = append(w.b, '{')
	w.key(3, true, "step")
	w.b = strconv.AppendInt(w.b, int64(r.Step), 10)
	w.key(3, false, "generation")
	w.b = strconv.AppendInt(w.b, int64(r.Generation), 10)
	w.key(3, false, "time_ms")
	w.b = strconv.AppendInt(w.b, r.TimeMs, 10)
	w.key(3, false, "workers")
	w.b = append(w.b, '{')
	keys := sortedMapKeys(r.Workers)
	for i, k := range keys {
		x := r.Workers[k]
		w.key(4, i == 0, k)
		w.b = append(w.b, '{')
		w.key(5, true, "assigned_connectors")
		w.names(x.AssignedConnectors)
		w.key(5, false, "assigned_tasks")
		w.tasks(x.AssignedTasks)
		w.key(5, false, "revoked_connectors")
		w.names(x.RevokedConnectors)
		w.key(5, false, "revoked_tasks")
		w.tasks(x.RevokedTasks)
		w.key(5, false, "delay_ms")
		w.b = strconv.AppendInt(w.b, x.DelayMs, 10)
		w.key(5, false, "connectors")
		w.names(x.Connectors)
		w.key(5, false, "tasks")
		w.tasks(x.Tasks)
		w.nl(4)
		w.b = append(w.b, '}')
		w.maybeFlush()
	}
	if len(keys) > 0 {
		w.nl(3)
	}
	w.b = append(w.b, '}')
	w.nl(2)
	w.b = append(w.b, '}')
}
