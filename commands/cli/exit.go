package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// Exit statuses, as the README documents them.
const (
	ExitOK       = 0 // the command did what was asked
	ExitFindings = 1 // a check found something at or above --fail-on
	ExitUsage    = 2 // bad flag, argument, expression or input content
	ExitInput    = 3 // input could not be read: missing file, connection, authentication
	// ExitNotFound is a connector, group or worker asked for by name that the
	// input does not hold (kubectl's NotFound; 1 is taken by findings).
	ExitNotFound = 4
	// ExitInterrupted is 128+SIGINT, what shells report for a command stopped by Ctrl-C.
	ExitInterrupted = 130
)

// ExitError is an error that carries its exit status. It implements urfave's
// urfave.ExitCoder; Main turns it into one line on stderr and the status.
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

// NotFoundErrorf is a thing asked for by name that is not there (exit 4).
func NotFoundErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitNotFound, Err: fmt.Errorf(format, args...)}
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
	var coder urfave.ExitCoder
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

// settingFlags are the flags behind the settings the deep packages' messages
// name (setting.Text, setting.Worded): they name the setting, commands the
// flag (FlagName words it).
var settingFlags = map[setting.Setting]string{
	setting.BootstrapServers: FlagBootstrap,
	setting.WorkerConfig:     FlagWorkerConfig,
	setting.GroupID:          FlagGroup,
	setting.ConfigTopic:      FlagConfigTopic,
	setting.OffsetTopic:      FlagOffsetTopic,
	setting.StatusTopic:      FlagStatusTopic,
	setting.Timeout:          FlagTimeout,
	setting.TLS:              FlagTLS,
	setting.TLSCA:            FlagTLSCA,
	setting.TLSServerName:    FlagTLSServerName,
	setting.SASLMechanism:    FlagSASLMechanism,
	setting.SASLUser:         FlagSASLUser,
	setting.SASLPassword:     FlagSASLPassword,
	setting.InputFile:        FlagFrom,
}

// ErrorLine is the one line Main prints for err, the settings its deep
// packages name given as the flags that set them. Errors carry text from
// the cluster (connector and worker names, values, traces): the line is
// redacted as outputs are, and escaped for the terminal with each overlong
// word shortened, so no name can retitle, clear or reorder the screen.
func ErrorLine(err error) string {
	return format.EscapeLine(views.RedactText(oneLine(setting.Words(err, FlagName))))
}

// FlagWordsError is an error of a deep package reworded with the flags the
// user typed; the original stays reachable with errors.As.
type FlagWordsError struct {
	Msg string
	Err error
}

func (e *FlagWordsError) Error() string { return e.Msg }
func (e *FlagWordsError) Unwrap() error { return e.Err }

// inFlagTerms rewords an error naming one of a deep package's inputs
// (field.Error) so that it names the verb's flag behind it (inputs, from the
// verb's Spec), keeping its exit status; other errors pass unchanged.
func inFlagTerms(err error, inputs map[string]string) error {
	var fe *field.Error
	var done *FlagWordsError
	if err == nil || errors.As(err, &done) || !errors.As(err, &fe) || inputs[fe.Name] == "" {
		return err
	}
	code, _ := exitStatus(err)
	return Exit(code, &FlagWordsError{Msg: "--" + inputs[fe.Name] + fe.Detail, Err: err})
}

// FlagName is the setting.Namer of the command line: the flag that sets a
// connection setting, after its short form when it has one
// (-b/--bootstrap-server); the connection as a whole is the connection flags.
func FlagName(s setting.Setting) string {
	name, ok := settingFlags[s]
	switch {
	case s == setting.Connection:
		return "the connection flags"
	case !ok:
		return ""
	}
	for _, f := range globalFlagsHelpOnly() {
		if names := f.Names(); names[0] == name && len(names) > 1 {
			return "-" + names[1] + "/--" + name
		}
	}
	return "--" + name
}

// NotFound carries a not-found error with its exit status.
func NotFound(err error) error { return Exit(ExitNotFound, err) }

// IsInputError is an error with the unreadable-input status (3).
func IsInputError(err error) bool {
	code, _ := exitStatus(err)
	return code == ExitInput
}

// ExitCode is the exit status Run gives err.
func ExitCode(err error) int {
	code, _ := exitStatus(err)
	return code
}
