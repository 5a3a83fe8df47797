package format

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/itchyny/gojq"
)

// JQVar is a value a --jq expression reads as $NAME: --arg NAME VALUE (a
// string) or --argjson NAME JSON (any JSON value), as jq's own flags.
type JQVar struct {
	Name  string
	Value any
}

// jqName is what jq accepts after $.
var jqName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// JQArg is --arg NAME VALUE: $NAME is the string VALUE.
func JQArg(name, value string) (JQVar, error) {
	if err := checkJQName("--arg", name); err != nil {
		return JQVar{}, err
	}
	return JQVar{Name: name, Value: value}, nil
}

// JQArgJSON is --argjson NAME JSON: $NAME is the JSON value (numbers keep
// every digit, as the results' own do).
func JQArgJSON(name, text string) (JQVar, error) {
	if err := checkJQName("--argjson", name); err != nil {
		return JQVar{}, err
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return JQVar{}, &UsageError{Flag: "--argjson", Problem: fmt.Sprintf("%s: %q is not JSON: %v", name, text, err)}
	}
	if dec.More() {
		return JQVar{}, &UsageError{Flag: "--argjson", Problem: fmt.Sprintf("%s: %q holds more than one JSON value", name, text)}
	}
	return JQVar{Name: name, Value: v}, nil
}

func checkJQName(flag, name string) error {
	if !jqName.MatchString(name) {
		return &UsageError{Flag: flag, Problem: fmt.Sprintf("%q is not a variable name (letters, digits and _, not starting with a digit)", name)}
	}
	if name == "ENV" || name == "__loc__" {
		return &UsageError{Flag: flag, Problem: fmt.Sprintf("$%s is jq's own; choose another name", name)}
	}
	return nil
}

// secretEnvWords make a variable one $ENV does not show: the passwords the
// environment holds for connectscope itself (CONNECTSCOPE_SASL_PASSWORD,
// CONNECTSCOPE_REST_PASSWORD), a context's sasl-password-env, and the
// like (AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN), since a --jq result goes to
// logs a runbook keeps.
var secretEnvWords = []string{"PASSWORD", "PASSWD", "PWD", "SECRET", "TOKEN", "CREDENTIAL", "APIKEY", "API_KEY", "PRIVATE_KEY", "PASSPHRASE", "JAAS"}

// hiddenEnv reports a variable $ENV does not show.
func hiddenEnv(name string) bool {
	upper := strings.ToUpper(name)
	if upper == "PWD" || upper == "OLDPWD" { // the shell's directories, not passwords
		return false
	}
	for _, w := range secretEnvWords {
		if strings.Contains(upper, w) {
			return true
		}
	}
	return false
}

// jqEnviron is what $ENV and env see: the process environment, less the
// variables hiddenEnv names.
func jqEnviron() []string {
	out := []string{}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !hiddenEnv(name) {
			out = append(out, kv)
		}
	}
	return out
}

// CompileJQ parses and compiles a --jq expression with its variables, so a
// command can reject a bad one before it reads anything. Errors are
// *UsageError.
func CompileJQ(expr string, vars ...JQVar) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, &UsageError{Flag: "--jq", Problem: parseProblem(expr, err)}
	}
	names := make([]string, len(vars))
	for i, v := range vars {
		names[i] = "$" + v.Name
	}
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(jqEnviron), gojq.WithVariables(names))
	if err != nil {
		return nil, &UsageError{Flag: "--jq", Problem: compileProblem(expr, err)}
	}
	return code, nil
}

// compileProblem places an undefined function or variable in the expression.
func compileProblem(expr string, err error) string {
	msg := err.Error()
	_, name, ok := strings.Cut(msg, "not defined: ")
	if ok {
		name, _, _ = strings.Cut(name, "/") // function name/arity
		if i := strings.Index(expr, name); i >= 0 {
			return fmt.Sprintf("%s at column %d of %q (before %q)", msg, i+1, expr, expr[i:])
		}
	}
	return fmt.Sprintf("%s in %q", msg, expr)
}

// jqValues are the variables' values in the order CompileJQ named them.
func jqValues(vars []JQVar) []any {
	out := make([]any, len(vars))
	for i, v := range vars {
		out[i] = v.Value
	}
	return out
}

