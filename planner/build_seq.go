package planner

import (
	"github.com/widesql/widesql/planner/types"
)

// seqFuncs are the sequence functions, by name: argument types and result.
var seqFuncs = map[string]struct {
	args []types.T
	opt  int // trailing optional arguments
	res  types.T
}{
	"nextval":                {args: []types.T{types.TText}, res: types.TInt8},
	"currval":                {args: []types.T{types.TText}, res: types.TInt8},
	"setval":                 {args: []types.T{types.TText, types.TInt8, types.TBool}, opt: 1, res: types.TInt8},
	"lastval":                {res: types.TInt8},
	"pg_get_serial_sequence": {args: []types.T{types.TText, types.TText}, res: types.TText},
}

// seqFunc types a call of a sequence function. It reports false when name
// is not one, or the arguments do not fit (the caller then reports 42883).
// Sequences are named by text ('t_id_seq'); exec resolves the name.
func (b *builder) seqFunc(name string, args []Expr) (Expr, bool, error) {
	f, ok := seqFuncs[name]
	if !ok || len(args) > len(f.args) || len(args) < len(f.args)-f.opt {
		return nil, false, nil
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		if a.Type().Kind != types.Unknown && a.Type().Kind != f.args[i].Kind &&
			!(a.Type().Kind.IsNumeric() && f.args[i].Kind.IsNumeric()) {
			return nil, false, nil
		}
		e, err := b.coerce(a, f.args[i], name)
		if err != nil {
			return nil, false, err
		}
		out[i] = e
	}
	return &Func{Name: name, Args: out, T: f.res}, true, nil
}
