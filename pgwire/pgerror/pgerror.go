// Package pgerror carries PostgreSQL SQLSTATEs from where an error is born to
// the wire. It is a leaf package: every layer above kv may import it.
//
// An error is created with its SQLSTATE at the place that knows what went
// wrong (the lexer knows 42601, the catalog knows 42P01) and flattened once,
// in pgwire, into an ErrorResponse. Code never matches message text.
package pgerror

import (
	"errors"
	"fmt"
)

// SQLSTATE codes used by widesql. Names follow PostgreSQL's errcodes.txt.
const (
	CodeSuccessfulCompletion         = "00000"
	CodeWarning                      = "01000"
	CodeConnectionException          = "08000"
	CodeProtocolViolation            = "08P01"
	CodeFeatureNotSupported          = "0A000"
	CodeCardinalityViolation         = "21000"
	CodeDataException                = "22000"
	CodeStringDataRightTruncation    = "22001"
	CodeNumericValueOutOfRange       = "22003"
	CodeInvalidDatetimeFormat        = "22007"
	CodeDatetimeFieldOverflow        = "22008"
	CodeDivisionByZero               = "22012"
	CodeInvalidParameterValue        = "22023"
	CodeNullValueNotAllowed          = "22004"
	CodeInvalidTextRepresentation    = "22P02"
	CodeInvalidBinaryRepresentation  = "22P03"
	CodeIntegrityConstraintViolation = "23000"
	CodeNotNullViolation             = "23502"
	CodeUniqueViolation              = "23505"
	CodeInvalidCursorState           = "24000"
	CodeInvalidTransactionState      = "25000"
	CodeInFailedSQLTransaction       = "25P02"
	CodeInvalidSQLStatementName      = "26000"
	CodeInvalidCursorName            = "34000"
	CodeInvalidSchemaName            = "3F000"
	CodeSyntaxError                  = "42601"
	CodeUndefinedColumn              = "42703"
	CodeUndefinedFunction            = "42883"
	CodeUndefinedTable               = "42P01"
	CodeUndefinedParameter           = "42P02"
	CodeUndefinedObject              = "42704"
	CodeDuplicateColumn              = "42701"
	CodeDuplicateTable               = "42P07"
	CodeDuplicatePreparedStatement   = "42P05"
	CodeDuplicateCursor              = "42P03"
	CodeInvalidCursorDefinition      = "42P11"
	CodeAmbiguousColumn              = "42702"
	CodeDatatypeMismatch             = "42804"
	CodeGroupingError                = "42803"
	CodeWindowingError               = "42P20"
	CodeInvalidRecursion             = "42P19"
	CodeAmbiguousAlias               = "42P09"
	CodeDuplicateAlias               = "42712"
	CodeWrongObjectType              = "42809"
	CodeObjectNotInPrerequisiteState = "55000"
	CodeSnapshotTooOld               = "72000"
	CodeInvalidColumnReference       = "42P10"
	CodeIndeterminateDatatype        = "42P18"
	CodeInvalidTableDefinition       = "42P16"
	CodeInvalidObjectDefinition      = "42P17"
	CodeInvalidParameterType         = "42P18"
	CodeQueryCanceled                = "57014"
	CodeAdminShutdown                = "57P01"
	CodeInternalError                = "XX000"
	CodeDataCorrupted                = "XX001"
	CodeDiskFull                     = "53100"
	CodeIOError                      = "58030"

	// Transactions and settings.
	CodeActiveSQLTransaction          = "25001"
	CodeReadOnlySQLTransaction        = "25006"
	CodeNoActiveSQLTransaction        = "25P01"
	CodeInvalidSavepointSpecification = "3B001"
	CodeSerializationFailure          = "40001"
	CodeProgramLimitExceeded          = "54000"
	CodeCantChangeRuntimeParam        = "55P02"
)

// Error is an error with a SQLSTATE and the optional fields of a PostgreSQL
// ErrorResponse. Position is 1-based in characters of the client's original
// query text, 0 when unknown.
type Error struct {
	Code    string
	Message string
	Detail  string
	Hint    string
	// Where is the context PostgreSQL's CONTEXT line shows (COPY t, line
	// 3, column b: "x").
	Where      string
	Position   int
	Constraint string
	Table      string
	Column     string
	cause      error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the wrapped cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// New returns an error with the given SQLSTATE and a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap attaches a SQLSTATE to cause, keeping it reachable through errors.Is/As.
// The message is msg followed by the cause's message.
func Wrap(cause error, code, msg string) *Error {
	m := cause.Error()
	if msg != "" {
		m = msg + ": " + m
	}
	return &Error{Code: code, Message: m, cause: cause}
}

// WithDetail returns e with Detail set.
func (e *Error) WithDetail(format string, args ...any) *Error {
	e.Detail = fmt.Sprintf(format, args...)
	return e
}

// WithHint returns e with Hint set.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// WithPosition returns e with Position set (1-based, in characters).
func (e *Error) WithPosition(pos int) *Error {
	e.Position = pos
	return e
}

// Unimplemented returns a 0A000 error naming the unsupported feature.
func Unimplemented(feature string) *Error {
	return New(CodeFeatureNotSupported, "not supported: %s", feature)
}

// Flatten returns the *Error in err's chain, or an XX000 error wrapping err
// when none carries a SQLSTATE. It returns nil for a nil err.
func Flatten(err error) *Error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return &Error{Code: CodeInternalError, Message: err.Error(), cause: err}
}

// CodeOf returns err's SQLSTATE, XX000 for an error without one, and "" for nil.
func CodeOf(err error) string {
	if err == nil {
		return ""
	}
	return Flatten(err).Code
}