// parseProblem points at the place the parser stopped, on one line, because
// the caller prints errors as a single line.
func parseProblem(expr string, err error) string {
	var pe *gojq.ParseError
	if !errors.As(err, &pe) {
		return fmt.Sprintf("%v in %q", err, expr)
	}
	// Offset counts the bytes read when the parser gave up, including the bad token.
	start := max(0, min(len(expr), pe.Offset-len(pe.Token)))
	return fmt.Sprintf("%v at column %d of %q (before %q)", err, start+1, expr, expr[start:])
}

// jqRun is one --jq run: the expression, its variables, the context that
// ends it early (nil: none) and whether the output is a terminal.
type jqRun struct {
	ctx      context.Context
	expr     string
	vars     []JQVar
	terminal bool
}

// writeLines runs the expression on the JSON form of each input in turn and
// prints each value on its own line: strings raw (as `jq -r` and `gh --jq`
// do; on a terminal escaped as EscapeText does, since a name from the
// cluster must not drive it), anything else as compact JSON (with the runes
// RuneEscaper escapes). A cancelled context ends the run with its error.
func (j jqRun) writeLines(w io.Writer, inputs []any) error {
	code, err := CompileJQ(j.expr, j.vars...)
	if err != nil {
		return err
	}
	if j.ctx == nil {
		j.ctx = context.Background() // gojq checks no context then, at no cost per step
	}
	bw := bufio.NewWriter(w)
	for _, in := range inputs {
		input, err := jqInput(j.ctx, in)
		if err != nil {
			return err
		}
		halted, err := j.run(bw, code, input)
		if err != nil {
			bw.Flush()
			return err
		}
		if halted {
			break
		}
	}
	return bw.Flush()
}

// run writes what code yields for one input; halted reports a `halt`.
func (j jqRun) run(bw *bufio.Writer, code *gojq.Code, input any) (halted bool, err error) {
	values := NewRuneEscaper(bw) // each value whole: nothing is carried
	iter := code.RunWithContext(j.ctx, input, jqValues(j.vars)...)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return true, nil // `halt` ends the output without an error
			}
			if j.ctx.Err() != nil && errors.Is(err, j.ctx.Err()) {
				return false, fmt.Errorf("--jq %q: %w", j.expr, err) // interrupted, not a usage error
			}
			return false, &UsageError{Flag: "--jq", Problem: fmt.Sprintf("%v (running %q)", err, j.expr)}
		}
		if s, isStr := v.(string); isStr {
			if j.terminal {
				s = EscapeText(s)
			}
			bw.WriteString(s)
		} else {
			b, _ := gojq.Marshal(v)
			values.Write(b)
		}
		bw.WriteByte('\n')
	}
	return false, nil
}

// jqInput is the JSON form decoded into the plain values gojq works on;
// numbers stay json.Number so large offsets keep every digit. The JSON is
// read as it is written (compactTokens) and built token by token, never
// held whole: json.Decoder.Decode reads a value's
// text whole before it builds it, and a plan of a thousand workers (985 MB
// as JSON) peaked at 5 GB and went on for seconds after Ctrl-C (ctx).
func jqInput(ctx context.Context, result any) (any, error) {
	dec, stop := compactTokens(ctx, result)
	defer stop()
	b := jqBuilder{ctx: ctx, dec: dec}
	tok, err := b.dec.Token()
	if err != nil {
		return nil, fmt.Errorf("decoding result for --jq: %w", err)
	}
	v, err := b.value(tok)
	if err != nil {
		return nil, fmt.Errorf("decoding result for --jq: %w", err)
	}
	return v, nil
}

// jqBuilder builds the value json.Decoder.Decode gives into an any (with
// UseNumber) from tokens, looking at ctx every few thousand of them.
type jqBuilder struct {
	ctx    context.Context
	dec    jsonTokens
	tokens int
}

func (b *jqBuilder) value(tok json.Token) (any, error) {
	if b.tokens++; b.tokens%4096 == 0 {
		if err := b.ctx.Err(); err != nil {
			return nil, err
		}
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	var out any
	switch d {
	case '{':
		m := map[string]any{}
		for b.dec.More() {
			key, err := b.dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := key.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string", key)
			}
			if m[k], err = b.next(); err != nil {
				return nil, err
			}
		}
		out = m
	case '[':
		l := []any{}
		for b.dec.More() {
			v, err := b.next()
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		out = l
	default:
		return nil, fmt.Errorf("unexpected %v", d)
	}
	_, err := b.dec.Token() // the closing delimiter
	return out, err
}

func (b *jqBuilder) next() (any, error) {
	tok, err := b.dec.Token()
	if err != nil {
		return nil, err
	}
	return b.value(tok)
}
