package scenario

import (
	"errors"
	"fmt"

	"github.com/connectscope/connectscope/inspect/source/jsonfile"
)

// strictJSON refuses what encoding/json would pass over in a JSON scenario
// (jsonfile.Check): a key given twice (the plan would take the last) and a
// second scenario after the first. Both are steps or settings the author
// wrote that the plan would lack, as YAML scenarios refuse them.
func strictJSON(data []byte) error {
	err := jsonfile.Check(data)
	var dup *jsonfile.DuplicateKeyError
	var trailing *jsonfile.TrailingError
	switch {
	case errors.As(err, &dup):
		return &ScenarioError{Step: -1, Msg: fmt.Sprintf("%s: key %q given twice (the plan would take the last): give it once", dup.Place, dup.Key)}
	case errors.As(err, &trailing):
		return &ScenarioError{Step: -1, Msg: fmt.Sprintf("more after the scenario's object (byte %d): give one scenario per file", trailing.Offset)}
	}
	return err
}
