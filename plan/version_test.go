package plan

import "testing"

// Every version profile keeps the basic invariant on every public scenario:
// after each round no piece is owned twice. (Owning an unconfigured piece is
// possible in Kafka too: a leader that forgot the previous assignment does not
// see it as deleted.)
func TestVersionProfilesInvariants(t *testing.T) {
	versions := []string{"2.3.0", "2.4.1", "2.6.1", "2.7.1", "3.3.2", "3.5.1", "3.6.1", ""}
	for _, vc := range loadAssignorVectors(t) {
		sc, err := ParseScenario(vc.scenario)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range versions {
			t.Run(vc.name+"@"+v, func(t *testing.T) {
				s := mustSim(t, SimConfig{Protocol: sc.Protocol, MaxDelayMs: sc.MaxDelayMs, KafkaVersion: v})
				check := func(r Round, step int) {
					seen := map[string]string{}
					for id, w := range r.Workers {
						keys := append([]string{}, w.Owned.Connectors...)
						for _, tk := range w.Owned.Tasks {
							keys = append(keys, "task:"+tk.String())
						}
						for _, k := range keys {
							if other, dup := seen[k]; dup {
								t.Fatalf("step %d gen %d: %s owned by %s and %s", step, r.Generation, k, other, id)
							}
							seen[k] = id
						}
					}
				}
				for i, st := range sc.Steps {
					switch st.Kind {
					case StepConnectors:
						s.SetConnectors(st.Connectors)
					case StepJoin:
						for _, w := range st.Workers {
							s.Join(w, Pieces{})
						}
					case StepLeave:
						for _, w := range st.Workers {
							s.Leave(w)
						}
					case StepSleep:
						s.Sleep(st.SleepMs)
					case StepNewLeader:
						s.NewLeader()
					case StepRebalance:
						check(s.Rebalance(st.GenerationMismatch), i)
					case StepSettle:
						for _, r := range s.Settle(st.MaxRounds) {
							check(r, i)
						}
					default:
						t.Fatalf("step %d: %s", i, st.Kind)
					}
				}
			})
		}
	}
}

func TestBeyondVerified(t *testing.T) {
	for v, want := range map[string]bool{"": false, "3.9": false, "3.9.1": false, "3.3": false, "3.10": true, "4.0": false, "4.1.0-rc1": false, "4.4.0": false, "4.4.3": false, "4.5": true, "5.0.0": true, "bogus": false} {
		if got := BeyondVerified(v); got != want {
			t.Errorf("BeyondVerified(%q) = %v, want %v", v, got, want)
		}
	}
}
