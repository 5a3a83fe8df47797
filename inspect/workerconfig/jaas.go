package workerconfig

import (
	"fmt"
	"strings"
)

// JAASEntry is the single login module of a client's sasl.jaas.config, e.g.
// `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";`.
type JAASEntry struct {
	LoginModule string
	Flag        string // required, requisite, sufficient, optional
	Options     map[string]string
}

// ParseJAASConfig parses a sasl.jaas.config value the way Kafka's JaasConfig
// does for clients: exactly one login module, a control flag, options
// key=value (values bare words or quoted strings), ending with ';'.
func ParseJAASConfig(text string) (*JAASEntry, error) {
	toks, err := jaasTokens(text)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("JAAS config is empty")
	}
	var entries []*JAASEntry
	for i := 0; i < len(toks); {
		if toks[i].quoted || toks[i].text == ";" || toks[i].text == "=" {
			return nil, fmt.Errorf("JAAS config: expected a login module class, found %q", toks[i].text)
		}
		e := &JAASEntry{LoginModule: toks[i].text, Options: map[string]string{}}
		i++
		if i >= len(toks) || toks[i].quoted {
			return nil, fmt.Errorf("JAAS config: login module %s has no control flag", e.LoginModule)
		}
		switch flag := strings.ToLower(toks[i].text); flag {
		case "required", "requisite", "sufficient", "optional":
			e.Flag = flag
		default:
			return nil, fmt.Errorf("JAAS config: invalid control flag %q for %s", toks[i].text, e.LoginModule)
		}
		i++
		for {
			if i >= len(toks) {
				return nil, fmt.Errorf("JAAS config: login module %s is not terminated by ';'", e.LoginModule)
			}
			if !toks[i].quoted && toks[i].text == ";" {
				i++
				break
			}
			if i+2 >= len(toks) || toks[i].quoted || toks[i+1].quoted || toks[i+1].text != "=" {
				return nil, fmt.Errorf("JAAS config: option %q of %s is not key=value", toks[i].text, e.LoginModule)
			}
			if !toks[i+2].quoted && (toks[i+2].text == ";" || toks[i+2].text == "=") {
				return nil, fmt.Errorf("JAAS config: value not specified for option %q", toks[i].text)
			}
			e.Options[toks[i].text] = toks[i+2].text
			i += 3
		}
		entries = append(entries, e)
	}
	if len(entries) != 1 {
		return nil, fmt.Errorf("JAAS config holds %d login modules, a client needs exactly 1", len(entries))
	}
	return entries[0], nil
}

type jaasToken struct {
	text   string
	quoted bool
}

// jaasTokens splits JAAS text like java.io.StreamTokenizer as Kafka sets it up:
// blanks separate, '=' and ';' stand alone, "…" and '…' are quoted strings
// with backslash escapes, // and /* */ are comments.
func jaasTokens(s string) ([]jaasToken, error) {
	var toks []jaasToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c <= ' ':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("JAAS config: unterminated comment")
			}
			i += end + 4
		case c == '=' || c == ';':
			toks = append(toks, jaasToken{text: string(c)})
			i++
		case c == '"' || c == '\'':
			var b strings.Builder
			j := i + 1
			closed := false
			for j < len(s) {
				d := s[j]
				if d == c {
					closed = true
					j++
					break
				}
				if d == '\n' || d == '\r' {
					break
				}
				if d == '\\' && j+1 < len(s) {
					j++
					switch e := s[j]; e {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case 'r':
						b.WriteByte('\r')
					case 'b':
						b.WriteByte('\b')
					case 'f':
						b.WriteByte('\f')
					default:
						b.WriteByte(e)
					}
					j++
					continue
				}
				b.WriteByte(d)
				j++
			}
			if !closed {
				return nil, fmt.Errorf("JAAS config: unterminated quoted string")
			}
			toks = append(toks, jaasToken{text: b.String(), quoted: true})
			i = j
		default:
			j := i
			for j < len(s) && s[j] > ' ' && s[j] != '=' && s[j] != ';' && s[j] != '"' && s[j] != '\'' {
				j++
			}
			toks = append(toks, jaasToken{text: s[i:j]})
			i = j
		}
	}
	return toks, nil
}
