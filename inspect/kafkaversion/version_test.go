package kafkaversion

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]string{"3.9.0": "3.9.0", "3.4": "3.4.0", "2": "2.0.0", "3.7.1-ccs": "3.7.1", "v3.6.0-SNAPSHOT": "3.6.0", "V3.4": "3.4.0", " 3.5.1 ": "3.5.1", "": "unknown"} {
		v, err := Parse(in)
		if err != nil || v.String() != want {
			t.Errorf("%q: %v %v", in, v, err)
		}
	}
	for _, bad := range []string{"x", "3.x", "1.2.3.4", "-1", "three"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestAtLeast(t *testing.T) {
	fixed := []Version{New(3, 5, 2), New(3, 6, 1), New(3, 7, 0)}
	for v, want := range map[Version]bool{New(3, 5, 1): false, New(3, 5, 2): true, New(3, 6, 0): false, New(3, 6, 1): true, New(3, 7, 0): true, New(4, 0, 0): true, New(3, 4, 9): false} {
		if v.AtLeast(fixed...) != want {
			t.Errorf("%v AtLeast = %v", v, !want)
		}
	}
}
