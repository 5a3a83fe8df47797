package workers

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// Use is one plugin class a connector's config names.
type Use struct {
	Connector string  `json:"connector"`
	Key       string  `json:"key"`  // the config key naming the class: connector.class, transforms.X.type, …
	Kind      string  `json:"kind"` // connector, converter, header_converter, transformation, predicate
	Class     string  `json:"class"`
	Pin       *string `json:"pin"`     // the *.plugin.version requirement (KIP-891); null when none
	PinKey    *string `json:"pin_key"` // the key holding it
}

// Uses lists the plugin classes a connector config names: the connector,
// its key, value and header converters, and the types of its transforms
// and predicates (only the aliases listed in transforms/predicates, as
// Connect reads them), each with its KIP-891 version pin.
func Uses(connector string, cfg map[string]string) []Use {
	var out []Use
	add := func(key, kind, pinKey string) {
		class := strings.TrimSpace(cfg[key])
		if class == "" {
			return
		}
		u := Use{Connector: connector, Key: key, Kind: kind, Class: class}
		if pin, ok := cfg[pinKey]; ok && strings.TrimSpace(pin) != "" && strings.TrimSpace(pin) != "latest" {
			p, k := strings.TrimSpace(pin), pinKey
			u.Pin, u.PinKey = &p, &k
		}
		out = append(out, u)
	}
	add("connector.class", "connector", "connector.plugin.version")
	add("key.converter", "converter", "key.converter.plugin.version")
	add("value.converter", "converter", "value.converter.plugin.version")
	add("header.converter", "header_converter", "header.converter.plugin.version")
	for _, a := range workerconfig.List(cfg["transforms"]) {
		add("transforms."+a+".type", "transformation", "transforms."+a+".plugin.version")
	}
	for _, a := range workerconfig.List(cfg["predicates"]) {
		add("predicates."+a+".type", "predicate", "predicates."+a+".plugin.version")
	}
	return out
}

// Resolves reports whether a worker's plugin answers to a configured class
// name: the full class name, its simple name, or for connectors the simple
// name without "Connector" (Connect's aliases).
func Resolves(p rest.Plugin, class string) bool {
	if p.Class == class {
		return true
	}
	if strings.Contains(class, ".") {
		return false
	}
	simple := p.Class[strings.LastIndexByte(p.Class, '.')+1:]
	if simple == class {
		return true
	}
	return (p.Type == "source" || p.Type == "sink") && strings.TrimSuffix(simple, "Connector") == class
}

// Matrix is the plugin view: worker × plugin × version, and the gaps.
type Matrix struct {
	Workers []string `json:"workers"` // workers whose plugin list is known, sorted
	// Unknown lists workers whose plugins could not be read, with why; no
	// gap is claimed for them.
	Unknown []UnknownWorker `json:"unknown"`
	Plugins []MatrixRow     `json:"plugins"`
	Uses    []Use           `json:"uses"`
	Gaps    []Gap           `json:"gaps"`
}

// UnknownWorker is a worker left out of the matrix.
type UnknownWorker struct {
	Worker string `json:"worker"`
	Reason string `json:"reason"`
}

// MatrixRow is one plugin class across the workers.
type MatrixRow struct {
	Class string `json:"class"`
	Type  string `json:"type"`
	// Versions maps each known worker to the versions it has of the class
	// ("" for a plugin without a version); a worker missing from the map
	// lacks the class.
	Versions map[string][]string `json:"versions"`
	Missing  []string            `json:"missing"` // known workers without it
	UsedBy   []string            `json:"used_by"` // connectors whose config names it
}

// Gap is a class or pin a connector needs that one worker cannot give.
type Gap struct {
	Use
	Worker string   `json:"worker"`
	Reason string   `json:"reason"` // missing class, or no version within the pin
	Has    []string `json:"has"`    // the versions the worker has of the class
	// Now lists the pieces of the connector the worker holds now (they
	// cannot run there); CouldLand those it does not hold, any of which the
	// assignor may give it at the next rebalance: Connect's assignors place
	// connectors and tasks by count only, never by installed plugins.
	Now       []string `json:"now"`
	CouldLand []string `json:"could_land"`
}

// AskPlugins asks every member of the group for its plugins and builds the
// plugin matrix against the config topic's connectors.
func AskPlugins(ctx context.Context, c *rest.Client, members *group.MembersResult, configs *store.ConfigsResult) *Matrix {
	targets, _ := Targets(members)
	return BuildMatrix(c.Workers(ctx, targets, rest.Calls{Plugins: true}), configs, members)
}

