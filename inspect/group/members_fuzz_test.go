package group

import (
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/internal/vectors"
)

// FuzzMembers: any member bytes give a view, never a panic, and a member
// whose bytes decode has no problem.
func FuzzMembers(f *testing.F) {
	for _, b := range vectors.ProtocolSeeds(f, "metadata") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, meta []byte) {
		// The same bytes serve as metadata of one member and assignment of another.
		for _, groupProtocol := range []string{"sessioned", "default", ""} {
			desc := &inspect.GroupDescription{Group: "g", State: "Stable", ProtocolType: "connect", Protocol: groupProtocol,
				Members: []inspect.GroupMember{{MemberID: "a", Metadata: meta, Assignment: meta}, {MemberID: "b", Assignment: meta}}}
			res := Members(desc)
			if len(res.Members) != 2 {
				t.Fatalf("members = %+v", res.Members)
			}
			_, merr := protocol.DecodeMetadata(meta)
			if (merr == nil || len(meta) == 0) && res.Members[0].MetadataBase64 != nil {
				t.Fatalf("decodable metadata shown raw: %+v", res.Members[0])
			}
			_ = res.Tables()
		}
	})
}
