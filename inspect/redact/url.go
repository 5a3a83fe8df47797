package redact

import (
	"net/url"
	"strings"
)

// URL is an advertised REST URL as it may be shown: without user
// information, query or fragment (http://user:pw@host:8083/?token=t becomes
// http://host:8083/). Connect advertises scheme, host, port and path only,
// so anything else came from someone's hand and may carry a credential;
// REST clients send credentials in a header, never from the URL. It holds
// whatever --show-secrets says: a URL's credential has no use in output.
func URL(raw string) string {
	if !strings.ContainsAny(raw, "@?#") {
		return raw // nothing to drop: shown, and stored, as advertised
	}
	u, err := url.Parse(raw)
	if err != nil {
		// Not a URL we can take apart: drop anything before an @ of the
		// authority, and the query and fragment.
		if i := strings.Index(raw, "://"); i >= 0 {
			rest := raw[i+3:]
			end := strings.IndexAny(rest, "/?#")
			if end < 0 {
				end = len(rest)
			}
			if j := strings.LastIndexByte(rest[:end], '@'); j >= 0 {
				raw = raw[:i+3] + rest[j+1:]
			}
		}
		if j := strings.IndexAny(raw, "?#"); j >= 0 {
			raw = raw[:j]
		}
		return raw
	}
	u.User = nil
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	return u.String()
}
