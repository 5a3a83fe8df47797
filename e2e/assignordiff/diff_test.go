//go:build e2e

package assignordiff

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/internal/vectors"
	planscenario "github.com/connectscope/connectscope/plan/scenario"
)

var (
	flagGenerated = flag.Int("assignordiff.generated", envInt("CONNECTSCOPE_ASSIGNORDIFF_SCENARIOS", 500), "generated scenarios per Kafka version (env CONNECTSCOPE_ASSIGNORDIFF_SCENARIOS)")
	flagSeed      = flag.Uint64("assignordiff.seed", uint64(envInt("CONNECTSCOPE_ASSIGNORDIFF_SEED", 20261201)), "seed of the generated scenarios (env CONNECTSCOPE_ASSIGNORDIFF_SEED)")
	flagVersions  = flag.String("assignordiff.versions", os.Getenv("CONNECTSCOPE_ASSIGNORDIFF_VERSIONS"), "comma-separated Kafka versions (default: versions.txt; env CONNECTSCOPE_ASSIGNORDIFF_VERSIONS)")
)

// jdk21Versions are the releases also replayed on a JDK 21+ JVM, compared
// with --jdk 21 (HashSet sizing, assignor.md §6.2): the newest 3.9 and 4.x by
// default (each run costs a JVM), more with
// CONNECTSCOPE_ASSIGNORDIFF_JDK21=4.0.2,4.1.2,...
var jdk21Versions = strings.Split(cmp.Or(os.Getenv("CONNECTSCOPE_ASSIGNORDIFF_JDK21"), "3.9.2,4.4.0"), ",")

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// TestAssignorAgainstKafka replays the public vectors' scenarios, the profile
// regression scenarios and generated scenarios through the real assignors of
// every Kafka version in versions.txt and through `plan replay
// --kafka-version V`, and requires identical output: rounds, generations,
// times, delays, and every worker's assigned, revoked and owned pieces.
func TestAssignorAgainstKafka(t *testing.T) {
	java, javac, mvn := toolchain(t)
	versions := readVersions(t)
	if *flagVersions != "" {
		versions = strings.Split(*flagVersions, ",")
	}
	in := t.TempDir()
	names := writeScenarios(t, in)
	t.Logf("%d scenarios per version (%d generated, seed %d)", len(names), *flagGenerated, *flagSeed)

	failDir := ""
	saveFailure := func(version, jdk, name string, scenario, kafka, ours []byte) string {
		if failDir == "" {
			d, err := os.MkdirTemp("", "assignordiff-failures-")
			if err != nil {
				t.Fatalf("creating a directory for failing scenarios: %v", err)
			}
			failDir = d
		}
		base := filepath.Join(failDir, version+"-jdk"+jdk+"-"+name)
		_ = os.WriteFile(base+".scenario.json", scenario, 0o644)
		_ = os.WriteFile(base+".kafka.json", kafka, 0o644)
		_ = os.WriteFile(base+".connectscope.json", ours, 0o644)
		return base + ".scenario.json"
	}

	// The driver is compiled once, against the Jackson jars of the first version.
	firstJars, err := resolveJars(mvn, versions[0])
	if err != nil {
		t.Fatal(err)
	}
	driver := buildDriver(t, javac, firstJars)

	// One JVM at a time runs the driver (a goroutine working ahead by one run)
	// while this goroutine compares the previous run's outputs with ours.
	java21 := newerJava()
	type driverRun struct {
		version, jdk, out string
		took              time.Duration
		err               error
	}
	var jobs []driverRun
	for _, v := range versions {
		jobs = append(jobs, driverRun{version: v, jdk: "17"})
		if slices.Contains(jdk21Versions, v) {
			if java21 == "" && os.Getenv("CI") == "true" {
				t.Fatalf("no JDK 21+ for the --jdk 21 runs of Kafka %s: set CONNECTSCOPE_JAVA21 or install one under /usr/lib/jvm", v)
			}
			if java21 == "" {
				t.Logf("no JDK 21+ found (set CONNECTSCOPE_JAVA21): Kafka %s replayed on the default JDK only", v)
				continue
			}
			jobs = append(jobs, driverRun{version: v, jdk: "21"})
		}
	}
	outRoot := t.TempDir()
	done := make(chan driverRun, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i, j := range jobs {
			start := time.Now()
			j.out = filepath.Join(outRoot, fmt.Sprintf("%02d-%s-jdk%s", i, j.version, j.jdk))
			jars, err := resolveJars(mvn, j.version)
			if err == nil {
				bin := java
				if j.jdk == "21" {
					bin = java21
				}
				err = runDriver(bin, driver, jars, in, j.out)
			}
			j.took, j.err = time.Since(start), err
			select {
			case done <- j:
			case <-stop:
				return
			}
		}
	}()

	for range jobs {
		j := <-done
		t.Run(j.version+"/jdk"+j.jdk, func(t *testing.T) {
			if j.err != nil {
				t.Fatal(j.err)
			}
			if err := checkDriverRan(j.out, j.version, j.jdk); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			bad := 0
			report := func(format string, args ...any) {
				bad++
				if bad <= 5 {
					t.Errorf(format, args...)
				}
			}
			for i, name := range names {
				scenarioFile := filepath.Join(in, name+".json")
				kafka, err := os.ReadFile(filepath.Join(j.out, name+".json"))
				if err != nil {
					trace, _ := os.ReadFile(filepath.Join(j.out, name+".json.error"))
					report("Kafka %s (JDK %s), scenario %s: the driver failed:\n%s", j.version, j.jdk, name, firstLines(trace, 12))
					continue
				}
				ours, err := replayAPI(scenarioFile, j.version, j.jdk)
				if err != nil {
					report("Kafka %s, scenario %s: replaying with connectscope: %v", j.version, name, err)
					continue
				}
				if i == 0 {
					cli, stderr, err := replayOurs(scenarioFile, j.version, j.jdk)
					switch {
					case err != nil:
						report("Kafka %s, scenario %s: connectscope plan replay: %v\n%s", j.version, name, err, stderr)
					case len(stderr) > 0:
						report("Kafka %s, scenario %s: connectscope plan replay warned for a verified version: %s", j.version, name, stderr)
					case !bytes.Equal(cli, ours):
						report("Kafka %s, scenario %s: plan replay -o json printed something else than plan.Replay's JSON", j.version, name)
					}
				}
				if bytes.Equal(kafka, ours) {
					continue
				}
				if diff := firstDifference(kafka, ours); diff != "" {
					sc, _ := os.ReadFile(scenarioFile)
					path := saveFailure(j.version, j.jdk, name, sc, kafka, ours)
					report("Kafka %s (driver on JDK %s, --jdk %s), scenario %s: %s\n  scenario saved to %s", j.version, j.jdk, j.jdk, name, diff, path)
				}
			}
			if bad > 5 {
				t.Errorf("Kafka %s (JDK %s): %d of %d scenarios disagree (first 5 shown)", j.version, j.jdk, bad, len(names))
			}
			t.Logf("Kafka %s JDK %s: %d scenarios, %d agree (driver %s, comparison %s)", j.version, j.jdk, len(names), len(names)-bad, j.took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		})
	}
}

// checkDriverRan reads what the driver says it ran (.driver in its output)
// and fails when the jars were not the version's or the JVM does not follow
// the JDK rule the comparison assumes (assignor.md §6.2: JDK 18 and older
// size copied HashSets as JDK 17 does, 19 and newer as JDK 21 does).
func checkDriverRan(out, version, jdk string) error {
	b, err := os.ReadFile(filepath.Join(out, ".driver"))
	if err != nil {
		return fmt.Errorf("the driver did not say what it ran: %w", err)
	}
	props := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			props[k] = v
		}
	}
	if props["kafka"] != version {
		return fmt.Errorf("the driver ran Kafka %q's classes, not %s's: clear the jar cache of %s", props["kafka"], version, version)
	}
	javaVersion, err := strconv.Atoi(props["java"])
	if err != nil {
		return fmt.Errorf("the driver's JVM reports Java %q", props["java"])
	}
	if (javaVersion >= 19) != (jdk == "21") {
		return fmt.Errorf("the driver ran on Java %d, which does not size HashSets as JDK %s does: put a JDK 17 first on PATH (and a 21+ in CONNECTSCOPE_JAVA21)", javaVersion, jdk)
	}
	return nil
}

