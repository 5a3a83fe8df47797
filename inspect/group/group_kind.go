package group

import (
	"fmt"

	"github.com/connectscope/connectscope/inspect"
)

// otherGroupNote explains, in the members view, what holds the group id.
func otherGroupNote(group string, o *inspect.OtherGroup) string {
	if !o.BlocksConnect() {
		return fmt.Sprintf("no Connect group: %q is held by an empty %s group, which the first Connect worker to join turns into a classic group", group, o.Type)
	}
	return fmt.Sprintf("no Connect group: %q is held by a %s group (state %s), which Connect workers cannot join (INCONSISTENT_GROUP_PROTOCOL; see check rule K17)", group, o.Type, o.State)
}
