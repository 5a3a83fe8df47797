package workerconfig

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// ExpandPaths expands glob patterns (quoted on the command line,
// e.g. 'workers/*.properties') into file names: each pattern's matches
// sorted, patterns kept in the order given, duplicates dropped. A plain name
// is kept even if missing (loading it reports the error); a glob that matches
// nothing or is malformed is an error.
func ExpandPaths(patterns []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, pat := range patterns {
		if pat == "" {
			continue
		}
		if !strings.ContainsAny(pat, "*?[") {
			if !seen[pat] {
				seen[pat] = true
				out = append(out, pat)
			}
			continue
		}
		matches, err := filepath.Glob(pat)
		if err != nil {
			return nil, fmt.Errorf("worker config pattern %q: %w", pat, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("worker config pattern %q matches no file", pat)
		}
		sort.Strings(matches)
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// LoadAll expands the patterns and loads every file.
func LoadAll(patterns []string) ([]*Config, error) {
	paths, err := ExpandPaths(patterns)
	if err != nil {
		return nil, err
	}
	out := make([]*Config, 0, len(paths))
	for _, p := range paths {
		w, err := Load(p)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}
