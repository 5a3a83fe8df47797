package format

import "strconv"

// TextOr is the text of an optional string for a table cell or a message:
// *s, or none when s is nil or empty.
func TextOr(s *string, none string) string {
	if s == nil || *s == "" {
		return none
	}
	return *s
}

// Count is n with the noun that agrees with it: "1 member", "2 members".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
