package planner

import (
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// Built-in scalar functions are typed by PostgreSQL's function resolution
// (the "Functions" section of its type conversion chapter), reduced to the
// types widesql has:
//
//  1. keep the overloads of the name with as many parameters as there are
//     arguments (a variadic one takes any number from its fixed part on);
//  2. keep those every argument reaches by an implicit cast (an unknown
//     literal or parameter reaches anything);
//  3. keep those with the most exact type matches, then those with the
//     most arguments that are exact matches or preferred types;
//  4. for unknown arguments, pick the type category the remaining
//     overloads accept there (string if any accepts it) and, if one
//     accepts the category's preferred type, keep only those;
//  5. if the known arguments all have one type, try it for the unknown
//     ones.
//
// One overload left is the answer; none is 42883 "function f(types) does
// not exist", several 42725 "is not unique", as in PostgreSQL. The
// arguments are then coerced to the overload's parameter types, so exec
// sees exactly the declared kinds (integer arguments of round(float8)
// arrive as float8).

// overload is one signature of a built-in function.
type overload struct {
	params []types.T // TUnknown is PostgreSQL's "any": every type, unconverted
	// variadic: the last parameter repeats zero or more times.
	variadic bool
	ret      types.T
	// impl names the evaluation in exec (exec/funcs.go); the function's
	// name when empty.
	impl string
}

// fnCategory is PostgreSQL's typcategory for widesql's kinds.
func fnCategory(k types.Kind) byte {
	switch {
	case k.IsNumeric():
		return 'N'
	case k == types.Text || k == types.BPChar || k == types.Name:
		return 'S'
	case k == types.Date || k == types.Time || k == types.Timestamp || k == types.TimestampTZ:
		return 'D'
	case k == types.Interval:
		return 'T'
	case k == types.Bool:
		return 'B'
	case k == types.Array:
		return 'A'
	case k == types.Unknown:
		return 'X'
	}
	return 'U'
}

// fnPreferred reports whether t is its category's preferred type.
func fnPreferred(t types.T) bool {
	switch t.Kind {
	case types.Float8, types.TimestampTZ, types.Interval, types.Bool:
		return true
	case types.Text:
		return !t.VarChar
	}
	return false
}

// fnNumericRank orders the numeric kinds by PostgreSQL's implicit casts:
// each converts implicitly to every kind of a higher rank.
var fnNumericRank = map[types.Kind]int{
	types.Int2: 1, types.Int4: 2, types.Int8: 3, types.Numeric: 4, types.Float4: 5, types.Float8: 6,
}

// fnImplicitCast reports whether PostgreSQL converts from to to implicitly
// (or needs no conversion).
func fnImplicitCast(from, to types.T) bool {
	switch {
	case to.Kind == types.Unknown, from.Kind == types.Unknown:
		return true
	case from.Kind == to.Kind:
		return from.Kind != types.Array || from.Elem == to.Elem
	case from.Kind.IsNumeric() && to.Kind.IsNumeric():
		return fnNumericRank[from.Kind] < fnNumericRank[to.Kind]
	case from.Kind == types.BPChar && to.Kind == types.Text, from.Kind == types.Text && to.Kind == types.BPChar:
		return true
	case from.Kind == types.Date:
		return to.Kind == types.Timestamp || to.Kind == types.TimestampTZ
	case from.Kind == types.Timestamp:
		return to.Kind == types.TimestampTZ
	case types.ImplicitCatalogCast(from, to): // int -> oid, name -> text, ...
		return true
	}
	return false
}

// exactMatch reports whether an argument of type a needs no conversion to
// parameter p (varchar is text, as PostgreSQL's binary-coercible
// domain-like varchar resolves).
func exactMatch(a, p types.T) bool {
	return a.Kind == p.Kind && a.Kind != types.Unknown && (a.Kind != types.Array || a.Elem == p.Elem)
}

// param returns o's parameter type at argument position i.
func (o *overload) param(i int) types.T {
	if i >= len(o.params) {
		return o.params[len(o.params)-1]
	}
	return o.params[i]
}

func (o *overload) accepts(n int) bool {
	if o.variadic {
		return n >= len(o.params) // PostgreSQL's VARIADIC takes at least one
	}
	return n == len(o.params)
}

// resolveOverload picks the overload of name for arguments of types in.
func resolveOverload(name string, cands []overload, in []types.T) (*overload, error) {
	var live []*overload
	for i := range cands {
		o := &cands[i]
		if !o.accepts(len(in)) {
			continue
		}
		ok := true
		for j, t := range in {
			if !fnImplicitCast(t, o.param(j)) {
				ok = false
				break
			}
		}
		if ok {
			live = append(live, o)
		}
	}
	if len(live) == 1 {
		return live[0], nil
	}
	if len(live) == 0 {
		return nil, noFunction(name, in)
	}
	// Most exact matches, then most exact-or-preferred matches.
	for _, score := range []func(o *overload, j int) bool{
		func(o *overload, j int) bool { return exactMatch(in[j], o.param(j)) },
		func(o *overload, j int) bool {
			return in[j].Kind != types.Unknown && (exactMatch(in[j], o.param(j)) || fnPreferred(o.param(j)))
		},
	} {
		best, keep := -1, live[:0:0]
		for _, o := range live {
			n := 0
			for j := range in {
				if score(o, j) {
					n++
				}
			}
			switch {
			case n > best:
				best, keep = n, append(keep[:0], o)
			case n == best:
				keep = append(keep, o)
			}
		}
		live = keep
		if len(live) == 1 {
			return live[0], nil
		}
	}
	live = byUnknownCategory(live, in)
	if len(live) == 1 {
		return live[0], nil
	}
	if o := byKnownType(live, in); o != nil {
		return o, nil
	}
	return nil, pgerror.New("42725", "function %s(%s) is not unique", name, typeList(in)).
		WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
}

// byUnknownCategory is step 4: at each unknown argument, the category the
// candidates accept (string wins a conflict; any other conflict leaves
// the candidates as they are), and its preferred type if one accepts it.
func byUnknownCategory(live []*overload, in []types.T) []*overload {
	type slot struct {
		cat       byte
		preferred bool
	}
	slots := map[int]slot{}
	for j, t := range in {
		if t.Kind != types.Unknown {
			continue
		}
		s, conflict := slot{}, false
		for _, o := range live {
			p := o.param(j)
			c := fnCategory(p.Kind)
			switch {
			case s.cat == 0:
				s = slot{c, fnPreferred(p)}
			case c == s.cat:
				s.preferred = s.preferred || fnPreferred(p)
			case c == 'S':
				s = slot{c, fnPreferred(p)}
			default:
				conflict = true
			}
		}
		if conflict && s.cat != 'S' {
			return live
		}
		slots[j] = s
	}
	if len(slots) == 0 {
		return live
	}
	var keep []*overload
	for _, o := range live {
		ok := true
		for j, s := range slots {
			p := o.param(j)
			if fnCategory(p.Kind) != s.cat || (s.preferred && !fnPreferred(p)) {
				ok = false
			}
		}
		if ok {
			keep = append(keep, o)
		}
	}
	if len(keep) == 0 {
		return live
	}
	return keep
}

// byKnownType is step 5: when the known arguments share one type, the
// single candidate that takes it at every unknown position.
func byKnownType(live []*overload, in []types.T) *overload {
	var known *types.T
	for j := range in {
		if in[j].Kind == types.Unknown {
			continue
		}
		if known != nil && in[j].Kind != known.Kind {
			return nil
		}
		known = &in[j]
	}
	if known == nil {
		return nil
	}
	var pick *overload
	for _, o := range live {
		ok := true
		for j := range in {
			if in[j].Kind == types.Unknown && !fnImplicitCast(*known, o.param(j)) {
				ok = false
			}
		}
		if ok {
			if pick != nil {
				return nil
			}
			pick = o
		}
	}
	return pick
}

func typeList(in []types.T) string {
	s := make([]string, len(in))
	for i, t := range in {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

// noFunction is PostgreSQL's 42883 for a call no overload matches.
func noFunction(name string, in []types.T) error {
	return pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, typeList(in)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// builtinCall types a call of a built-in function of the catalog in
// build_funcs_catalog.go; ok is false when name is not one of them.
func (b *builder) builtinCall(name string, args []Expr) (e Expr, ok bool, err error) {
	cands, ok := builtins[name]
	if !ok {
		cands, ok = catalogBuiltins[name] // build_funcs_pg.go
	}
	if !ok {
		cands, ok = arrayBuiltins[name] // build_funcs_array.go
	}
	if !ok {
		return nil, false, nil
	}
	in := make([]types.T, len(args))
	for i, a := range args {
		in[i] = a.Type()
	}
	o, err := resolveOverload(name, cands, in)
	if err != nil {
		return nil, true, err
	}
	for i := range args {
		p := o.param(i)
		if p.Kind == types.Unknown {
			args[i] = resolveUnknown(args[i])
			continue
		}
		if args[i], err = b.coerce(args[i], p, ""); err != nil {
			return nil, true, err
		}
	}
	impl := o.impl
	if impl == "" {
		impl = name
	}
	return &Func{Name: impl, Args: args, T: o.ret}, true, nil
}
