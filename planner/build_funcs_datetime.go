package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// sqlTimeValue types the SQL-standard current-time keywords. They read
// the statement's start (exec's env.now), as PostgreSQL's do the
// transaction's; an optional precision (the parser allows only an
// unsigned integer literal) rounds the fraction to that many digits, and
// above 6 is 6 (PostgreSQL warns).
//
//	CURRENT_TIMESTAMP[(p)]  timestamptz   -> now
//	LOCALTIMESTAMP[(p)]     timestamp     -> localtimestamp
//	LOCALTIME[(p)]          time          -> localtime
//	CURRENT_TIME[(p)]       time with time zone: not supported (0A000)
func (b *builder) sqlTimeValue(name string, args []Expr) (Expr, error) {
	if name == "current_time" {
		return nil, pgerror.Unimplemented("CURRENT_TIME (type time with time zone)").
			WithHint("Use LOCALTIME, or CURRENT_TIMESTAMP for the time zone.")
	}
	t := map[string]types.T{"current_timestamp": types.TTimestampTZ, "localtimestamp": types.TTimestamp, "localtime": types.TTime}[name]
	impl := name
	if name == "current_timestamp" {
		impl = "now"
	}
	switch len(args) {
	case 0:
		return &Func{Name: impl, T: t}, nil
	case 1:
		c, ok := args[0].(*Const)
		if !ok || !c.T.Kind.IsInt() {
			break
		}
		p := c.D.I
		if p > 6 {
			p = 6
		}
		return &Func{Name: impl, Args: []Expr{&Const{D: types.NewInt(types.Int4, p), T: types.TInt4}}, T: t}, nil
	}
	return nil, pgerror.New(pgerror.CodeSyntaxError, "syntax error at or near \"(\"")
}
