package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/internal/field"
	"github.com/connectscope/connectscope/plan"
	"github.com/urfave/cli/v2"
)

// Exit statuses, as the README documents them.
const (
	ExitOK       = 0 // the command did what was asked
	ExitFindings = 1 // a check found something at or above --fail-on
	ExitUsage    = 2 // bad flag, argument, expression or input content
	ExitInput    = 3 // input could not be read: missing file, connection, authentication
	// ExitInterrupted is 128+SIGINT, what shells report for a command stopped by Ctrl-C.
	ExitInterrupted = 130
)

// ExitError is an error that carries its exit status. It implements urfave's
// cli.ExitCoder; Main turns it into one line on stderr and the status.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }
func (e *ExitError) ExitCode() int { return e.Code }

// Exit wraps err with an exit status; a nil err stays nil.
func Exit(code int, err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: code, Err: err}
}

// UsageErrorf is an error in how the command was called (exit 2).
func UsageErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// InputError is input that could not be read (exit 3).
func InputError(err error) error { return Exit(ExitInput, err) }

// exitStatus maps any error a command returned to its exit status and says
// whether the message should point at the command's help.
func exitStatus(err error) (code int, usage bool) {
	if err == nil {
		return ExitOK, false
	}
	var fe *format.UsageError
	if errors.As(err, &fe) {
		return ExitUsage, true
	}
	var ours *ExitError
	if errors.As(err, &ours) {
		return ours.Code, ours.Code == ExitUsage
	}
	var coder cli.ExitCoder
	if errors.As(err, &coder) {
		// urfave's own exits: "No help topic for 'x'" is an unknown command.
		if strings.HasPrefix(err.Error(), "No help topic for") {
			return ExitUsage, true
		}
		return coder.ExitCode(), coder.ExitCode() == ExitUsage
	}
	if strings.HasPrefix(err.Error(), "Required flag") {
		return ExitUsage, true
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return ExitInput, false
	}
	// Anything else stopped the command while it read or worked on its input.
	return ExitInput, false
}

// oneLine keeps the promise that an error is one line on stderr.
func oneLine(msg string) string {
	msg = strings.TrimSpace(msg)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ")), " ")
	}
	return msg
}

// inputFlags are the flags that give the deep packages' named inputs
// (field.Error names): check and plan name their inputs, commands name the
// flags.
var inputFlags = map[string]string{
	"Target":       flagTarget,
	"ExactlyOnce":  flagExactlyOnce,
	"NewWorkers":   "add",
	"Worker":       "worker",
	"ReturnsAfter": "returns-after",
	"Stop":         flagStop,
	"Set":          "set",
	"Add":          "add",
	"Remove":       "remove",
	"RestartTime":  "restart-time",
	"Order":        "order",
}

// flagWordsError is an error of a deep package reworded with the flags the
// user typed; the original stays reachable with errors.As.
type flagWordsError struct {
	msg string
	err error
}

func (e *flagWordsError) Error() string { return e.msg }
func (e *flagWordsError) Unwrap() error { return e.err }

// inFlagTerms rewords an error of check or plan so that it names the
// command-line flags behind the inputs it is about; other errors pass
// unchanged.
func inFlagTerms(err error) error {
	var fe *field.Error
	var se *plan.SyntheticError
	var ss *plan.StartingStateError
	switch {
	case errors.As(err, &fe) && inputFlags[fe.Name] != "":
		return &flagWordsError{msg: "--" + inputFlags[fe.Name] + fe.Detail, err: err}
	case errors.As(err, &se):
		return &flagWordsError{msg: "--" + flagSynthetic + ": " + se.Problem(), err: err}
	case errors.As(err, &ss):
		return &flagWordsError{msg: ss.Msg + " (--" + flagSynthetic + ")", err: err}
	case errors.Is(err, plan.ErrNothingToChange):
		return &flagWordsError{msg: "nothing to change: give --set, --add or --remove", err: err}
	}
	return err
}
