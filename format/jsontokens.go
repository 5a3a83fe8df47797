package format

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// jsonTokens is what the YAML writer and --jq read JSON through:
// json.Decoder's Token and More, which jsonScanner gives faster.
type jsonTokens interface {
	Token() (json.Token, error)
	More() bool
}

// jsonScanner reads the tokens of JSON text as json.Decoder's Token does
// (strings unquoted, numbers as json.Number, commas and colons passed
// over), for text that is valid JSON: the compact form streamJSONForm
// writes. Decoder.Token allocated every token and took half of -o yaml's
// time; this reads strings without escapes in place. It checks less than
// the Decoder (a misplaced comma passes), so it reads only our own JSON.
type jsonScanner struct {
	r   *bufio.Reader
	err error  // the first read error; every later call returns it
	buf []byte // a string longer than the reader's buffer, gathered
}

func newJSONScanner(r *bufio.Reader) *jsonScanner { return &jsonScanner{r: r} }

// compactTokens reads result's compact JSON form as tokens while it is
// written (streamJSONForm, in its own goroutine), never holding it whole.
// ctx ends the writing at its next write; stop ends it for a reader that
// stops early.
func compactTokens(ctx context.Context, result any) (tokens *jsonScanner, stop func()) {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(streamJSONForm(cancelWriter{ctx, pw}, result, false)) }()
	return newJSONScanner(bufio.NewReaderSize(pr, 64<<10)), func() { pr.Close() }
}

// skip passes white space, commas and colons, and reports the next byte
// without reading it.
func (s *jsonScanner) skip() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r', ',', ':':
			continue
		}
		return c, s.r.UnreadByte()
	}
}

// More reports whether the current array or object has another element.
func (s *jsonScanner) More() bool {
	if s.err != nil {
		return false
	}
	c, err := s.skip()
	return err == nil && c != ']' && c != '}'
}

// Token returns the next token: json.Delim, string, json.Number, bool or
// nil, as json.Decoder's Token does.
func (s *jsonScanner) Token() (json.Token, error) {
	if s.err != nil {
		return nil, s.err
	}
	tok, err := s.token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			// Asked for a token, the text has none left: the writer
			// stopped short (no caller reads past the value's end).
			err = io.ErrUnexpectedEOF
		}
		s.err = err
	}
	return tok, err
}

func (s *jsonScanner) token() (json.Token, error) {
	c, err := s.skip()
	if err != nil {
		return nil, err
	}
	switch {
	case c == '{' || c == '}' || c == '[' || c == ']':
		s.r.ReadByte()
		return json.Delim(c), nil
	case c == '"':
		s.r.ReadByte()
		return s.str()
	case c == 't':
		return true, s.literal("true")
	case c == 'f':
		return false, s.literal("false")
	case c == 'n':
		return nil, s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return nil, fmt.Errorf("invalid character %q looking for the beginning of a value", c)
}

func (s *jsonScanner) literal(word string) error {
	for i := 0; i < len(word); i++ {
		c, err := s.r.ReadByte()
		if err != nil {
			return err
		}
		if c != word[i] {
			return fmt.Errorf("invalid character %q in literal %s", c, word)
		}
	}
	return nil
}

func (s *jsonScanner) number() (json.Token, error) {
	s.buf = s.buf[:0]
	for {
		c, err := s.r.ReadByte()
		if errors.Is(err, io.EOF) {
			break // a number that is the whole text
		}
		if err != nil {
			return nil, err
		}
		if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			s.r.UnreadByte()
			break
		}
		s.buf = append(s.buf, c)
	}
	if last := s.buf[len(s.buf)-1]; last < '0' || last > '9' {
		return nil, fmt.Errorf("invalid number %q", s.buf)
	}
	return json.Number(s.buf), nil
}

// str reads a string whose opening quote is read: in place when it holds
// no escape and is UTF-8, else through encoding/json (which writes U+FFFD
// for a byte that is not).
func (s *jsonScanner) str() (json.Token, error) {
	s.buf = append(s.buf[:0], '"')
	escaped := false
	for {
		chunk, err := s.r.ReadSlice('"')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		s.buf = append(s.buf, chunk...)
		escaped = escaped || bytes.IndexByte(chunk, '\\') >= 0
		if err != nil {
			continue // longer than the reader's buffer
		}
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		backslashes := 0
		for i := len(s.buf) - 2; i >= 0 && s.buf[i] == '\\'; i-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			break
		}
	}
	if body := s.buf[1 : len(s.buf)-1]; !escaped && utf8.Valid(body) {
		return string(body), nil
	}
	var out string
	if err := json.Unmarshal(s.buf, &out); err != nil {
		return nil, err
	}
	return out, nil
}
