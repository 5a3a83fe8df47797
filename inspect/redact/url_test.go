package redact

import "testing"

// A URL loses user information, query and fragment; one with none of them
// is kept as advertised, byte for byte (a snapshot keeps its bytes).
func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://admin:pw@w1:8083/?token=t#f": "http://w1:8083/",
		"http://a@b@w1:8083/x@y":             "http://w1:8083/x@y",
		"http://u:p@w1:80%zz?token=t":        "http://w1:80%zz",
		"HTTP://W1:8083":                     "HTTP://W1:8083",
		"http://w1:8083/caf\u00e9/":          "http://w1:8083/caf\u00e9/",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
