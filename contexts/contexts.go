// Package contexts reads connectscope's named clusters, as kubectl reads
// contexts from a kubeconfig: a YAML file with one entry per cluster (bootstrap
// servers, group, topic names, TLS and SASL settings or a worker config
// file) and the name of the one in use. Passwords are kept by reference only
// (an environment variable or a file), never in clear.
package contexts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/source/atomicfile"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"github.com/connectscope/connectscope/inspect/source/yamlfile"
	"gopkg.in/yaml.v3"
)

// EnvConfig names the environment variable that overrides the file's path.
const EnvConfig = "CONNECTSCOPE_CONFIG"

// Context is one named cluster. Field names are the global flags' names, so
// a context reads like the command line it saves typing.
type Context struct {
	BootstrapServer       string        `yaml:"bootstrap-server,omitempty"`
	WorkerConfig          []string      `yaml:"worker-config,omitempty"`
	Group                 string        `yaml:"group,omitempty"`
	ConfigTopic           string        `yaml:"config-topic,omitempty"`
	OffsetTopic           string        `yaml:"offset-topic,omitempty"`
	StatusTopic           string        `yaml:"status-topic,omitempty"`
	Timeout               time.Duration `yaml:"timeout,omitempty"`
	Isolation             string        `yaml:"isolation,omitempty"`
	TLS                   bool          `yaml:"tls,omitempty"`
	TLSCA                 string        `yaml:"tls-ca,omitempty"`
	TLSCert               string        `yaml:"tls-cert,omitempty"`
	TLSKey                string        `yaml:"tls-key,omitempty"`
	TLSServerName         string        `yaml:"tls-server-name,omitempty"`
	TLSInsecureSkipVerify bool          `yaml:"tls-insecure-skip-verify,omitempty"`
	SASLMechanism         string        `yaml:"sasl-mechanism,omitempty"`
	SASLUser              string        `yaml:"sasl-user,omitempty"`
	// The password by reference: the name of an environment variable, or a
	// file whose content (without a trailing newline) is the password.
	SASLPasswordEnv  string `yaml:"sasl-password-env,omitempty"`
	SASLPasswordFile string `yaml:"sasl-password-file,omitempty"`
}

// File is the config file.
type File struct {
	Path           string              `yaml:"-"`
	CurrentContext string              `yaml:"current-context,omitempty"`
	Contexts       map[string]*Context `yaml:"contexts"`
	exists         bool
}

// DefaultPath is $CONNECTSCOPE_CONFIG, else connectscope/config.yaml in the
// user's config directory (~/.config on Linux, ~/Library/Application
// Support on macOS, %AppData% on Windows).
func DefaultPath() (string, error) {
	if p := os.Getenv(EnvConfig); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the config directory: %w (set %s to the config file)", err, EnvConfig)
	}
	return filepath.Join(dir, "connectscope", "config.yaml"), nil
}

// MaxConfigFile is the largest config file Load reads. A file of a
// thousand contexts is about 100 KiB; one past this is not a config file
// someone keeps (and a shell's Tab reads this file on every key press).
const MaxConfigFile = 4 << 20

