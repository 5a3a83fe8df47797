// Package setting lets the deep packages (inspect, plan, check) name the
// setting a message is about — the bootstrap servers, the group id, the TLS
// CA file — without naming a command-line flag. Their messages render with
// plain names; the commands, which know their flags, render them with the
// flag names instead.
package setting

import (
	"errors"
	"fmt"
	"strings"
)

// Setting is one thing an operator can set to reach or read the cluster.
type Setting int

// The settings the deep packages' messages name.
const (
	BootstrapServers Setting = iota + 1
	WorkerConfig
	GroupID
	ConfigTopic
	OffsetTopic
	StatusTopic
	Timeout
	TLS
	TLSCA
	TLSServerName
	SASLMechanism
	SASLUser
	SASLPassword
	// Connection is the connection settings as a whole.
	Connection
	// InputFile is a snapshot or kcat dump read instead of a live cluster.
	InputFile
)

// All lists every setting, for callers that map each to a word.
var All = []Setting{BootstrapServers, WorkerConfig, GroupID, ConfigTopic, OffsetTopic, StatusTopic,
	Timeout, TLS, TLSCA, TLSServerName, SASLMechanism, SASLUser, SASLPassword, Connection, InputFile}

var plain = map[Setting]string{
	BootstrapServers: "the bootstrap servers",
	WorkerConfig:     "the worker config",
	GroupID:          "the group id",
	ConfigTopic:      "the config topic name",
	OffsetTopic:      "the offset topic name",
	StatusTopic:      "the status topic name",
	Timeout:          "the timeout",
	TLS:              "TLS",
	TLSCA:            "the TLS CA file",
	TLSServerName:    "the TLS server name",
	SASLMechanism:    "the SASL mechanism",
	SASLUser:         "the SASL user",
	SASLPassword:     "the SASL password",
	Connection:       "the connection settings",
	InputFile:        "a snapshot or dump file",
}

// String is the setting's plain name.
func (s Setting) String() string {
	if n, ok := plain[s]; ok {
		return n
	}
	return fmt.Sprintf("setting(%d)", int(s))
}

// Namer gives the word for a setting; "" keeps its plain name.
type Namer func(Setting) string

func (n Namer) name(s Setting) string {
	if n != nil {
		if w := n(s); w != "" {
			return w
		}
	}
	return s.String()
}

// Text is a message that may name settings: a format and its arguments, of
// which Setting and Text values are rendered by the caller's Namer.
type Text struct {
	format string
	args   []any
}

// Textf builds a Text as fmt.Sprintf would; Setting arguments are named
// when the Text is rendered.
func Textf(format string, args ...any) Text { return Text{format: format, args: args} }

// Join is the texts one after the other, sep between them.
func Join(texts []Text, sep string) Text {
	args := make([]any, len(texts))
	for i, t := range texts {
		args[i] = t
	}
	sep = strings.ReplaceAll(sep, "%", "%%")
	return Text{format: strings.Repeat("%v"+sep, max(len(texts)-1, 0)) + strings.Repeat("%v", min(len(texts), 1)), args: args}
}

// IsZero reports an empty Text.
func (t Text) IsZero() bool { return t.format == "" }

// String renders t with the settings' plain names.
func (t Text) String() string { return t.With(nil) }

// With renders t naming each setting as n says.
func (t Text) With(n Namer) string { return t.errorf(n).Error() }

// errorf renders t as fmt.Errorf does, so a %w verb keeps its error.
func (t Text) errorf(n Namer) error {
	if t.IsZero() {
		return errors.New("")
	}
	args := make([]any, len(t.args))
	for i, a := range t.args {
		switch v := a.(type) {
		case Setting:
			args[i] = n.name(v)
		case Text:
			args[i] = v.With(n)
		case Worded:
			args[i] = named{v, n}
		default:
			args[i] = a
		}
	}
	return fmt.Errorf(t.format, args...)
}

// Worded is an error whose message names settings and can be rendered with
// the caller's words for them.
type Worded interface {
	error
	ErrorWith(n Namer) string
}

// Error is an error whose message names settings.
type Error struct {
	text Text
	err  error // what a %w in the format wraps
}

// Errorf returns an *Error; format may wrap an error with %w.
func Errorf(format string, args ...any) *Error {
	t := Textf(format, args...)
	return &Error{text: t, err: errors.Unwrap(t.errorf(nil))}
}

func (e *Error) Error() string { return e.text.String() }

// ErrorWith renders the message naming each setting as n says.
func (e *Error) ErrorWith(n Namer) string { return e.text.With(n) }

// Unwrap returns the error the message wraps, if any.
func (e *Error) Unwrap() error { return e.err }

// named is a Worded error rendered with a Namer, still wrapping it.
type named struct {
	Worded
	n Namer
}

func (e named) Error() string { return e.ErrorWith(e.n) }
func (e named) Unwrap() error { return e.Worded }

// Words is err's message with the settings named as n says: the outermost
// Worded error in the chain is rendered with n inside the text that wraps
// it.
func Words(err error, n Namer) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	var w Worded
	if !errors.As(err, &w) {
		return msg
	}
	return strings.Replace(msg, w.Error(), w.ErrorWith(n), 1)
}
