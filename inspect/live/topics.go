package live

import (
	"context"
	"errors"
	"sort"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// topicLayout is the metadata of the three internal topics.
type topicLayout struct {
	order   []string // config, offsets, status
	details kadm.TopicDetails
	brokers kadm.BrokerDetails
	missing map[string]bool // topics that do not exist and whose records were not asked for
}

// present lists the topics of order that exist, without repeats.
func (l *topicLayout) present() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range l.order {
		if !l.missing[t] && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func (r *reader) topicLayout(ctx context.Context) (*topicLayout, error) {
	t := r.opts.Topics
	l := &topicLayout{order: []string{t.Config, t.Offset, t.Status}, missing: map[string]bool{}}
	err := r.op(ctx, "reading cluster metadata", func(ctx context.Context) error {
		md, err := r.adm.Metadata(ctx, l.order...)
		if err != nil {
			return err
		}
		l.details, l.brokers = md.Topics, md.Brokers
		return nil
	})
	if err != nil {
		return nil, err
	}
	settings := map[string]setting.Setting{t.Config: setting.ConfigTopic, t.Offset: setting.OffsetTopic, t.Status: setting.StatusTopic}
	for _, name := range l.order {
		d, ok := l.details[name]
		switch {
		case (!ok || errors.Is(d.Err, kerr.UnknownTopicOrPartition)) && !r.opts.reads(name):
			l.missing[name] = true // a view that does not show it can do without it
		case !ok || errors.Is(d.Err, kerr.UnknownTopicOrPartition):
			return nil, &Error{What: "reading topic " + name, Err: errors.New("the topic does not exist on this cluster"),
				Hint: setting.Textf("check %v (or the *.storage.topic settings in %v) and %v points at the Connect cluster's Kafka", settings[name], setting.WorkerConfig, setting.BootstrapServers)}
		case d.Err != nil:
			return nil, explain("reading metadata of topic "+name, d.Err, r.opts.Conn, r.watch)
		case len(d.Partitions) == 0:
			return nil, &Error{What: "reading topic " + name, Err: errors.New("the topic has no partitions"), Hint: setting.Textf("check the cluster")}
		}
	}
	return l, nil
}

// descriptions describes the topics' shape; configs are added later.
func (l *topicLayout) descriptions() []inspect.TopicDescription {
	out := make([]inspect.TopicDescription, 0, len(l.order))
	for _, name := range l.order {
		if l.missing[name] {
			out = append(out, inspect.TopicDescription{Name: name, Exists: false})
			continue
		}
		d := l.details[name]
		rf := 0
		for _, p := range d.Partitions {
			rf = max(rf, len(p.Replicas))
		}
		out = append(out, inspect.TopicDescription{Name: name, Exists: true, Partitions: len(d.Partitions), ReplicationFactor: rf})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return dedupeDescriptions(out)
}

// dedupeDescriptions drops repeats: one topic may serve two roles in a
// misconfigured cluster, which the checks want to see once.
func dedupeDescriptions(in []inspect.TopicDescription) []inspect.TopicDescription {
	out := in[:0]
	for i, d := range in {
		if i > 0 && in[i-1].Name == d.Name {
			continue
		}
		out = append(out, d)
	}
	return out
}

func (r *reader) describeTopicConfigs(ctx context.Context, descs []inspect.TopicDescription) ([]inspect.TopicDescription, error) {
	var names []string
	for _, d := range descs {
		if d.Exists {
			names = append(names, d.Name)
		}
	}
	if len(names) == 0 {
		return descs, nil
	}
	var rcs kadm.ResourceConfigs
	err := r.op(ctx, "describing the internal topics' configs", func(ctx context.Context) error {
		var err error
		rcs, err = r.adm.DescribeTopicConfigs(ctx, names...)
		return err
	})
	if isAuthError(err) { // configs are extra detail; missing rights must not block the read
		return descs, nil
	}
	if err != nil {
		return nil, err
	}
	for i := range descs {
		rc, err := rcs.On(descs[i].Name, nil)
		if err != nil || rc.Err != nil {
			continue // not described: Configs stays nil, which the checks read as unknown
		}
		descs[i].Configs = configMap(rc.Configs)
	}
	return descs, nil
}

// brokerConfigs describes one broker's effective configuration (defaults
// included), for the checks that compare worker settings with the broker's.
func (r *reader) brokerConfigs(ctx context.Context, l *topicLayout) (map[string]string, error) {
	var ids []int32
	for _, b := range l.brokers {
		ids = append(ids, b.NodeID)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var rcs kadm.ResourceConfigs
	err := r.op(ctx, "describing broker configs", func(ctx context.Context) error {
		var err error
		rcs, err = r.adm.DescribeBrokerConfigs(ctx, ids[0])
		return err
	})
	if isAuthError(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, rc := range rcs {
		if rc.Err == nil {
			return configMap(rc.Configs), nil
		}
	}
	return nil, nil
}

func configMap(cs []kadm.Config) map[string]string {
	m := make(map[string]string, len(cs))
	for _, c := range cs {
		if c.Value != nil && !c.Sensitive {
			m[c.Key] = *c.Value
		}
	}
	return m
}

func isAuthError(err error) bool {
	return errors.Is(err, kerr.ClusterAuthorizationFailed) || errors.Is(err, kerr.TopicAuthorizationFailed) ||
		errors.Is(err, kerr.GroupAuthorizationFailed)
}
