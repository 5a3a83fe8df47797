package format

// TextOr is the text of an optional string for a table cell or a message:
// *s, or none when s is nil or empty.
func TextOr(s *string, none string) string {
	if s == nil || *s == "" {
		return none
	}
	return *s
}
