package workers

import (
	"strings"
	"testing"
)

func TestPin(t *testing.T) {
	cases := []struct {
		spec  string
		allow []string
		deny  []string
	}{
		{"4.1.0", []string{"4.1.0", "4.1"}, []string{"4.1.1", "4.0.9", "", "4.1.0-rc1"}},
		{"[4.0,4.2)", []string{"4.0.0", "4.1.9", "4.0"}, []string{"4.2.0", "3.9.2", "4.2"}},
		{"(4.0,]", nil, nil},
		{"[4.0,)", []string{"4.0.0", "10.0.0"}, []string{"3.9.2"}},
		{"(,3.9.2]", []string{"3.9.2", "1.0"}, []string{"4.0.0"}},
		{"[1.0],[3.0,4.0)", []string{"1.0", "3.5.1"}, []string{"2.0", "4.0"}},
		{"[3.9.2]", []string{"3.9.2"}, []string{"4.3.1"}},
	}
	for _, c := range cases {
		p, ok, err := ParsePin(c.spec)
		if c.spec == "(4.0,]" {
			if err != nil || !ok || !p.Allows("4.0.1") || p.Allows("4.0") {
				t.Errorf("%s: %v %v", c.spec, ok, err)
			}
			continue
		}
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", c.spec, ok, err)
		}
		for _, v := range c.allow {
			if !p.Allows(v) {
				t.Errorf("%s must allow %q", c.spec, v)
			}
		}
		for _, v := range c.deny {
			if p.Allows(v) {
				t.Errorf("%s must not allow %q", c.spec, v)
			}
		}
	}
	for _, s := range []string{"", "latest", " latest "} {
		if _, ok, err := ParsePin(s); ok || err != nil {
			t.Errorf("%q is no pin: %v %v", s, ok, err)
		}
	}
	for _, s := range []string{"[4.0", "4.0]", "[2.0,1.0]", "[1.0],", "(1.0)", "[1,2,3]", "[1.0]x", strings.Repeat("1", 2000)} {
		if _, _, err := ParsePin(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	less := [][2]string{{"3.9.2", "4.0.0"}, {"4.1.0-rc1", "4.1.0"}, {"4.1", "4.1.1"}, {"4.9.0", "4.10.0"}, {"1.0-alpha", "1.0-beta"}}
	for _, p := range less {
		if compareVersions(p[0], p[1]) >= 0 || compareVersions(p[1], p[0]) <= 0 {
			t.Errorf("%s < %s", p[0], p[1])
		}
	}
	if compareVersions("4.1", "4.1.0") != 0 {
		t.Error("4.1 = 4.1.0")
	}
}

func FuzzParsePin(f *testing.F) {
	for _, s := range []string{"4.1.0", "[4.0,4.2)", "(,1]", "[1.0],[3.0,4.0)", "[", "[,]", "(((", "[1,2],", "\x00[1]", "latest"} {
		f.Add(s, "4.1.0")
	}
	f.Fuzz(func(t *testing.T, spec, v string) {
		p, ok, err := ParsePin(spec)
		if err != nil || !ok {
			return
		}
		_ = p.Allows(v)
		if c := compareVersions(v, v); c != 0 {
			t.Fatalf("compare(%q, itself) = %d", v, c)
		}
		if compareVersions(spec, v) != -compareVersions(v, spec) {
			t.Fatalf("compare not antisymmetric for %q, %q", spec, v)
		}
	})
}
