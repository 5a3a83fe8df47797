// Package golden holds the one -update flag of the tests that keep golden
// files: `go test ./format ./commands ./check ./inspect/store
// ./inspect/source -update` rewrites them all (format and records goldens,
// the end-to-end scripts' expected output, check's RULES.md, the example
// snapshot) instead of comparing with them. Review the diff.
package golden

import "flag"

var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Update reports whether the run was asked to rewrite golden files.
func Update() bool { return *update }