// writeScenarios writes every scenario the suite replays into dir as
// NAME.json and returns the names: the public vectors (public-*), the
// profile regression scenarios of plan/testdata (regression-*) and the
// generated ones (gen-*).
func writeScenarios(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	add := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	vecDir := vectors.Dir(t, "assignor/public")
	public, err := filepath.Glob(filepath.Join(vecDir, "*.scenario.json"))
	if err != nil || len(public) == 0 {
		t.Fatalf("no public assignor vectors in %s (err %v): the shared vectors must sit beside the repository", vecDir, err)
	}
	regressionDir := filepath.Join("..", "..", "plan", "scenario", "testdata", "kafka-versions")
	regression, err := filepath.Glob(filepath.Join(regressionDir, "*.scenario.json"))
	if err != nil || len(regression) == 0 {
		t.Fatalf("no profile regression scenarios in %s (err %v)", regressionDir, err)
	}
	for prefix, files := range map[string][]string{"public-": public, "regression-": regression} {
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			add(prefix+strings.TrimSuffix(filepath.Base(f), ".scenario.json"), b)
		}
	}
	for name, b := range generate(*flagSeed, *flagGenerated) {
		add(name, b)
	}
	sort.Strings(names)
	return names
}

// replayOurs runs `connectscope plan replay FILE -o json --kafka-version V
// --jdk J` in process, through the CLI.
func replayOurs(file, version, jdk string) (stdout, stderr []byte, err error) {
	var out, errb bytes.Buffer
	code := commands.Main([]string{"connectscope", "plan", "replay", file, "-o", "json", "--kafka-version", version, "--jdk", jdk},
		commands.Streams{In: strings.NewReader(""), Out: &out, Err: &errb}, commands.BuildInfo{})
	if code != 0 {
		return out.Bytes(), errb.Bytes(), fmt.Errorf("exit code %d", code)
	}
	return out.Bytes(), errb.Bytes(), nil
}

