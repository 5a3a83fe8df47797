package check

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/rogpeppe/go-internal/txtar"
)

// Every rule has a file testdata/rules/ID.txtar with cases named fire* (the
// rule must fire) and miss* (a near miss: it must not). A case is a set of
// files: *.properties worker configs (broker.properties is the broker's
// settings), args (key=value lines), connectors.json, and the JSON inputs of
// the topics, balance and upgrade checks.

type ruleCase struct {
	name  string
	files map[string][]byte
}

func loadRuleCases(t *testing.T, id string) []ruleCase {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "rules", id+".txtar"))
	if err != nil {
		t.Fatalf("rule %s: %v", id, err)
	}
	byName := map[string]*ruleCase{}
	var order []string
	for _, f := range ar.Files {
		dir, file, ok := strings.Cut(f.Name, "/")
		if !ok {
			t.Fatalf("rule %s: file %q is not CASE/FILE", id, f.Name)
		}
		if byName[dir] == nil {
			byName[dir] = &ruleCase{name: dir, files: map[string][]byte{}}
			order = append(order, dir)
		}
		byName[dir].files[file] = f.Data
	}
	out := make([]ruleCase, 0, len(order))
	for _, n := range order {
		out = append(out, *byName[n])
	}
	return out
}

// runCase runs the check a case's args name (timeouts by default) and returns its findings.
func runCase(t *testing.T, c ruleCase) []Finding {
	t.Helper()
	dir := t.TempDir()
	args := map[string]string{}
	for _, line := range strings.Split(string(c.files["args"]), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			args[k] = v
		}
	}
	num := func(k string) int64 {
		if args[k] == "" {
			return 0
		}
		n, err := strconv.ParseInt(args[k], 10, 64)
		if err != nil {
			t.Fatalf("args %s: %v", k, err)
		}
		return n
	}
	var workers []*workerconfig.Config
	var broker map[string]string
	names := make([]string, 0, len(c.files))
	for n := range c.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !strings.HasSuffix(n, ".properties") {
			continue
		}
		path := filepath.Join(dir, n)
		if err := os.WriteFile(path, c.files[n], 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := workerconfig.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if n == "broker.properties" {
			broker = w.Props
			continue
		}
		workers = append(workers, w)
	}
	var connectors []ConnectorInfo
	decode := func(file string, into any) bool {
		data, ok := c.files[file]
		if !ok {
			return false
		}
		if err := json.Unmarshal(data, into); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return true
	}
	decode("connectors.json", &connectors)
	version, err := kafkaversion.Parse(args["kafka-version"])
	if err != nil {
		t.Fatalf("kafka-version: %v", err)
	}
	switch args["check"] {
	case "", "timeouts":
		in := TimeoutsInput{
			Workers: workers, Broker: broker, Connectors: connectors, KafkaVersion: version,
			RestartTimeMs: num("restart-time-ms"), MaxDowntimeMs: num("max-downtime-ms"), MaxPutTimeMs: num("max-put-time-ms"),
			TasksPerWorker: int(num("tasks-per-worker")),
		}
		if spec := args["synthetic"]; spec != "" {
			// The group's members and connectors, as plan --synthetic makes them (D7).
			s, err := cluster.ParseSynthetic(spec)
			if err != nil {
				t.Fatalf("args synthetic: %v", err)
			}
			st := cluster.SyntheticState(s)
			in.Cluster = &st
		}
		rep, err := Timeouts(in)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Findings
	case "upgrade":
		var in UpgradeInput
		decode("upgrade.json", &in)
		in.Workers = workers
		in.Target = Protocol(args["target"])
		in.ExactlyOnce = args["exactly-once"]
		in.KafkaVersion = version
		rep, err := Upgrade(in)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Findings
	case "release":
		var in ReleaseInput
		decode("release.json", &in)
		to, err := ParseRelease(args["to"])
		if err != nil {
			t.Fatal(err)
		}
		in.To = to
		in.Connectors = connectors
		in.WorkerFiles = workers
		in.Broker = broker
		rep, err := Release(in)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Findings
	case "topics":
		var in TopicsInput
		decode("topics.json", &in)
		in.Workers = workers
		in.Connectors = connectors
		return Topics(in).Findings
	case "balance":
		var in BalanceInput
		decode("balance.json", &in)
		in.Broker = broker
		in.Capacity = int(num("capacity"))
		if z, ok := c.files["zones"]; ok {
			zones, err := ParseZones("zones", z)
			if err != nil {
				t.Fatal(err)
			}
			in.Zones = zones
		}
		return Balance(in).Findings
	case "waivers":
		ws, err := ParseWaivers("waivers.yaml", c.files["waivers.yaml"])
		if err != nil {
			t.Fatal(err)
		}
		now, err := time.Parse(time.DateOnly, args["now"])
		if err != nil {
			t.Fatalf("args now: %v", err)
		}
		fl := &Filter{Waivers: ws, Now: now}
		if ran := args["ran"]; ran != "" {
			// W2 judges waivers against the findings of the checks that ran:
			// here one K2 of the dev cluster's config topic.
			fl.ran = map[string]bool{ran: true}
			var f Findings
			f.Add("K2", "topic connect-configs", "replication factor 1", nil)
			return fl.Apply(f.List())
		}
		return fl.Apply(nil)
	}
	t.Fatalf("unknown check %q", args["check"])
	return nil
}

