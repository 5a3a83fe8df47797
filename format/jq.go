package format

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"
)

// CompileJQ parses and compiles a --jq expression, so a command can reject a
// bad one before it reads anything. Errors are *UsageError.
func CompileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, &UsageError{Flag: "--jq", Problem: parseProblem(expr, err)}
	}
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
	if err != nil {
		return nil, &UsageError{Flag: "--jq", Problem: fmt.Sprintf("%v in %q", err, expr)}
	}
	return code, nil
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

// writeJQLines runs expr on the JSON form of each input in turn and prints
// each value on its own line: strings raw (as `jq -r` and `gh --jq` do),
// anything else as compact JSON.
func writeJQLines(w io.Writer, inputs []any, expr string) error {
	code, err := CompileJQ(expr)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, in := range inputs {
		input, err := jqInput(in)
		if err != nil {
			return err
		}
		halted, err := runJQ(bw, code, input, expr)
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

// runJQ writes what code yields for one input; halted reports a `halt`.
func runJQ(bw *bufio.Writer, code *gojq.Code, input any, expr string) (halted bool, err error) {
	iter := code.Run(input)
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
			return false, &UsageError{Flag: "--jq", Problem: fmt.Sprintf("%v (running %q)", err, expr)}
		}
		if s, isStr := v.(string); isStr {
			bw.WriteString(s)
		} else {
			b, _ := gojq.Marshal(v)
			bw.Write(b)
		}
		bw.WriteByte('\n')
	}
	return false, nil
}

// jqInput is the JSON form decoded into the plain values gojq works on;
// numbers stay json.Number so large offsets keep every digit.
func jqInput(result any) (any, error) {
	b, err := marshalJSON(result, false)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decoding result for --jq: %w", err)
	}
	return v, nil
}
