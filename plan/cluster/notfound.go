package cluster

// NotFoundError is a worker or connector asked for by name that the cluster
// state does not hold. Its own type lets the commands tell it apart from a
// malformed request (kubectl's NotFound, not a usage error).
type NotFoundError struct {
	Msg string
}

func (e *NotFoundError) Error() string { return e.Msg }
