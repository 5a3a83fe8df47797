package workerconfig

import (
	"regexp"
	"strings"
)

// emptyKeySentinel stands in for the empty key while magiconair/properties
// parses the file: Java reads "=10" and ":11" as entries with key "", which
// that parser refuses. No real setting is named like this.
const emptyKeySentinel = "connectscope.internal.empty-key.7f3a9c"

// markEmptyKeys rewrites logical lines whose key is empty (first
// non-blank character = or :) so the parser reads them; their values keep
// Java's escapes. Input has its continuations already joined.
func markEmptyKeys(s string) string {
	if !strings.Contains(s, "=") && !strings.Contains(s, ":") {
		return s
	}
	lines := strings.Split(s, "\n")
	changed := false
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " \t\f")
		if trimmed != "" && (trimmed[0] == '=' || trimmed[0] == ':') {
			lines[i] = emptyKeySentinel + trimmed
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(lines, "\n")
}

// safeParseMessage is what the parser's error may say. Its messages can
// quote a value ("Line 3: \"hunter2\""); a value may be a secret, so only
// the line and the known value-free reasons are kept.
var parserMessage = regexp.MustCompile(`^properties: Line (\d+): (.*)$`)

func safeParseMessage(err error) string {
	m := parserMessage.FindStringSubmatch(err.Error())
	if m == nil {
		return "not a Java properties file"
	}
	switch m[2] {
	case "invalid unicode literal", "premature EOF":
		return "line " + m[1] + ": " + m[2]
	}
	return "line " + m[1] + " cannot be read as a Java properties entry"
}

// providerRefsOnly lists the config-provider references in a value, for
// errors: the value around them may hold a literal password.
func providerRefsOnly(v string) string {
	return strings.Join(providerRef.FindAllString(v, -1), " ")
}
