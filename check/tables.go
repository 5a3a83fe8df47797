package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
)

// findingsTable lists findings; -o wide adds title, applies-to and fix.
func findingsTable(list []Finding, s Summary) format.Table {
	t := format.Table{Title: "FINDINGS", Header: []string{"SEVERITY", "RULE", "SUBJECT", "MESSAGE", "TITLE", "APPLIES TO", "FIX"}, Wide: []int{4, 5, 6}, Key: []int{1, 2}, Wrap: []int{3, 4, 6}}
	for _, f := range list {
		if f.Waived != nil {
			continue // in the waived table
		}
		applies := "-"
		if f.AppliesTo != nil {
			applies = *f.AppliesTo
		}
		t.Rows = append(t.Rows, []string{string(f.Severity), f.Rule, f.Subject, f.Message, f.Title, applies, f.Fix})
	}
	waived := ""
	if s.Waived > 0 {
		waived = fmt.Sprintf(" (%d waived, listed below)", s.Waived)
	}
	t.Footer = []string{fmt.Sprintf("%d error, %d warn, %d info%s; `connectscope check explain RULE` tells why and how to fix", s.Error, s.Warn, s.Info, waived)}
	return t
}

// findingsTables are the findings table and, when some are waived, the
// table of waived findings with who waived them and why.
func findingsTables(list []Finding, s Summary) []format.Table {
	out := []format.Table{findingsTable(list, s)}
	if s.Waived == 0 {
		return out
	}
	w := format.Table{Title: "WAIVED FINDINGS (not counted)", Header: []string{"SEVERITY", "RULE", "SUBJECT", "MESSAGE", "WAIVED BY", "REASON", "EXPIRES"}}
	for _, f := range list {
		if f.Waived == nil {
			continue
		}
		w.Rows = append(w.Rows, []string{string(f.Severity), f.Rule, f.Subject, f.Message, f.Waived.By, orDash(f.Waived.Reason), format.TextOr(f.Waived.Expires, "-")})
	}
	return append(out, w)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func findingItems(list []Finding) []any { return format.Items(list) }

// Tables implements format.Tabler.
func (r *TimeoutsReport) Tables() []format.Table {
	var out []format.Table
	if len(r.Workers) > 0 {
		t := format.Table{Title: "EFFECTIVE WORKER SETTINGS (ms)", Header: []string{"SETTING"}}
		for _, w := range r.Workers {
			h := w.File
			if w.KafkaVersion != nil {
				h += " (" + *w.KafkaVersion + ")"
			}
			t.Header = append(t.Header, h)
		}
		for i, key := range timeoutKeys {
			row := []string{key}
			for _, w := range r.Workers {
				row = append(row, showSetting(w.Settings[i]))
			}
			t.Rows = append(t.Rows, row)
		}
		var broker []string
		for _, b := range r.Broker {
			broker = append(broker, b.Key+"="+showSetting(b))
		}
		t.Footer = []string{"broker: " + strings.Join(broker, ", ")}
		out = append(out, t)
	}
	return append(out, findingsTables(r.Findings, r.Summary)...)
}

// Items implements format.Lister: one finding per line.
func (r *TimeoutsReport) Items() []any { return findingItems(r.Findings) }

func showSetting(s SettingValue) string {
	switch {
	case s.Invalid:
		return "invalid"
	case s.Value == nil:
		return "-"
	case s.Default:
		return strconv.FormatInt(*s.Value, 10) + " (default)"
	}
	return strconv.FormatInt(*s.Value, 10)
}

// Tables implements format.Tabler.
func (r *UpgradeReport) Tables() []format.Table {
	group := "-"
	if r.GroupProtocol != nil {
		group = *r.GroupProtocol
	}
	held := strings.Join(r.HeldBackBy, ", ")
	if held == "" {
		held = "-"
	}
	summary := format.Table{Title: "PROTOCOL", Header: []string{"NOW", "GROUP SAYS", "TARGET", "AFTER PLAN", "HELD BACK BY"},
		Rows: [][]string{{r.ProtocolNow, group, r.Target, r.ProtocolFinal, held}}, Footer: []string{"why: " + r.Reason}}
	workers := format.Table{Title: "WORKERS", Header: []string{"WORKER", "KAFKA", "CONNECT.PROTOCOL", "OFFERS", "EXACTLY-ONCE", "MEMBER"}, Wide: []int{5}}
	for _, w := range r.Workers {
		workers.Rows = append(workers.Rows, []string{w.Worker, format.TextOr(w.KafkaVersion, "-"), format.TextOr(w.ConnectProtocol, "-"), strings.Join(w.Offers, ","), format.TextOr(w.ExactlyOnce, "-"), format.TextOr(w.MemberID, "-")})
	}
	plan := format.Table{Title: "ROLLING PLAN (one worker restart per step)", Header: []string{"STEP", "WORKER", "SETTING", "FROM", "TO", "KAFKA AT LEAST", "PROTOCOL AFTER", "EXACTLY-ONCE AFTER", "NOTE"}, Key: []int{0, 1}, Wrap: []int{8}}
	for _, s := range r.Steps {
		plan.Rows = append(plan.Rows, []string{strconv.Itoa(s.Step), s.Worker, s.Setting, s.From, s.To, format.TextOr(s.KafkaAtLeast, "-"), s.ProtocolAfter, s.ExactlyOnceAfter, format.TextOr(s.Note, "-")})
	}
	if len(r.Steps) == 0 {
		plan.Footer = []string{"nothing to change"}
	}
	tables := []format.Table{summary, workers, plan}
	if r.To != nil {
		rw := format.Table{Title: "WORKERS ASKED (REST) for " + *r.To, Header: []string{"WORKER", "KAFKA", "HEALTH", "PLUGINS", "ERROR"}, Rows: [][]string{}}
		for _, w := range r.RESTWorkers {
			plugins := "-"
			if w.Plugins != nil {
				plugins = strconv.Itoa(*w.Plugins)
			}
			rw.Rows = append(rw.Rows, []string{w.Worker, format.TextOr(w.Version, "-"), format.TextOr(w.Health, "-"), plugins, format.TextOr(w.Error, "-")})
		}
		tables = append(tables, rw)
	}
	return append(tables, findingsTables(r.Findings, r.Summary)...)
}

// Items implements format.Lister.
func (r *UpgradeReport) Items() []any { return findingItems(r.Findings) }

// Tables implements format.Tabler.
func (r *TopicsReport) Tables() []format.Table {
	t := format.Table{Title: "INTERNAL TOPICS", Header: []string{"ROLE", "TOPIC", "EXISTS", "PARTITIONS", "RF", "CLEANUP.POLICY", "MIN.ISR"}, Key: []int{0, 1}}
	for _, v := range r.Topics {
		t.Rows = append(t.Rows, []string{v.Role, v.Name, boolOr(v.Exists), intOr(v.Partitions), intOr(v.ReplicationFactor), format.TextOr(v.CleanupPolicy, "-"), format.TextOr(v.MinInsyncReplicas, "-")})
	}
	return append([]format.Table{t}, findingsTables(r.Findings, r.Summary)...)
}

// Items implements format.Lister.
func (r *TopicsReport) Items() []any { return findingItems(r.Findings) }

// Tables implements format.Tabler.
func (r *BalanceReport) Tables() []format.Table {
	t := format.Table{Title: "LOAD PER WORKER", Header: []string{"WORKER", "ZONE", "CONNECTORS", "TASKS", "ASSIGNOR CONNECTORS", "ASSIGNOR TASKS"}}
	for _, w := range r.Workers {
		t.Rows = append(t.Rows, []string{w.Worker, format.TextOr(w.Zone, "-"), strconv.Itoa(w.Connectors), strconv.Itoa(w.Tasks), intOr(w.ExpectedConnectors), intOr(w.ExpectedTasks)})
	}
	return append([]format.Table{t}, findingsTables(r.Findings, r.Summary)...)
}

// Items implements format.Lister.
func (r *BalanceReport) Items() []any { return findingItems(r.Findings) }

// Tables implements format.Tabler.
func (r *AllReport) Tables() []format.Table {
	t := format.Table{Title: "CHECKS", Header: []string{"CHECK", "RAN", "WHY NOT"}, Wrap: []int{2}}
	for _, c := range r.Checks {
		t.Rows = append(t.Rows, []string{c.Check, strconv.FormatBool(c.Ran), format.TextOr(c.Reason, "-")})
	}
	t.Footer = r.Notes
	out := []format.Table{t}
	if r.Upgrade != nil && len(r.Upgrade.Steps) > 0 {
		out = append(out, r.Upgrade.Tables()[2])
	}
	return append(out, findingsTables(r.Findings, r.Summary)...)
}

// Items implements format.Lister.
func (r *AllReport) Items() []any { return findingItems(r.Findings) }

// Catalogue is the result of `check rules`.
type Catalogue struct {
	Rules []Rule `json:"rules"`
}

// Tables implements format.Tabler.
func (c *Catalogue) Tables() []format.Table {
	t := format.Table{Title: "RULES", Header: []string{"ID", "SEVERITY", "CHECK", "ENFORCED BY", "TITLE", "APPLIES TO", "WHY", "FIX"}, Wide: []int{5, 6, 7}, Wrap: []int{4, 6, 7}}
	for _, r := range c.Rules {
		t.Rows = append(t.Rows, []string{r.ID, string(r.Severity), r.Check, r.Enforced, r.Title, format.TextOr(r.AppliesTo, "-"), r.Why, r.Fix})
	}
	t.Footer = []string{fmt.Sprintf("%d rules; -o wide adds why and fix; `connectscope check explain ID` shows one", len(c.Rules))}
	return []format.Table{t}
}

// Items implements format.Lister.
func (c *Catalogue) Items() []any { return format.Items(c.Rules) }

// Explanation is the result of `check explain ID`.
type Explanation struct {
	Rule
}

// Tables implements format.Tabler.
func (e *Explanation) Tables() []format.Table {
	t := format.Table{Title: "RULE " + e.ID, Header: []string{"FIELD", "VALUE"}, Wrap: []int{1}, Rows: [][]string{
		{"id", e.ID}, {"severity", string(e.Severity)}, {"check", e.Check}, {"enforced by", e.Enforced},
		{"title", e.Title}, {"applies to", format.TextOr(e.AppliesTo, "-")}, {"why", e.Why}, {"fix", e.Fix},
	}}
	return []format.Table{t}
}

func intOr(n *int) string {
	if n == nil {
		return "-"
	}
	return strconv.Itoa(*n)
}

func boolOr(b *bool) string {
	if b == nil {
		return "-"
	}
	return strconv.FormatBool(*b)
}

// CatalogueMarkdown renders the catalogue as the Markdown page check/RULES.md.
func CatalogueMarkdown() string {
	var b strings.Builder
	b.WriteString("# connectscope check rules\n\n")
	b.WriteString("Generated from the catalogue in `check/rules.go` (`go test ./check -run TestRulesDoc -update`);\n")
	b.WriteString("`connectscope check rules` prints the same list, `connectscope check explain ID` one rule.\n\n")
	b.WriteString("Series: **T** group membership and timing, **D** scheduled delay and backoff, **S** shutdown and offsets,\n")
	b.WriteString("**P** protocol readiness, **K** topics and identity (numbers 1–9 as in the Kafka settings audit of\n")
	b.WriteString("configs.md §6; higher numbers are connectscope's additions), **B** balance, headroom and zombies,\n")
	b.WriteString("**W** waivers, **U** upgrading to a Kafka release (`check upgrade --to`).\n")
	b.WriteString("*Enforced by kafka*: Kafka itself fails; *audit*: only connectscope checks it.\n\n")
	b.WriteString("| ID | Severity | Check | Enforced by | Rule | Applies to |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range Rules() {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s | %s | %s |\n", r.ID, strings.ToLower(r.ID), r.Severity, r.Check, r.Enforced, mdEscape(r.Title), mdEscape(format.TextOr(r.AppliesTo, "-")))
	}
	for _, r := range Rules() {
		fmt.Fprintf(&b, "\n## %s\n\n**%s** (%s, `check %s`, enforced by %s)", r.ID, mdEscape(r.Title), r.Severity, r.Check, r.Enforced)
		if r.AppliesTo != nil {
			fmt.Fprintf(&b, "; applies to Kafka %s", mdEscape(*r.AppliesTo))
		}
		fmt.Fprintf(&b, "\n\n*Why:* %s\n\n*Fix:* %s\n", mdEscape(r.Why), mdEscape(r.Fix))
	}
	return b.String()
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
