package inspect

// Group types as ListGroups v5+ reports them (KIP-848, KIP-932, KIP-1071).
const (
	GroupTypeClassic  = "classic"
	GroupTypeConsumer = "consumer"
	GroupTypeShare    = "share"
	GroupTypeStreams  = "streams"
)

// OtherGroup is a group of a newer kind (a KIP-848 consumer group, a share
// or a streams group) that holds the Connect group.id. DescribeGroups only
// describes classic groups: from Kafka 3.8 it answers such an id as if no
// group existed (Dead; GROUP_ID_NOT_FOUND "is not a classic group" from v6),
// so only ListGroups tells the two apart.
type OtherGroup struct {
	Type         string `json:"type"`          // consumer, share or streams
	State        string `json:"state"`         // as ListGroups reports it (Empty, Stable, Assigning, …)
	ProtocolType string `json:"protocol_type"` // "consumer", "share", "streams" (or empty)
}

// BlocksConnect reports whether Connect workers joining this group id fail
// with INCONSISTENT_GROUP_PROTOCOL. The group coordinator (Kafka 3.8+)
// refuses a classic JoinGroup to a share group, and to a consumer or streams
// group that has members; an empty consumer or streams group is converted to
// a classic group by the first join.
func (o *OtherGroup) BlocksConnect() bool {
	if o == nil {
		return false
	}
	switch o.Type {
	case GroupTypeConsumer, GroupTypeStreams:
		return o.State != GroupEmpty && o.State != GroupDead
	case GroupTypeClassic, "":
		return false
	}
	return true // share, and any type newer than this code
}