// parse reads the file's one YAML document. A second one is refused: the
// contexts in it would be missing, and the next set-context or use-context,
// which rewrite the file, would drop it.
func parse(path string, b []byte) (yaml.Node, error) {
	doc, err := yamlfile.Decode(b)
	var second *yamlfile.SecondDocumentError
	if errors.As(err, &second) {
		return doc, fmt.Errorf("%s:%d: a second YAML document: keep one mapping of current-context and contexts", path, second.Line)
	}
	if err != nil {
		return doc, fmt.Errorf("%s: %s", path, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return doc, nil
}

// Load reads the file at path. A missing file is an empty one (no context),
// not an error: contexts are optional. The file must be a regular file of
// at most MaxConfigFile bytes, and is decoded in time linear in its size
// (yaml.v3's decoder compares every key of a mapping with every other).
func Load(path string) (*File, error) {
	f := &File{Path: path, Contexts: map[string]*Context{}}
	b, err := boundedfile.Read(path, MaxConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	var tooLarge *boundedfile.TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("%s is larger than %s: not a config file of named clusters (set %s to the right file)", path, boundedfile.Size(MaxConfigFile), EnvConfig)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	f.exists = true
	if len(bytes.TrimSpace(b)) == 0 {
		return f, nil
	}
	doc, err := parse(path, b)
	if err != nil {
		return nil, err
	}
	if err := refuseClearPasswords(path, &doc); err != nil {
		return nil, err
	}
	if err := f.decode(&doc); err != nil {
		return nil, err
	}
	for name, c := range f.Contexts {
		if c.SASLPasswordEnv != "" && c.SASLPasswordFile != "" {
			return nil, fmt.Errorf("%s: context %s: give sasl-password-env or sasl-password-file, not both", path, name)
		}
		c.resolvePaths(filepath.Dir(path))
	}
	// A current-context that names no context fails when it is used (Get),
	// so use-context can still repair the file.
	return f, nil
}

// decode fills f from the parsed file one context at a time, so no
// mapping bigger than a context's few settings goes through yaml.v3's
// decoder; keys are checked against the known ones as KnownFields would.
func (f *File) decode(doc *yaml.Node) error {
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return decodeError(f.Path, root.Decode(f)) // not a mapping: yaml.v3 words it
	}
	top := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if err := once(f.Path, top, k); err != nil {
			return err
		}
		switch k.Value {
		case "current-context":
			if err := v.Decode(&f.CurrentContext); err != nil {
				return decodeError(f.Path, err)
			}
		case "contexts":
			if err := f.decodeContexts(v); err != nil {
				return err
			}
		default:
			return unknownKey(f.Path, k)
		}
	}
	return nil
}

func (f *File) decodeContexts(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		var probe map[string]*Context
		if err := n.Decode(&probe); err != nil {
			return decodeError(f.Path, err) // yaml.v3 words the type error
		}
		for name, c := range probe { // what yaml.v3 reads as a mapping anyway
			if c == nil {
				c = &Context{}
			}
			f.Contexts[name] = c
		}
		return nil
	}
	names := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, body := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("%s:%d: a context's name must be text", f.Path, k.Line)
		}
		if k.ShortTag() == "!!null" {
			// yaml.v3 would drop such a context without a word.
			return fmt.Errorf("%s:%d: a context's name must be text, not null (%q); quote it to use it as a name", f.Path, k.Line, k.Value)
		}
		if isMerge(k) {
			return fmt.Errorf("%s:%d: a merge (<<) among the contexts is not supported; merge shared settings inside each context instead (b: {<<: *a, group: g})", f.Path, k.Line)
		}
		if err := once(f.Path, names, k); err != nil {
			return err
		}
		if body.Kind == yaml.AliasNode {
			body = body.Alias
		}
		c := &Context{}
		if body.Kind == yaml.MappingNode {
			if err := checkKeys(f.Path, body, map[string]int{}, 0); err != nil {
				return err
			}
			if err := body.Decode(c); err != nil {
				return decodeError(f.Path, err)
			}
		}
		f.Contexts[k.Value] = c
	}
	return nil
}

// checkKeys refuses a key a context does not have, or has twice, in a
// context's mapping and in what it merges (<<), as KnownFields would; it
// also bounds the mapping to the few keys a context has, so yaml.v3's
// decoder never sees a big one. A merge's keys may repeat the mapping's
// (each merged mapping is checked on its own).
func checkKeys(path string, m *yaml.Node, seen map[string]int, depth int) error {
	if depth > 10 {
		return fmt.Errorf("%s:%d: merges (<<) nested too deep", path, m.Line)
	}
	for j := 0; j+1 < len(m.Content); j += 2 {
		key, val := m.Content[j], m.Content[j+1]
		if isMerge(key) {
			merged := []*yaml.Node{val}
			if val.Kind == yaml.SequenceNode {
				merged = val.Content
			}
			for _, mm := range merged {
				if mm.Kind == yaml.AliasNode {
					mm = mm.Alias
				}
				if mm == nil || mm.Kind != yaml.MappingNode {
					return fmt.Errorf("%s:%d: a merge (<<) takes a mapping or a list of mappings", path, key.Line)
				}
				if err := checkKeys(path, mm, map[string]int{}, depth+1); err != nil {
					return err
				}
			}
			continue
		}
		if !slices.Contains(Keys, key.Value) {
			return unknownKey(path, key)
		}
		if err := once(path, seen, key); err != nil {
			return err
		}
	}
	return nil
}

// isMerge says whether k is a merge key: a plain <<, which the parser tags
// !!merge ("<<" in quotes is an ordinary key, and unknown to a context).
func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge"
}

// once refuses a key already seen in its mapping, as yaml.v3 does.
func once(path string, seen map[string]int, k *yaml.Node) error {
	if line, dup := seen[k.Value]; dup {
		return fmt.Errorf("%s:%d: mapping key %q already defined at line %d", path, k.Line, k.Value, line)
	}
	seen[k.Value] = k.Line
	return nil
}

func unknownKey(path string, k *yaml.Node) error {
	return fmt.Errorf("%s:%d: unknown key %s (a context holds the global flags' names: bootstrap-server, group, worker-config, …)", path, k.Line, k.Value)
}

