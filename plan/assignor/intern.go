package assignor

import (
	"maps"
	"slices"
	"strings"
)

// Numbering gives names dense int32 numbers in the order they are first
// met, so that what is kept per name can live in slices: the interner
// numbers connectors with it, the timeline engine hosts. The zero value is
// ready to use.
type Numbering struct {
	names []string // by number
	index map[string]int32
}

// Number is name's number; fresh says name was new and took the next one.
func (n *Numbering) Number(name string) (id int32, fresh bool) {
	if id, ok := n.index[name]; ok {
		return id, false
	}
	if n.index == nil {
		n.index = make(map[string]int32)
	}
	id = int32(len(n.names))
	n.names = append(n.names, name)
	n.index[name] = id
	return id, true
}

// Name is the name numbered id.
func (n *Numbering) Name(id int32) string { return n.names[id] }

// Len is how many names are numbered.
func (n *Numbering) Len() int { return len(n.names) }

// Clone is a copy that shares nothing with n.
func (n *Numbering) Clone() Numbering {
	return Numbering{names: slices.Clone(n.names), index: maps.Clone(n.index)}
}

// interner maps connector names and tasks to dense int32 ids so the assignor's
// hot loops work on slices instead of maps of strings. Ids never change; the
// sorted orders are rebuilt lazily when new names appear.
type interner struct {
	conns     Numbering // connector names
	connHash  []int32   // Java String.hashCode of the name
	connTasks [][]int32 // task ids of a connector by task number (dense part), -1 = none
	connOther [][]int32 // task ids with numbers outside the dense range

	taskConn []int32
	taskNum  []int32

	sortedN     int     // connectors covered by the sorted orders below
	sortedT     int     // tasks covered
	javaConns   []int32 // connector ids in Java String.compareTo order
	javaTasks   []int32 // task ids by (Java connector order, number)
	javaRank    []int32 // connector id -> rank in Java order
	goRank      []int32 // connector id -> rank in Go string order
	goConns     []int32 // connector ids in Go string order
	taskOrdered []int32 // task id -> position in javaTasks
}

const maxDenseTask = 1 << 20

func newInterner() *interner {
	return &interner{}
}

func (ix *interner) conn(name string) int32 {
	id, fresh := ix.conns.Number(name)
	if fresh {
		ix.connHash = append(ix.connHash, javaStringHash(name))
		ix.connTasks = append(ix.connTasks, nil)
		ix.connOther = append(ix.connOther, nil)
	}
	return id
}

func (ix *interner) task(c int32, num int) int32 {
	if num >= 0 && num < maxDenseTask {
		d := ix.connTasks[c]
		if num < len(d) && d[num] >= 0 {
			return d[num]
		}
		for len(d) <= num {
			d = append(d, -1)
		}
		id := ix.newTask(c, num)
		d[num] = id
		ix.connTasks[c] = d
		return id
	}
	for _, id := range ix.connOther[c] {
		if int(ix.taskNum[id]) == num {
			return id
		}
	}
	id := ix.newTask(c, num)
	ix.connOther[c] = append(ix.connOther[c], id)
	return id
}

func (ix *interner) newTask(c int32, num int) int32 {
	id := int32(len(ix.taskConn))
	ix.taskConn = append(ix.taskConn, c)
	ix.taskNum = append(ix.taskNum, int32(num))
	return id
}

func (ix *interner) taskID(c int32, num int) TaskID {
	return TaskID{Connector: ix.conns.names[c], Task: num}
}

func (ix *interner) nConns() int { return len(ix.conns.names) }
func (ix *interner) nTasks() int { return len(ix.taskConn) }

