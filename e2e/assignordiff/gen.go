//go:build e2e

// Package assignordiff checks connectscope's assignor profiles against the
// real IncrementalCooperativeAssignor and EagerAssignor of every Kafka release
// line: a Java driver (driver/) replays scenario files through a given
// connect-runtime jar, and diff_test.go compares its output with
// `connectscope plan replay -o json --kafka-version V` on public and
// generated scenarios. This file holds the scenario generator.
package assignordiff

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
)

// scenario is a format-1 scenario file (scenario-format.md) as the
// generator builds it.
type scenario struct {
	Scenario   int              `json:"scenario"`
	Name       string           `json:"name"`
	Protocol   string           `json:"protocol"`
	MaxDelayMs int64            `json:"max_delay_ms"`
	Steps      []map[string]any `json:"steps"`
}

// generator builds random but valid scenarios: every leave names a member,
// every join a non-member, every sleep is positive.
type generator struct {
	r          *rand.Rand
	members    []string
	everJoined map[string]int // base name -> incarnations, for bounces with new ids
	next       int            // next fresh worker number
	naming     int            // worker name style
	conns      map[string]int
	connNames  []string
	maxDelay   int64
	maxTasks   int // task counts are below this
}

var (
	protocols  = []string{"eager", "compatible", "sessioned", "sessioned"}
	maxDelays  = []int64{0, 1000, 30000, 60000, 300000, 300000, 600000}
	connStems  = []string{"orders", "payments", "users", "logs", "cdc", "metrics", "clicks", "audit", "inventory", "events"}
	connKinds  = []string{"source", "sink"}
	workerFmts = []string{"w%d", "worker-%d", "connect-%d"}
)

// generate returns n scenarios from seed, named gen-<seed>-<i>.
func generate(seed uint64, n int) map[string][]byte {
	out := make(map[string][]byte, n)
	for i := 0; i < n; i++ {
		g := &generator{r: rand.New(rand.NewPCG(seed, uint64(i))), everJoined: map[string]int{}, conns: map[string]int{}}
		sc := g.scenario(fmt.Sprintf("gen-%d-%04d", seed, i))
		b, err := json.MarshalIndent(sc, "", "  ")
		if err != nil {
			panic(err) // only maps of strings and numbers: cannot fail
		}
		out[sc.Name] = append(b, '\n')
	}
	return out
}

func (g *generator) pick(n int) int { return g.r.IntN(n) }

func (g *generator) scenario(name string) scenario {
	sc := scenario{Scenario: 1, Name: name, Protocol: protocols[g.pick(len(protocols))]}
	g.maxDelay = maxDelays[g.pick(len(maxDelays))]
	sc.MaxDelayMs = g.maxDelay
	g.naming = g.pick(len(workerFmts))

	// A starting cluster: connectors, workers, and usually a settled state.
	// One in six is wide (many connectors on few workers), so that members
	// hold 12, 24 or more connectors, where JDK 17 and JDK 19+ size copied
	// HashSets differently (assignor.md §6.2).
	nConns, maxTasks, nWorkers := g.pick(10), 13, 1+g.pick(7)
	if g.pick(6) == 0 {
		nConns, maxTasks, nWorkers = 12+g.pick(60), 4, 1+g.pick(4)
	}
	g.maxTasks = maxTasks
	for i := 0; i < nConns; i++ {
		g.addConnector()
	}
	sc.Steps = append(sc.Steps, g.connectorsStep())
	sc.Steps = append(sc.Steps, g.joinStep(nWorkers))
	if g.pick(4) > 0 {
		sc.Steps = append(sc.Steps, map[string]any{"settle": map[string]any{}})
	} else {
		sc.Steps = append(sc.Steps, map[string]any{"rebalance": map[string]any{}})
	}

	events := 3 + g.pick(10)
	for e := 0; e < events; e++ {
		sc.Steps = append(sc.Steps, g.event()...)
	}
	sc.Steps = append(sc.Steps, map[string]any{"settle": map[string]any{}})
	return sc
}

