package format

import "testing"

func TestTextOr(t *testing.T) {
	empty, text := "", "w1"
	for _, c := range []struct {
		in   *string
		none string
		want string
	}{{nil, "-", "-"}, {&empty, "-", "-"}, {&text, "-", "w1"}, {nil, "", ""}, {&text, "", "w1"}} {
		if got := TextOr(c.in, c.none); got != c.want {
			t.Errorf("TextOr(%v, %q) = %q, want %q", c.in, c.none, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 members", 1: "1 member", 2: "2 members"} {
		if got := Count(n, "member", "members"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