// replayAPI is what replayOurs prints, through the plan package directly:
// the CLI's flag handling costs more than the replay itself, and the suite
// replays tens of thousands of scenarios. (Each version's first scenario also
// goes through the CLI, which must print the same.)
func replayAPI(file, version, jdk string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	sc, err := planscenario.ParseScenario(data)
	if err != nil {
		return nil, err
	}
	j, err := strconv.Atoi(jdk)
	if err != nil {
		return nil, err
	}
	v, err := kafkaversion.Parse(version)
	if err != nil {
		return nil, err
	}
	res, err := planscenario.Replay(sc, planscenario.ReplayOptions{KafkaVersion: v, JDK: j})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := res.WriteJSON(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

type replayDoc struct {
	Name   string `json:"name"`
	Rounds []struct {
		Step       int                        `json:"step"`
		Generation int                        `json:"generation"`
		TimeMs     int64                      `json:"time_ms"`
		Workers    map[string]json.RawMessage `json:"workers"`
	} `json:"rounds"`
	Final map[string]json.RawMessage `json:"final"`
}

// firstDifference describes the first place where two -o json outputs
// differ (round, worker, field), or returns "" when they are equal.
func firstDifference(kafka, ours []byte) string {
	var k, o replayDoc
	if err := json.Unmarshal(kafka, &k); err != nil {
		return "the driver's output is not JSON: " + err.Error()
	}
	if err := json.Unmarshal(ours, &o); err != nil {
		return "connectscope's output is not JSON: " + err.Error()
	}
	for i := 0; i < min(len(k.Rounds), len(o.Rounds)); i++ {
		kr, or := k.Rounds[i], o.Rounds[i]
		where := fmt.Sprintf("round %d (step %d, generation %d, %d ms)", i, kr.Step, kr.Generation, kr.TimeMs)
		if kr.Step != or.Step || kr.Generation != or.Generation || kr.TimeMs != or.TimeMs {
			return fmt.Sprintf("%s: connectscope has step %d, generation %d, %d ms", where, or.Step, or.Generation, or.TimeMs)
		}
		if d := workersDiff(kr.Workers, or.Workers); d != "" {
			return where + ": " + d
		}
	}
	if len(k.Rounds) != len(o.Rounds) {
		return fmt.Sprintf("Kafka ran %d rounds, connectscope %d", len(k.Rounds), len(o.Rounds))
	}
	if d := workersDiff(k.Final, o.Final); d != "" {
		return "final: " + d
	}
	if k.Name != o.Name {
		return fmt.Sprintf("name %q vs %q", k.Name, o.Name)
	}
	return ""
}

func workersDiff(k, o map[string]json.RawMessage) string {
	var ids []string
	for id := range k {
		ids = append(ids, id)
	}
	for id := range o {
		if _, ok := k[id]; !ok {
			return fmt.Sprintf("worker %s only in connectscope's output", id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		ob, ok := o[id]
		if !ok {
			return fmt.Sprintf("worker %s missing from connectscope's output", id)
		}
		var kw, ow map[string]any
		if err := json.Unmarshal(k[id], &kw); err != nil {
			return fmt.Sprintf("worker %s: %v", id, err)
		}
		if err := json.Unmarshal(ob, &ow); err != nil {
			return fmt.Sprintf("worker %s: %v", id, err)
		}
		var fields []string
		for f := range kw {
			fields = append(fields, f)
		}
		for f := range ow {
			if _, ok := kw[f]; !ok {
				fields = append(fields, f)
			}
		}
		sort.Strings(fields)
		for _, f := range fields {
			if !reflect.DeepEqual(kw[f], ow[f]) {
				return fmt.Sprintf("worker %s, %s: Kafka %s, connectscope %s", id, f, compact(kw[f]), compact(ow[f]))
			}
		}
	}
	return ""
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
