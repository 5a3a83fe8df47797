package diff

import (
	"slices"

	"github.com/connectscope/connectscope/format"
)

// Tables shows every difference as one row, in the order connectors, tasks,
// owners, offsets, members, with both sides' sources under it.
func (r *Result) Tables() []format.Table {
	t := format.Table{Title: "Differences", Header: []string{"WHAT", "NAME", "FIELD", "BEFORE", "AFTER"}, Rows: [][]string{}, Key: []int{0, 1, 2}}
	row := func(what, name, field string, before, after *string) {
		t.Rows = append(t.Rows, []string{what, name, field, cell(before), cell(after)})
	}
	fields := func(what, name string, vals ...namedValue) {
		for _, v := range vals {
			if v.v != nil {
				row(what, name, v.name, v.v.Before, v.v.After)
			}
		}
	}
	for _, c := range r.Connectors {
		if c.Change != Changed { // the JSON form has the fields; one row says it all
			row("connector", c.Name, c.Change, nil, nil)
			continue
		}
		fields("connector", c.Name, namedValue{"target_state", c.TargetState}, namedValue{"state", c.State},
			namedValue{"worker_id", c.Worker}, namedValue{"task_count", c.TaskCount}, namedValue{"consistent", c.Consistent})
		for _, k := range c.Config {
			row("config", c.Name, k.Key, k.Before, k.After)
		}
	}
	for _, tc := range r.Tasks {
		if tc.Change != Changed {
			row("task", tc.ID, tc.Change, nil, nil)
			continue
		}
		fields("task", tc.ID, namedValue{"state", tc.State}, namedValue{"worker_id", tc.Worker})
		for _, k := range tc.Config {
			row("task config", tc.ID, k.Key, k.Before, k.After)
		}
	}
	for _, o := range r.Owners {
		row("owner", o.Piece, o.Kind, o.Before, o.After)
	}
	for _, o := range r.Offsets {
		row(o.Kind+" offset", o.Connector, o.Partition, o.Before, o.After)
	}
	for _, m := range r.Members {
		row("member", m.Worker, m.Change, nil, nil)
	}
	t.Footer = []string{"before: " + sideText(r.Before), "after:  " + sideText(r.After)}
	for _, n := range r.Notes {
		t.Footer = append(t.Footer, "note: "+n)
	}
	if r.Equal {
		t.Footer = append(t.Footer, "no differences")
	} else {
		t.Footer = append(t.Footer, format.Count(r.Changes, "changed item", "changed items")+": "+
			format.Count(len(r.Connectors), "connector", "connectors")+", "+format.Count(len(r.Tasks), "task", "tasks")+", "+
			format.Count(len(r.Owners), "owner", "owners")+", "+format.Count(len(r.Offsets), "offset", "offsets")+", "+
			format.Count(len(r.Members), "member", "members"))
	}
	return []format.Table{t}
}

type namedValue struct {
	name string
	v    *Value
}

// Items gives one JSON line per changed item with -o jsonl, each with a
// "item" of connector, task, owner, offset or member ("kind" is taken by
// the owner and offset entries themselves).
func (r *Result) Items() []any {
	return slices.Concat(format.Tagged("item", "connector", r.Connectors), format.Tagged("item", "task", r.Tasks),
		format.Tagged("item", "owner", r.Owners), format.Tagged("item", "offset", r.Offsets),
		format.Tagged("item", "member", r.Members))
}

func cell(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

func sideText(s Side) string {
	if s.Source == "" {
		return "(unknown source)"
	}
	return s.Source
}