// BuildMatrix compares the plugins each worker answered with the classes
// and pins the config topic uses. owned maps worker → the pieces it holds
// (from the group); configs may be nil (no gaps then).
func BuildMatrix(infos []rest.WorkerInfo, configs *store.ConfigsResult, members *group.MembersResult) *Matrix {
	m := &Matrix{Workers: []string{}, Unknown: []UnknownWorker{}, Plugins: []MatrixRow{}, Uses: []Use{}, Gaps: []Gap{}}
	known := map[string][]rest.Plugin{}
	for _, w := range infos {
		if w.Plugins == nil {
			reason := "plugins not read"
			if w.Error != nil {
				reason = *w.Error
			}
			m.Unknown = append(m.Unknown, UnknownWorker{Worker: w.Worker, Reason: reason})
			continue
		}
		if _, dup := known[w.Worker]; !dup {
			m.Workers = append(m.Workers, w.Worker)
		}
		known[w.Worker] = w.Plugins
	}
	sort.Strings(m.Workers)
	sort.Slice(m.Unknown, func(i, j int) bool { return m.Unknown[i].Worker < m.Unknown[j].Worker })

	rows := map[string]*MatrixRow{}
	for _, w := range m.Workers {
		for _, p := range known[w] {
			r := rows[p.Class]
			if r == nil {
				r = &MatrixRow{Class: p.Class, Type: p.Type, Versions: map[string][]string{}, Missing: []string{}, UsedBy: []string{}}
				rows[p.Class] = r
			}
			r.Versions[w] = append(r.Versions[w], p.Version)
		}
	}

	pieces, owned := piecesOf(configs), ownedBy(members)
	if configs != nil {
		for _, c := range configs.Connectors {
			for _, u := range Uses(c.Name, store.ConfigStrings(c.Config)) {
				m.Uses = append(m.Uses, u)
				for _, r := range rows {
					if Resolves(rest.Plugin{Class: r.Class, Type: r.Type}, u.Class) && !contains(r.UsedBy, c.Name) {
						r.UsedBy = append(r.UsedBy, c.Name)
					}
				}
				for _, w := range m.Workers {
					if g, bad := gapOn(u, w, known[w]); bad {
						g.Now, g.CouldLand = split(pieces[c.Name], owned[w])
						m.Gaps = append(m.Gaps, g)
					}
				}
			}
		}
	}
	for _, r := range rows {
		for _, w := range m.Workers {
			if _, ok := r.Versions[w]; !ok {
				r.Missing = append(r.Missing, w)
			}
		}
		sort.Strings(r.UsedBy)
		m.Plugins = append(m.Plugins, *r)
	}
	sort.Slice(m.Plugins, func(i, j int) bool { return m.Plugins[i].Class < m.Plugins[j].Class })
	sort.SliceStable(m.Gaps, func(i, j int) bool {
		a, b := m.Gaps[i], m.Gaps[j]
		if a.Connector != b.Connector {
			return a.Connector < b.Connector
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Worker < b.Worker
	})
	return m
}

// gapOn checks one use against one worker's plugins.
func gapOn(u Use, worker string, plugins []rest.Plugin) (Gap, bool) {
	g := Gap{Use: u, Worker: worker, Has: []string{}}
	for _, p := range plugins {
		if Resolves(p, u.Class) {
			g.Has = append(g.Has, p.Version)
		}
	}
	sort.Strings(g.Has)
	if len(g.Has) == 0 {
		g.Reason = fmt.Sprintf("%s has no %s %s", worker, u.Kind, u.Class)
		return g, true
	}
	if u.Pin == nil {
		return g, false
	}
	pin, ok, err := ParsePin(*u.Pin)
	if err != nil {
		g.Reason = fmt.Sprintf("%s=%s: %v", *u.PinKey, *u.Pin, err)
		return g, true
	}
	if !ok {
		return g, false
	}
	for _, v := range g.Has {
		if pin.Allows(v) {
			return g, false
		}
	}
	g.Reason = fmt.Sprintf("%s has %s %s only at %s, outside %s=%s", worker, u.Kind, u.Class, versionList(g.Has), *u.PinKey, *u.Pin)
	return g, true
}

func versionList(vs []string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		if v == "" {
			v = "(no version)"
		}
		out[i] = v
	}
	return strings.Join(out, ", ")
}

// piecesOf lists each connector's pieces: its name and its task ids.
func piecesOf(configs *store.ConfigsResult) map[string][]string {
	out := map[string][]string{}
	if configs == nil {
		return out
	}
	for _, c := range configs.Connectors {
		ps := []string{c.Name}
		for _, t := range c.Tasks {
			ps = append(ps, t.ID)
		}
		out[c.Name] = ps
	}
	return out
}

// ownedBy maps each worker (HOST:PORT) to the pieces it holds.
func ownedBy(members *group.MembersResult) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	if members == nil {
		return out
	}
	for _, mv := range members.Members {
		set := map[string]bool{}
		if mv.Owned != nil {
			for _, c := range mv.Owned.Connectors {
				set[c] = true
			}
			for _, t := range mv.Owned.Tasks {
				set[t] = true
			}
		}
		out[group.WorkerID(mv)] = set
	}
	return out
}

func split(pieces []string, held map[string]bool) (now, could []string) {
	now, could = []string{}, []string{}
	for _, p := range pieces {
		if held[p] {
			now = append(now, p)
		} else {
			could = append(could, p)
		}
	}
	return now, could
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