func hasRule(list []Finding, id string) bool {
	for _, f := range list {
		if f.Rule == id {
			return true
		}
	}
	return false
}

func TestEveryRuleFiresAndHasANearMiss(t *testing.T) {
	for _, r := range Rules() {
		t.Run(r.ID, func(t *testing.T) {
			cases := loadRuleCases(t, r.ID)
			var fires, misses int
			for _, c := range cases {
				got := runCase(t, c)
				switch {
				case strings.HasPrefix(c.name, "fire"):
					fires++
					if !hasRule(got, r.ID) {
						t.Errorf("case %s: %s did not fire; findings: %v", c.name, r.ID, ruleIDs(got))
					}
					for _, f := range got {
						if f.Rule == r.ID && (f.Subject == "" || f.Message == "" || f.Severity != r.Severity) {
							t.Errorf("case %s: incomplete finding %+v", c.name, f)
						}
					}
				case strings.HasPrefix(c.name, "miss"):
					misses++
					if hasRule(got, r.ID) {
						t.Errorf("case %s: %s fired on a near miss: %+v", c.name, r.ID, got)
					}
				default:
					t.Errorf("case %q is neither fire* nor miss*", c.name)
				}
			}
			if fires == 0 || misses == 0 {
				t.Errorf("rule %s needs a fire and a miss case (has %d, %d)", r.ID, fires, misses)
			}
		})
	}
}

func ruleIDs(list []Finding) []string {
	out := make([]string, len(list))
	for i, f := range list {
		out[i] = f.Rule
	}
	return out
}

func TestCatalogueComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("duplicate rule id %s", r.ID)
		}
		seen[r.ID] = true
		if r.ID == "" || r.Title == "" || r.Why == "" || r.Fix == "" || r.Check == "" {
			t.Errorf("rule %s incomplete: %+v", r.ID, r)
		}
		if r.Severity != Error && r.Severity != Warn && r.Severity != Info {
			t.Errorf("rule %s: severity %q", r.ID, r.Severity)
		}
		if r.Enforced != "kafka" && r.Enforced != "audit" {
			t.Errorf("rule %s: enforced %q", r.ID, r.Enforced)
		}
		if !strings.Contains(seriesOrder, r.ID[:1]) {
			t.Errorf("rule %s: unknown series", r.ID)
		}
	}
	// Every rule of configs.md §6 is in the catalogue.
	for _, id := range strings.Fields("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 D1 D2 D3 D4 D5 S1 S2 S3 S4 P1 P2 P3 P4 P5 P6 P7 P8 P9 K1 K2 K3 K4 K5 K6 K7 K8") {
		if !seen[id] {
			t.Errorf("configs.md rule %s missing from the catalogue", id)
		}
	}
	// Files in testdata/rules name catalogue rules only.
	files, _ := filepath.Glob(filepath.Join("testdata", "rules", "*.txtar"))
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".txtar")
		if !seen[id] {
			t.Errorf("%s tests an unknown rule", f)
		}
	}
	ids := []string{}
	for _, r := range Rules() {
		ids = append(ids, r.ID)
	}
	if ids[0] != "T1" || ids[1] != "T2" || !sort.SliceIsSorted(ids, func(i, j int) bool { return ruleLess(ids[i], ids[j]) }) {
		t.Errorf("Rules() order: %v", ids)
	}
}
