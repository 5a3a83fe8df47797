package contexts

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"gopkg.in/yaml.v3"
)

// clearPasswordKeys are keys that would hold a secret in clear; the file
// is refused with the fix instead of reading them.
var clearPasswordKeys = []string{"sasl-password", "password", "sasl.jaas.config", "ssl.key.password", "ssl.keystore.password", "ssl.truststore.password"}

// refuseClearPasswords rejects a password written into the file, naming
// the key (and its context) and the fix, before anything is decoded.
func refuseClearPasswords(path string, doc *yaml.Node) error {
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil // the typed decode says what is wrong
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "contexts" || root.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		ctxs := root.Content[i+1]
		for j := 0; j+1 < len(ctxs.Content); j += 2 {
			name, body := ctxs.Content[j].Value, ctxs.Content[j+1]
			if body.Kind != yaml.MappingNode {
				if body.Tag == "!!null" {
					continue // an empty context: no settings
				}
				// Said here, as yaml.v3 would name the Go type.
				return fmt.Errorf("%s:%d: context %s must be a mapping of settings (bootstrap-server: HOST:PORT, group: NAME, …)", path, body.Line, name)
			}
			for k := 0; k+1 < len(body.Content); k += 2 {
				key := body.Content[k].Value
				for _, bad := range clearPasswordKeys {
					if key == bad {
						return fmt.Errorf("%s:%d: context %s: %s holds a password in clear; keep it elsewhere and name it with sasl-password-env: VARIABLE or sasl-password-file: PATH",
							path, body.Content[k].Line, name, key)
					}
				}
			}
		}
	}
	return nil
}

// MaxPasswordFile is the most a sasl-password-file may hold: a password or
// a token is a few hundred bytes; a file larger than this is not one (a
// device, a log, a mistake) and is refused after reading this much.
const MaxPasswordFile = 8 << 10

// Password resolves the context's password reference; "" when it has none.
// A password file must be a regular file of at most MaxPasswordFile bytes:
// a FIFO would block with no end and /dev/zero would grow without bound,
// so both are refused before a byte is read.
func (c *Context) Password(name string) (string, error) {
	switch {
	case c.SASLPasswordEnv != "":
		v := os.Getenv(c.SASLPasswordEnv)
		if v == "" {
			if !looksLikeVariableName(c.SASLPasswordEnv) {
				return "", fmt.Errorf("context %s: the variable sasl-password-env names is not set, and its name is not shown: it does not look like a variable name (A-Z, 0-9, _); was the password pasted in its place? Name the variable that holds it", name)
			}
			return "", fmt.Errorf("context %s: sasl-password-env names %s, which is not set", name, c.SASLPasswordEnv)
		}
		return v, nil
	case c.SASLPasswordFile != "":
		b, err := boundedfile.Read(c.SASLPasswordFile, MaxPasswordFile)
		var tooLarge *boundedfile.TooLargeError
		switch {
		case errors.Is(err, boundedfile.ErrNotRegular):
			return "", fmt.Errorf("context %s: sasl-password-file: %w: give a file that holds the password", name, err)
		case errors.As(err, &tooLarge):
			return "", fmt.Errorf("context %s: sasl-password-file %s is larger than %s, more than a password: give the file that holds only the password", name, c.SASLPasswordFile, boundedfile.Size(MaxPasswordFile))
		case err != nil:
			return "", fmt.Errorf("context %s: sasl-password-file: %w", name, err)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	return "", nil
}

// conventionalVariable is how environment variables are named by custom:
// capitals, digits and underscores.
var conventionalVariable = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// looksLikeVariableName says whether a sasl-password-env value may be shown
// in a message: anything else may be a password pasted in its place.
func looksLikeVariableName(s string) bool {
	return len(s) <= 128 && conventionalVariable.MatchString(s)
}
