package scenario

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/connectscope/connectscope/format/jsonout"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/bounds"
	"github.com/connectscope/connectscope/plan/cluster"
)

// ReplayOptions choose the assignor variant a replay runs.
type ReplayOptions struct {
	KafkaVersion kafkaversion.Version // unknown = current (3.9)
	JDK          int                  // 0 = 17
	// Ctx stops a long replay between steps and rounds when it is
	// cancelled (Ctrl-C); nil never does.
	Ctx context.Context
	// From starts the replay from a cluster's state (plan replay --from):
	// its connectors, its members holding what they own, and the leader's
	// memory with what it holds pending (cluster/pending.go); nil = an empty group.
	// Parse such a scenario with ParseScenarioFrom.
	From *cluster.State
}

// ReplayResult is the `plan replay -o json` output (scenario-format.md "Output").
type ReplayResult struct {
	Name   string           `json:"name" yaml:"name"`
	Rounds []ReplayRound    `json:"rounds" yaml:"rounds"`
	Final  map[string]Owned `json:"final" yaml:"final"`

	totals []configuredTotals // per round, for table footers
}

// ReplayRound is one rebalance round of a replay.
type ReplayRound struct {
	Step       int                     `json:"step" yaml:"step"`
	Generation int                     `json:"generation" yaml:"generation"`
	TimeMs     int64                   `json:"time_ms" yaml:"time_ms"`
	Workers    map[string]ReplayWorker `json:"workers" yaml:"workers"`
}

// ReplayWorker is what one worker was sent in a round and owns afterwards.
type ReplayWorker struct {
	AssignedConnectors NameList `json:"assigned_connectors" yaml:"assigned_connectors"`
	AssignedTasks      TaskList `json:"assigned_tasks" yaml:"assigned_tasks"`
	RevokedConnectors  NameList `json:"revoked_connectors" yaml:"revoked_connectors"`
	RevokedTasks       TaskList `json:"revoked_tasks" yaml:"revoked_tasks"`
	DelayMs            int64    `json:"delay_ms" yaml:"delay_ms"`
	Connectors         NameList `json:"connectors" yaml:"connectors"`
	Tasks              TaskList `json:"tasks" yaml:"tasks"`
}

// Owned is what a worker owns.
type Owned struct {
	Connectors NameList `json:"connectors" yaml:"connectors"`
	Tasks      TaskList `json:"tasks" yaml:"tasks"`
}

type configuredTotals struct{ connectors, tasks int }

// NameList is a list of names that marshals as a JSON array (never null).
type NameList []string

// TaskList is a list of tasks that marshals as a JSON array of "CONNECTOR-N"
// strings (never null); written directly because replays can hold millions.
type TaskList []assignor.TaskID

// MarshalJSON writes the names as a JSON array.
func (l NameList) MarshalJSON() ([]byte, error) {
	n := 2
	for _, s := range l {
		n += len(s) + 3
	}
	return appendNames(make([]byte, 0, n), l), nil
}

// MarshalJSON writes the tasks as a JSON array of strings.
func (l TaskList) MarshalJSON() ([]byte, error) {
	n := 2
	for _, t := range l {
		n += len(t.Connector) + 8
	}
	return appendTasks(make([]byte, 0, n), l), nil
}

// appendNames appends names as a JSON array on one line.
func appendNames(b []byte, l []string) []byte {
	b = append(b, '[')
	for i, s := range l {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = jsonout.AppendString(b, s)
	}
	return append(b, ']')
}

// appendTasks appends task ids as a JSON array of strings on one line.
func appendTasks(b []byte, l []assignor.TaskID) []byte {
	b = append(b, '[')
	for i, t := range l {
		if i > 0 {
			b = append(b, ", "...)
		}
		if jsonout.Plain(t.Connector) {
			b = append(b, '"')
			b = append(b, t.Connector...)
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(t.Task), 10)
			b = append(b, '"')
		} else {
			b = jsonout.AppendString(b, t.String())
		}
	}
	return append(b, ']')
}