// yamlLineError is one of yaml.v3's type errors: "line N: what".
var yamlLineError = regexp.MustCompile(`^line (\d+): (.*)$`)

// yamlUnknownField is yaml.v3's wording for a key KnownFields refuses.
var yamlUnknownField = regexp.MustCompile(`^field (\S+) not found in type \S+$`)

// decodeError words a decoding error as PATH:LINE: problem, with an unknown
// key named as such (not as a Go type's missing field).
func decodeError(path string, err error) error {
	if err == nil {
		return nil
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) == 0 {
		return fmt.Errorf("%s: %s", path, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	m := yamlLineError.FindStringSubmatch(te.Errors[0])
	if m == nil {
		return fmt.Errorf("%s: %s", path, strings.Join(te.Errors, "; "))
	}
	what := m[2]
	if u := yamlUnknownField.FindStringSubmatch(what); u != nil {
		what = fmt.Sprintf("unknown key %s (a context holds the global flags' names: bootstrap-server, group, worker-config, …)", u[1])
	}
	if more := len(te.Errors) - 1; more > 0 {
		what += fmt.Sprintf(" (and %d more)", more)
	}
	return fmt.Errorf("%s:%s: %s", path, m[1], what)
}

// resolvePaths makes relative file paths relative to the config file's
// directory (as kubectl does for a kubeconfig) and expands a leading ~/.
func (c *Context) resolvePaths(dir string) {
	fix := func(p string) string {
		if p == "" {
			return p
		}
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home, err := os.UserHomeDir(); err == nil {
				return filepath.Join(home, rest)
			}
		}
		if !filepath.IsAbs(p) {
			return filepath.Join(dir, p)
		}
		return p
	}
	for i, w := range c.WorkerConfig {
		c.WorkerConfig[i] = fix(w)
	}
	c.TLSCA, c.TLSCert, c.TLSKey = fix(c.TLSCA), fix(c.TLSCert), fix(c.TLSKey)
	c.SASLPasswordFile = fix(c.SASLPasswordFile)
}

// Names lists the contexts, sorted.
func (f *File) Names() []string {
	return slices.Sorted(maps.Keys(f.Contexts))
}

// NotFoundError is a context name the file does not have.
type NotFoundError struct {
	Name, Path string
	Known      []string
}

func (e *NotFoundError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("context %q not found: %s defines no context", e.Name, e.Path)
	}
	return fmt.Sprintf("context %q not found in %s: use one of %s", e.Name, e.Path, format.List(e.Known))
}

// Get returns the named context.
func (f *File) Get(name string) (*Context, error) {
	c := f.Contexts[name]
	if c == nil {
		return nil, &NotFoundError{Name: name, Path: f.Path, Known: f.Names()}
	}
	return c, nil
}

// UseContext makes name the current context and writes the file, changing
// only that line so comments and layout stay as the user wrote them.
func (f *File) UseContext(name string) error {
	if _, err := f.Get(name); err != nil {
		return err
	}
	b, err := boundedfile.Read(f.Path, MaxConfigFile)
	if err != nil {
		return fmt.Errorf("reading %s: %w", f.Path, err)
	}
	doc, err := parse(f.Path, b)
	if err != nil {
		return err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode { // changed since it was loaded
		return fmt.Errorf("%s: the file is not a mapping of current-context and contexts", f.Path)
	}
	root := doc.Content[0]
	set := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "current-context" {
			root.Content[i+1].Value, root.Content[i+1].Tag, root.Content[i+1].Style = name, "!!str", 0
			set = true
		}
	}
	if !set {
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "current-context"}
		if len(root.Content) > 0 { // the file's opening comment stays at the top
			key.HeadComment, root.Content[0].HeadComment = root.Content[0].HeadComment, ""
		}
		root.Content = append([]*yaml.Node{key, {Kind: yaml.ScalarNode, Tag: "!!str", Value: name}}, root.Content...)
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	if err := writeFileAtomic(f.Path, out.Bytes()); err != nil {
		return err
	}
	f.CurrentContext = name
	return nil
}

// writeFileAtomic replaces path with data through a temporary file in the
// same directory, keeping the file's permissions. A config file that is a
// symbolic link (dotfiles kept in a repository, a file shared between
// machines) is written through the link, as kubectl does: the file it points
// to gets the change and the link stays.
func writeFileAtomic(path string, data []byte) error {
	path = throughLinks(path)
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	return atomicfile.Write(path, mode, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// throughLinks follows symbolic links from path to the file they end at,
// which need not exist yet (a link to a file not written so far). A loop
// of links stops after 40 steps, as the kernel does, and writes the last.
func throughLinks(path string) string {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path
		}
		target, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return path
}

// Exists reports whether the file was there when loaded.
func (f *File) Exists() bool { return f.exists }
