package setting

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

func flags(s Setting) string {
	return map[Setting]string{BootstrapServers: "-b", Timeout: "--timeout"}[s]
}

func TestTextNamesSettings(t *testing.T) {
	txt := Textf("check %v (%s) or raise %v; %v", BootstrapServers, "k:9092", Timeout, TLSCA)
	if got, want := txt.String(), "check the bootstrap servers (k:9092) or raise the timeout; the TLS CA file"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	// A setting the namer does not know keeps its plain name.
	if got, want := txt.With(flags), "check -b (k:9092) or raise --timeout; the TLS CA file"; got != want {
		t.Errorf("With(flags) = %q, want %q", got, want)
	}
}

func TestJoin(t *testing.T) {
	j := Join([]Text{Textf("a 100%%"), Textf("set %v", Timeout)}, "; %")
	if got, want := j.With(flags), "a 100%; %set --timeout"; got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
	if got := Join(nil, "; ").String(); got != "" {
		t.Errorf("Join(nil) = %q, want empty", got)
	}
}

func TestErrorWrapsAndWords(t *testing.T) {
	e := Errorf("no server: give %v: %w", BootstrapServers, io.EOF)
	if !errors.Is(e, io.EOF) {
		t.Errorf("%v does not wrap io.EOF", e)
	}
	outer := fmt.Errorf("connecting: %w", e)
	if got, want := Words(outer, flags), "connecting: no server: give -b: EOF"; got != want {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got, want := Words(outer, nil), "connecting: no server: give the bootstrap servers: EOF"; got != want {
		t.Errorf("Words(nil namer) = %q, want %q", got, want)
	}
	// A worded error wrapped inside another worded text is named too.
	nested := Errorf("%v: %w", Timeout, e)
	if got, want := nested.ErrorWith(flags), "--timeout: no server: give -b: EOF"; got != want {
		t.Errorf("nested = %q, want %q", got, want)
	}
	if !errors.Is(nested, io.EOF) {
		t.Errorf("nested lost io.EOF")
	}
	if got := Words(errors.New("plain"), flags); got != "plain" {
		t.Errorf("plain error reworded: %q", got)
	}
}

func TestEverySettingHasAPlainName(t *testing.T) {
	for _, s := range All {
		if _, ok := plain[s]; !ok {
			t.Errorf("setting %d has no plain name", int(s))
		}
	}
}
