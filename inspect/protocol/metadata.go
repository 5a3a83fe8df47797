package protocol

import "fmt"

// MemberMetadata is a Connect worker's JoinGroup protocol metadata.
type MemberMetadata struct {
	Version      int16
	URL          string // the worker's advertised REST URL
	ConfigOffset int64  // position in the config topic; -1 = nothing read
	// Allocation is the assignment embedded in V1/V2 metadata (what the
	// worker owns: its assigned lists); nil when null or absent.
	Allocation *Assignment
	Warnings   []string // as Assignment.Warnings, nested ones prefixed "allocation: "
}

// DecodeMetadata decodes member metadata of any version with Kafka's V1
// rules: after the config offset, whatever follows is read as the
// allocation, whatever the header version (no bytes = null, 1-3 bytes =
// error, length < 0 = null, length 0 = error). On error the returned
// MemberMetadata holds the fields read so far.
func DecodeMetadata(b []byte) (*MemberMetadata, error) {
	r := &wireReader{buf: b, blob: "metadata"}
	m := &MemberMetadata{}
	err := readMetadata(r, m)
	m.Warnings = append(r.warnings, m.Warnings...)
	return m, err
}

func readMetadata(r *wireReader, m *MemberMetadata) error {
	var err error
	if m.Version, err = r.version(); err != nil {
		return err
	}
	if m.URL, err = r.str("url"); err != nil {
		return err
	}
	if m.ConfigOffset, err = r.int64("config_offset"); err != nil {
		return err
	}
	if r.left() == 0 {
		return nil
	}
	start := r.pos
	n, err := r.int32("allocation length")
	if err != nil {
		return err
	}
	switch {
	case n < 0:
		if n < -1 {
			r.warn("allocation length %d read as null", n)
		}
		return nil
	case n == 0:
		r.pos = start
		return r.fail("allocation", "length 0 (an assignment has at least a version)")
	case int(n) > r.left():
		r.pos = start
		return r.fail("allocation", "length %d larger than the %d bytes left", n, r.left())
	}
	nested := r.buf[r.pos : r.pos+int(n)]
	alloc, aerr := decodeAssignment(nested, "metadata allocation")
	m.Allocation = alloc
	for _, w := range alloc.Warnings {
		m.Warnings = append(m.Warnings, "allocation: "+w)
	}
	if aerr != nil {
		if de, ok := aerr.(*DecodeError); ok {
			de.Offset += r.pos // report the position in the whole metadata
		}
		return aerr
	}
	r.pos += int(n)
	if alloc.Version != m.Version {
		r.warn("allocation version %d differs from metadata version %d", alloc.Version, m.Version)
	}
	if r.left() > 0 {
		r.warn("%d trailing bytes after the allocation ignored", r.left())
	}
	return nil
}

// EncodeMetadata writes member metadata as Kafka's writers do: V0 is
// version, URL and config offset; V1 and later add the allocation (length
// -1 when nil). A V0 metadata with an allocation (only possible from
// decoding odd bytes) keeps it, so that decode and encode round-trip.
func EncodeMetadata(m *MemberMetadata) ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("metadata: nothing to encode")
	}
	if m.Version < 0 {
		return nil, fmt.Errorf("metadata: negative version %d", m.Version)
	}
	w := &wireWriter{blob: "metadata"}
	w.int16(m.Version)
	if err := w.str("url", m.URL); err != nil {
		return nil, err
	}
	w.int64(m.ConfigOffset)
	if m.Version == 0 && m.Allocation == nil {
		return w.buf, nil
	}
	if m.Allocation == nil {
		w.int32(-1)
		return w.buf, nil
	}
	nested := &wireWriter{blob: "metadata allocation"}
	if err := writeAssignment(nested, m.Allocation); err != nil {
		return nil, err
	}
	w.int32(int32(len(nested.buf)))
	w.buf = append(w.buf, nested.buf...)
	return w.buf, nil
}