// ensureSorted rebuilds the sorted orders if names or tasks were added.
func (ix *interner) ensureSorted() {
	if ix.sortedN == len(ix.conns.names) && ix.sortedT == len(ix.taskConn) {
		return
	}
	n := len(ix.conns.names)
	if ix.sortedN != n {
		ix.javaConns = slices.Grow(ix.javaConns[:0], n)
		ix.goConns = slices.Grow(ix.goConns[:0], n)
		for i := 0; i < n; i++ {
			ix.javaConns = append(ix.javaConns, int32(i))
			ix.goConns = append(ix.goConns, int32(i))
		}
		names := ix.conns.names
		slices.SortFunc(ix.javaConns, func(a, b int32) int { return javaCompare(names[a], names[b]) })
		slices.SortFunc(ix.goConns, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
		ix.javaRank = slices.Grow(ix.javaRank[:0], n)[:n]
		for r, c := range ix.javaConns {
			ix.javaRank[c] = int32(r)
		}
		ix.goRank = slices.Grow(ix.goRank[:0], n)[:n]
		for r, c := range ix.goConns {
			ix.goRank[c] = int32(r)
		}
	}
	ix.javaTasks = slices.Grow(ix.javaTasks[:0], len(ix.taskConn))
	for _, c := range ix.javaConns {
		other := ix.connOther[c]
		if len(other) > 1 {
			slices.SortFunc(other, func(a, b int32) int { return int(ix.taskNum[a]) - int(ix.taskNum[b]) })
		}
		k := 0
		for k < len(other) && ix.taskNum[other[k]] < 0 {
			ix.javaTasks = append(ix.javaTasks, other[k])
			k++
		}
		for _, id := range ix.connTasks[c] {
			if id >= 0 {
				ix.javaTasks = append(ix.javaTasks, id)
			}
		}
		ix.javaTasks = append(ix.javaTasks, other[k:]...)
	}
	nt := len(ix.taskConn)
	ix.taskOrdered = slices.Grow(ix.taskOrdered[:0], nt)[:nt]
	for p, t := range ix.javaTasks {
		ix.taskOrdered[t] = int32(p)
	}
	ix.sortedN, ix.sortedT = n, nt
}

// goTaskKey orders tasks for output: Go order of the connector name, then number.
func (ix *interner) goTaskKey(t int32) uint64 {
	return uint64(ix.goRank[ix.taskConn[t]])<<32 | uint64(uint32(ix.taskNum[t])^0x80000000)
}

// sortedPieces converts id lists to Pieces in output (Go string) order.
func (ix *interner) sortedPieces(conns, tasks []int32, scratch *[]uint64) Pieces {
	a := pieceArena{names: make([]string, 0, len(conns)), tasks: make([]TaskID, 0, len(tasks))}
	return ix.sortedPiecesIn(conns, tasks, scratch, &a)
}

// pieceArena hands out result lists from a few large allocations instead of
// two per Pieces. Each list's capacity is cut to its length, so appending to
// one never writes into another.
type pieceArena struct {
	names []string
	tasks []TaskID
}

// sortedPiecesIn is sortedPieces taking the lists from a.
func (ix *interner) sortedPiecesIn(conns, tasks []int32, scratch *[]uint64, a *pieceArena) Pieces {
	ix.ensureSorted()
	keys := (*scratch)[:0]
	for _, c := range conns {
		keys = append(keys, uint64(ix.goRank[c]))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	start := len(a.names)
	for _, k := range keys {
		a.names = append(a.names, ix.conns.names[ix.goConns[k]])
	}
	p := Pieces{Connectors: a.names[start:len(a.names):len(a.names)]}
	keys = keys[:0]
	for _, t := range tasks {
		keys = append(keys, ix.goTaskKey(t))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	start = len(a.tasks)
	for _, k := range keys {
		c := ix.goConns[k>>32]
		a.tasks = append(a.tasks, TaskID{Connector: ix.conns.names[c], Task: int(int32(uint32(k) ^ 0x80000000))})
	}
	p.Tasks = a.tasks[start:len(a.tasks):len(a.tasks)]
	*scratch = keys
	return p
}

// internPieces converts Pieces (any order) to ids, keeping the given order.
func (ix *interner) internPieces(p Pieces) (conns, tasks []int32) {
	conns = make([]int32, 0, len(p.Connectors))
	for _, c := range p.Connectors {
		conns = append(conns, ix.conn(c))
	}
	tasks = make([]int32, 0, len(p.Tasks))
	for _, t := range p.Tasks {
		tasks = append(tasks, ix.task(ix.conn(t.Connector), t.Task))
	}
	return conns, tasks
}

func (ix *interner) clone() *interner {
	c := &interner{
		conns:     ix.conns.Clone(),
		connHash:  slices.Clone(ix.connHash),
		connTasks: make([][]int32, len(ix.connTasks)),
		connOther: make([][]int32, len(ix.connOther)),
		taskConn:  slices.Clone(ix.taskConn),
		taskNum:   slices.Clone(ix.taskNum),
	}
	for i := range ix.connTasks {
		c.connTasks[i] = slices.Clone(ix.connTasks[i])
		c.connOther[i] = slices.Clone(ix.connOther[i])
	}
	return c
}