// Replay runs a scenario through the simulator.
func Replay(sc *Scenario, opts ReplayOptions) (*ReplayResult, error) {
	if sc == nil {
		return nil, &ScenarioError{Step: -1, Msg: "no scenario"}
	}
	sim, err := assignor.NewSim(assignor.SimConfig{Protocol: sc.Protocol, MaxDelayMs: sc.MaxDelayMs, KafkaVersion: opts.KafkaVersion, JDK: opts.JDK})
	if err != nil {
		return nil, fmt.Errorf("replaying scenario: %w", err)
	}
	if err := checkScenarioBounds(sc); err != nil {
		return nil, err
	}
	res := &ReplayResult{Name: sc.Name, Rounds: []ReplayRound{}}
	total := configuredTotals{}
	base := int64(0)        // time_ms counts from the scenario's start
	var from *cluster.Namer // the starting state's members by any name
	if opts.From != nil {
		if total, err = seedReplay(sim, *opts.From, sc); err != nil {
			return nil, err
		}
		base = sim.Now()
		from = opts.From.Namer()
	}
	var budget replayBudget
	record := func(step int, rounds ...assignor.Round) {
		for _, r := range rounds {
			r.TimeMs -= base
			res.Rounds = append(res.Rounds, replayRound(step, r))
			res.totals = append(res.totals, total)
		}
	}
	for i, st := range sc.Steps {
		if err := bounds.Cancelled(opts.Ctx); err != nil {
			return nil, err
		}
		switch st.Kind {
		case StepConnectors:
			sim.SetConnectors(st.Connectors)
			total = configuredTotals{}
			for _, c := range st.Connectors {
				total.connectors++
				total.tasks += c.Tasks
			}
		case StepJoin:
			for _, w := range st.Workers {
				if err := sim.Join(w, assignor.Pieces{}); err != nil {
					return nil, stepErr(i, st.Kind, "%v", err)
				}
			}
		case StepLeave:
			for _, w := range st.Workers {
				if from != nil && !slices.Contains(sim.Members(), w) {
					if id, err := from.ResolveWorker(w); err == nil {
						w = id // a member of the starting state, by another name
					}
				}
				if err := sim.Leave(w); err != nil {
					return nil, stepErr(i, st.Kind, "%v", err)
				}
			}
		case StepSleep:
			if sim.Now() > bounds.MaxDurationMs-st.SleepMs {
				return nil, stepErr(i, st.Kind, "the simulated clock would pass a century (%d ms); shorten the sleeps", int64(bounds.MaxDurationMs))
			}
			sim.Sleep(st.SleepMs)
		case StepNewLeader:
			sim.NewLeader()
		case StepRebalance:
			record(i, sim.Rebalance(st.GenerationMismatch))
		case StepSettle:
			rounds, err := sim.SettleContext(opts.Ctx, st.MaxRounds)
			if err != nil {
				return nil, fmt.Errorf("planning stopped: %w", err)
			}
			record(i, rounds...)
		default:
			return nil, stepErr(i, st.Kind, "unknown step")
		}
		if st.Kind == StepRebalance || st.Kind == StepSettle {
			last := res.Rounds[len(res.Rounds)-1]
			if !budget.add(len(res.Rounds)-budget.rounds, len(last.Workers), total.connectors+total.tasks) {
				return nil, budgetErr(i, st.Kind, budget)
			}
			if sim.Now() > bounds.MaxDurationMs {
				return nil, stepErr(i, st.Kind, "the simulated clock passed a century (%d ms); shorten the delays", int64(bounds.MaxDurationMs))
			}
		}
	}
	members := sim.Members()
	res.Final = make(map[string]Owned, len(members))
	for _, w := range members {
		p := sim.Owned(w)
		res.Final[w] = Owned{Connectors: NameList(p.Connectors), Tasks: TaskList(p.Tasks)}
	}
	return res, nil
}

func replayRound(step int, r assignor.Round) ReplayRound {
	rr := ReplayRound{Step: step, Generation: r.Generation, TimeMs: r.TimeMs, Workers: make(map[string]ReplayWorker, len(r.Workers))}
	for id, w := range r.Workers {
		rr.Workers[id] = ReplayWorker{
			AssignedConnectors: NameList(w.Assigned.Connectors),
			AssignedTasks:      TaskList(w.Assigned.Tasks),
			RevokedConnectors:  NameList(w.Revoked.Connectors),
			RevokedTasks:       TaskList(w.Revoked.Tasks),
			DelayMs:            w.DelayMs,
			Connectors:         NameList(w.Owned.Connectors),
			Tasks:              TaskList(w.Owned.Tasks),
		}
	}
	return rr
}

// seedReplay puts a cluster's state into the simulator before the first
// step: the configured connectors, the members in the broker's order with
// what they own (in their held order), and the leader's memory, including
// what it holds pending.
func seedReplay(sim *assignor.Sim, from cluster.State, sc *Scenario) (configuredTotals, error) {
	total := configuredTotals{}
	sim.SetConnectors(from.Connectors)
	for _, c := range from.Connectors {
		total.connectors++
		total.tasks += c.Tasks
	}
	for _, w := range from.Workers {
		if err := sim.Join(w.ID, w.Owned); err != nil {
			return total, fmt.Errorf("seeding worker %s: %w", w.ID, err)
		}
	}
	sim.Sleep(1) // a deadline at time 0 must not read as "none"
	if sc.Protocol != "eager" {
		st, _ := cluster.LeaderMemory(sim, from.Pending, sc.MaxDelayMs)
		sim.SetState(st)
	}
	return total, nil
}
