// Package field lets the deep packages (check, plan) say which of their
// inputs an error is about without naming a command-line flag: the error
// names the input (the Go field or parameter), and the commands, which know
// their flags, put the flag's name in its place.
package field

import (
	"errors"
	"fmt"
)

// Error is a problem with one named input. Its text is Name followed by
// Detail (which starts with ": " or " ").
type Error struct {
	Name   string
	Detail string
	err    error
}

// Errorf returns an *Error for input name; format gives Detail and may wrap
// an error with %w.
func Errorf(name, format string, args ...any) *Error {
	e := fmt.Errorf(format, args...)
	return &Error{Name: name, Detail: e.Error(), err: errors.Unwrap(e)}
}

func (e *Error) Error() string { return e.Name + e.Detail }

// Unwrap returns the error Detail wraps, if any.
func (e *Error) Unwrap() error { return e.err }
