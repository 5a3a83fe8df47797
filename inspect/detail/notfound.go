package detail

import (
	"fmt"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/views"
)

// NotFoundError is a connector the input knows nothing of, or a worker
// name neither the group nor a status record knows.
type NotFoundError struct {
	Kind  string // "connector" or "worker"
	Name  string
	Known []string // the names of that kind the input does know, sorted
}

// Is makes the error a views.ErrNotFound.
func (e *NotFoundError) Is(target error) bool { return target == views.ErrNotFound }

func (e *NotFoundError) Error() string {
	if len(e.Known) == 0 {
		// A connector is held (configs, statuses, offsets); a worker only named.
		verb := "holds"
		if e.Kind == "worker" {
			verb = "names"
		}
		return fmt.Sprintf("%s %q not found: the input %s no %s", e.Kind, e.Name, verb, e.Kind)
	}
	return fmt.Sprintf("%s %q not found: known %ss are %s", e.Kind, e.Name, e.Kind, format.List(e.Known))
}
