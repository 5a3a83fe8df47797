package protocol

import "encoding/binary"

// The advertised REST URL sits at a fixed place in a member's metadata
// (after the version) and in an assignment (the leader's, after version,
// error and leader id). Rewriting it there, the rest byte for byte, keeps
// what a decoder of this release does not know (newer fields, trailing
// bytes) exactly as the broker gave it.

// RewriteMetadataURL is metadata b with its URL, and the leader URL of the
// assignment it owns, replaced by f(URL); b itself when f leaves them
// alone or b does not hold them where Connect puts them.
func RewriteMetadataURL(b []byte, f func(string) string) []byte {
	b = rewriteString(b, 2, 0, f)
	// The owned assignment follows the URL and the config offset, as
	// int32-length bytes (whatever the version says: the decoder reads one
	// wherever it stands, so the views show its leader URL).
	if len(b) < 4 {
		return b
	}
	at := 4 + int(int16(binary.BigEndian.Uint16(b[2:]))) + 8
	if at < 12 || at+4 > len(b) {
		return b
	}
	n := int(int32(binary.BigEndian.Uint32(b[at:])))
	if n < 0 || at+4+n > len(b) {
		return b
	}
	owned := b[at+4 : at+4+n]
	again := RewriteLeaderURL(owned, f)
	if len(again) == len(owned) && string(again) == string(owned) {
		return b
	}
	return splice(b, at, 4+n, binary.BigEndian.AppendUint32(nil, uint32(len(again))), again)
}

// RewriteLeaderURL is assignment b with its leader URL replaced by f(URL),
// likewise.
func RewriteLeaderURL(b []byte, f func(string) string) []byte {
	return rewriteString(b, 4, 1, f)
}

// rewriteString replaces the int16-length string that follows skip bytes
// and then skipStrings more strings.
func rewriteString(b []byte, skip, skipStrings int, f func(string) string) []byte {
	at := skip
	for i := 0; ; i++ {
		if at+2 > len(b) {
			return b
		}
		n := int(int16(binary.BigEndian.Uint16(b[at:])))
		if n < 0 || at+2+n > len(b) {
			return b
		}
		if i < skipStrings {
			at += 2 + n
			continue
		}
		old := string(b[at+2 : at+2+n])
		s := f(old)
		if s == old || len(s) > 1<<15-1 {
			return b
		}
		return splice(b, at, 2+n, binary.BigEndian.AppendUint16(nil, uint16(len(s))), []byte(s))
	}
}

// splice is b with its n bytes at at replaced by a length and the bytes it
// counts.
func splice(b []byte, at, n int, length, body []byte) []byte {
	out := make([]byte, 0, len(b)-n+len(length)+len(body))
	out = append(out, b[:at]...)
	out = append(out, length...)
	out = append(out, body...)
	return append(out, b[at+n:]...)
}