// event returns the steps of one random event, ending in a round.
func (g *generator) event() []map[string]any {
	var steps []map[string]any
	switch g.pick(12) {
	case 0, 1: // workers join
		steps = append(steps, g.joinStep(1+g.pick(3)))
	case 2, 3: // a worker leaves (clean stop or crash look alike)
		if len(g.members) > 0 {
			steps = append(steps, g.leaveStep(1+g.pick(min(2, len(g.members)))))
		}
	case 4, 5: // a bounce: leave, some time, back with a new member id (or the same)
		if len(g.members) > 0 {
			w := g.members[g.pick(len(g.members))]
			steps = append(steps, g.leave(w))
			steps = append(steps, map[string]any{"rebalance": map[string]any{}})
			steps = append(steps, g.sleep())
			steps = append(steps, g.rejoin(w))
		}
	case 6, 7: // connector changes
		switch g.pick(3) {
		case 0:
			g.addConnector()
		case 1:
			if len(g.connNames) > 0 {
				c := g.connNames[g.pick(len(g.connNames))]
				delete(g.conns, c)
				g.connNames = slices.DeleteFunc(g.connNames, func(s string) bool { return s == c })
			}
		default:
			if len(g.connNames) > 0 {
				g.conns[g.connNames[g.pick(len(g.connNames))]] = g.pick(g.maxTasks)
			}
		}
		steps = append(steps, g.connectorsStep())
	case 8: // time passes
		steps = append(steps, g.sleep())
	case 9: // leadership moves
		steps = append(steps, map[string]any{"new_leader": map[string]any{}})
	case 10: // a round that saw a failed generation
		steps = append(steps, map[string]any{"rebalance": map[string]any{"generation_mismatch": true}})
		return steps
	default: // leave and join in the same round
		if len(g.members) > 0 {
			steps = append(steps, g.leaveStep(1))
		}
		steps = append(steps, g.joinStep(1))
	}
	switch g.pick(4) {
	case 0:
		steps = append(steps, map[string]any{"rebalance": map[string]any{}})
	case 1:
		steps = append(steps, map[string]any{"settle": map[string]any{"max_rounds": 1 + g.pick(4)}})
	default:
		steps = append(steps, map[string]any{"settle": map[string]any{}})
	}
	return steps
}

func (g *generator) sleep() map[string]any {
	var ms int64
	switch g.pick(4) {
	case 0:
		ms = 1 + g.r.Int64N(5000)
	case 1:
		ms = g.maxDelay/2 + 1
	case 2:
		ms = g.maxDelay + 1
	default:
		ms = 1 + g.r.Int64N(g.maxDelay+10000)
	}
	return map[string]any{"sleep_ms": ms}
}

func (g *generator) addConnector() {
	for tries := 0; tries < 10; tries++ {
		name := connStems[g.pick(len(connStems))] + "-" + connKinds[g.pick(2)]
		if g.pick(2) == 0 || len(g.conns) >= 10 {
			name += "-" + strconv.Itoa(g.pick(100))
		}
		if _, ok := g.conns[name]; ok {
			continue
		}
		g.conns[name] = g.pick(g.maxTasks)
		g.connNames = append(g.connNames, name)
		return
	}
}

func (g *generator) connectorsStep() map[string]any {
	m := make(map[string]any, len(g.conns))
	for k, v := range g.conns {
		m[k] = v
	}
	return map[string]any{"connectors": m}
}

func (g *generator) joinStep(n int) map[string]any {
	var ids []string
	for i := 0; i < n; i++ {
		g.next++
		id := fmt.Sprintf(workerFmts[g.naming], g.next)
		g.everJoined[id] = 1
		g.members = append(g.members, id)
		ids = append(ids, id)
	}
	return map[string]any{"join": ids}
}

func (g *generator) leaveStep(n int) map[string]any {
	var ids []string
	for i := 0; i < n && len(g.members) > 0; i++ {
		w := g.members[g.pick(len(g.members))]
		g.members = slices.DeleteFunc(g.members, func(s string) bool { return s == w })
		ids = append(ids, w)
	}
	return map[string]any{"leave": ids}
}

func (g *generator) leave(w string) map[string]any {
	g.members = slices.DeleteFunc(g.members, func(s string) bool { return s == w })
	return map[string]any{"leave": []string{w}}
}

// rejoin brings a departed worker back: usually with a new member id (w3.2),
// as a restarted worker gets; sometimes under the same id.
func (g *generator) rejoin(w string) map[string]any {
	id := w
	if g.pick(3) > 0 {
		base := w
		for i := len(w) - 1; i >= 0; i-- {
			if w[i] == '.' {
				base = w[:i]
				break
			}
		}
		g.everJoined[base]++
		id = fmt.Sprintf("%s.%d", base, g.everJoined[base])
	}
	g.members = append(g.members, id)
	return map[string]any{"join": []string{id}}
}
