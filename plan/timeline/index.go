package timeline

import (
	"cmp"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
)

// pieceIndex numbers every piece a timeline meets, so that the engine keeps
// per-piece state in slices and per-worker holdings as sorted id lists
// instead of maps keyed by strings (at a thousand workers those maps were
// most of a plan's time). Ids follow the pieces' output order (pieceKey.less),
// so a list sorted by id is sorted as the JSON contract wants; a piece that
// appears later (a new connector) renumbers them all once.
type pieceIndex struct {
	keys       []cluster.PieceKey
	conn       []bool // by id: a connector (else a task)
	ids        map[cluster.PieceKey]int32
	PieceNames []string // JSON names, made on first use

	// the simulator's connector and task ids to piece ids (-1: not yet seen)
	simConn, simTask []int32
}

// newPieceIndex numbers the given pieces in output order.
func newPieceIndex(keys []cluster.PieceKey) *pieceIndex {
	x := &pieceIndex{ids: make(map[cluster.PieceKey]int32, len(keys))}
	x.add(keys)
	return x
}

// add numbers the pieces not numbered yet and returns the renumbering of
// the old ids (nil when nothing changed).
func (x *pieceIndex) add(keys []cluster.PieceKey) []int32 {
	fresh := false
	for _, k := range keys {
		if _, ok := x.ids[k]; !ok {
			x.ids[k] = -1
			x.keys = append(x.keys, k)
			fresh = true
		}
	}
	if !fresh {
		return nil
	}
	old := len(x.PieceNames)
	slices.SortFunc(x.keys, func(a, b cluster.PieceKey) int {
		return cmp.Or(strings.Compare(a.Connector, b.Connector), cmp.Compare(a.Task, b.Task))
	})
	remap := make([]int32, old)
	names := make([]string, len(x.keys))
	x.conn = make([]bool, len(x.keys))
	for i, k := range x.keys {
		x.conn[i] = k.IsConnector()
		if prev := x.ids[k]; prev >= 0 {
			remap[prev] = int32(i)
			names[i] = x.PieceNames[prev]
		}
		x.ids[k] = int32(i)
	}
	x.PieceNames = names
	for _, m := range [][]int32{x.simConn, x.simTask} {
		for i, id := range m {
			if id >= 0 {
				m[i] = remap[id]
			}
		}
	}
	return remap
}

func (x *pieceIndex) len() int { return len(x.keys) }

func (x *pieceIndex) isConnector(id int32) bool { return x.conn[id] }

func (x *pieceIndex) name(id int32) string {
	if x.PieceNames[id] == "" {
		x.PieceNames[id] = PieceName(x.keys[id])
	}
	return x.PieceNames[id]
}

// lookup is a known piece's id.
func (x *pieceIndex) lookup(k cluster.PieceKey) int32 { return x.ids[k] }

// ofPieces lists the ids of Pieces, adding unknown ones (renumbering: see
// add) and calling renumber when that happens.
func (x *pieceIndex) ofPieces(p assignor.Pieces, renumber func([]int32)) []int32 {
	keys := cluster.KeysOf(p)
	if remap := x.add(keys); remap != nil && renumber != nil {
		renumber(remap)
	}
	out := make([]int32, len(keys))
	for i, k := range keys {
		out[i] = x.ids[k]
	}
	return out
}

// fromSim maps the simulator's connector (isTask false) or task id to a
// piece id; pieces the simulator hands out are configured, so they are
// known already.
func (x *pieceIndex) fromSim(sim *assignor.Sim, id int32, isTask bool) int32 {
	m := &x.simConn
	if isTask {
		m = &x.simTask
	}
	for int(id) >= len(*m) {
		*m = append(*m, -1)
	}
	if p := (*m)[id]; p >= 0 {
		return p
	}
	var k cluster.PieceKey
	if isTask {
		c, n := sim.TaskOf(id)
		k = cluster.PieceKey{Connector: sim.ConnectorName(c), Task: n}
	} else {
		k = cluster.PieceKey{Connector: sim.ConnectorName(id), Task: -1}
	}
	p, ok := x.ids[k]
	if !ok {
		panic("plan: the simulator assigned a piece that was never configured: " + PieceName(k))
	}
	(*m)[id] = p
	return p
}

// idList is a set of piece ids kept sorted.
type idList []int32

// sortedIDs sorts ids and drops duplicates, in place.
func sortedIDs(ids []int32) idList {
	slices.Sort(ids)
	return idList(slices.Compact(ids))
}

func (l idList) has(id int32) bool {
	_, ok := slices.BinarySearch(l, id)
	return ok
}

// minus is l without the ids of o (both sorted), as a new list.
func (l idList) minus(o idList) idList {
	out := make(idList, 0, len(l))
	j := 0
	for _, id := range l {
		for j < len(o) && o[j] < id {
			j++
		}
		if j < len(o) && o[j] == id {
			continue
		}
		out = append(out, id)
	}
	return out
}

// common is the ids in both lists, as a new list.
func (l idList) common(o idList) idList {
	if len(l) == len(o) && (len(l) == 0 || &l[0] == &o[0]) {
		return l // the same list (an eager member's new holdings)
	}
	var out idList
	j := 0
	for _, id := range l {
		for j < len(o) && o[j] < id {
			j++
		}
		if j < len(o) && o[j] == id {
			out = append(out, id)
		}
	}
	return out
}

// union merges two sorted lists into a new one.
func (l idList) union(o idList) idList {
	out := make(idList, 0, len(l)+len(o))
	i, j := 0, 0
	for i < len(l) || j < len(o) {
		switch {
		case j == len(o) || (i < len(l) && l[i] < o[j]):
			out = append(out, l[i])
			i++
		case i == len(l) || o[j] < l[i]:
			out = append(out, o[j])
			j++
		default:
			out = append(out, l[i])
			i++
			j++
		}
	}
	return out
}

// common counts the ids in both lists, connectors and tasks apart.
func (x *pieceIndex) common(l, o idList) (conns, tasks int) {
	j := 0
	for _, id := range l {
		for j < len(o) && o[j] < id {
			j++
		}
		if j < len(o) && o[j] == id {
			if x.isConnector(id) {
				conns++
			} else {
				tasks++
			}
		}
	}
	return conns, tasks
}

// count splits a list into connectors and tasks.
func (x *pieceIndex) count(l idList) (conns, tasks int) {
	for _, id := range l {
		if x.isConnector(id) {
			conns++
		} else {
			tasks++
		}
	}
	return conns, tasks
}

// namesOf renders a sorted list as the JSON contract writes it.
func (x *pieceIndex) namesOf(l idList) (conns, tasks []string) {
	c, t := x.count(l)
	conns, tasks = make([]string, 0, c), make([]string, 0, t)
	for _, id := range l {
		if x.isConnector(id) {
			conns = append(conns, x.name(id))
		} else {
			tasks = append(tasks, x.name(id))
		}
	}
	return conns, tasks
}

// remapList renumbers a list after add and sorts it again.
func remapList(l idList, remap []int32) idList {
	for i, id := range l {
		l[i] = remap[id]
	}
	slices.Sort(l)
	return l
}

// clone copies what a run changes (the simulator's ids, names made on
// use); the numbering itself is shared, read only, as long as no run adds
// pieces (the advisor's never change the connectors).
func (x *pieceIndex) clone() *pieceIndex {
	c := *x
	c.PieceNames = slices.Clone(x.PieceNames)
	c.simConn = slices.Clone(x.simConn)
	c.simTask = slices.Clone(x.simTask)
	return &c
}
