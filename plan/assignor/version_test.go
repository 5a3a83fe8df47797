package assignor

import "testing"

// Every version profile keeps the basic invariant on every public scenario:
// after each round no piece is owned twice. (Owning an unconfigured piece is
// possible in Kafka too: a leader that forgot the previous assignment does not
// see it as deleted.)
func TestVersionProfilesInvariants(t *testing.T) {
	versions := []string{"2.3.0", "2.4.1", "2.6.1", "2.7.1", "3.3.2", "3.5.1", "3.6.1", ""}
	for _, sc := range loadAssignorVectors(t) {
		for _, v := range versions {
			t.Run(sc.name+"@"+v, func(t *testing.T) {
				s := mustSim(t, SimConfig{Protocol: sc.protocol, MaxDelayMs: sc.maxDelayMs, KafkaVersion: mustVersion(t, v)})
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
				for i, st := range sc.steps {
					switch st.kind {
					case "connectors":
						s.SetConnectors(st.connectors)
					case "join":
						for _, w := range st.workers {
							s.Join(w, Pieces{})
						}
					case "leave":
						for _, w := range st.workers {
							s.Leave(w)
						}
					case "sleep_ms":
						s.Sleep(st.sleepMs)
					case "new_leader":
						s.NewLeader()
					case "rebalance":
						check(s.Rebalance(st.mismatch), i)
					case "settle":
						for _, r := range s.Settle(st.maxRounds) {
							check(r, i)
						}
					default:
						t.Fatalf("step %d: %s", i, st.kind)
					}
				}
			})
		}
	}
}

func TestBeyondVerified(t *testing.T) {
	for v, want := range map[string]bool{"": false, "3.9": false, "3.9.1": false, "3.3": false, "3.10": true, "4.0": false, "4.1.0-rc1": false, "4.4.0": false, "4.4.3": false, "4.5": true, "5.0.0": true, "2.2": false} {
		if got := BeyondVerified(mustVersion(t, v)); got != want {
			t.Errorf("BeyondVerified(%q) = %v, want %v", v, got, want)
		}
	}
}
