package sqlparse

// tableConstraintWords start a CREATE TABLE element or ALTER TABLE ADD
// target that is not a column definition.
var tableConstraintWords = map[string]bool{
	"constraint": true, "primary": true, "unique": true, "foreign": true, "check": true,
	"exclude": true, "like": true, // PostgreSQL has no MySQL-style KEY or INDEX elements
}

// rewriteDDLTypes replaces the PostgreSQL column types of CREATE TABLE and
// ALTER TABLE ... ADD [COLUMN] with the TiDB types of the doc.go table, and
// cuts out what TiDB does not parse (DEFAULT expressions, serial types,
// GENERATED ... AS IDENTITY) into extras, keyed by column name (nil if
// none). Other statements are returned unchanged.
func rewriteDDLTypes(src string, toks []token) (_ []token, extras map[string]*ColumnExtra, err error) {
	if len(toks) < 3 || !(toks[0].is("create") || toks[0].is("alter")) {
		return toks, nil, nil
	}
	extras = map[string]*ColumnExtra{}
	defer func() {
		if len(extras) == 0 {
			extras = nil
		}
	}()
	i := 1
	for i < len(toks) && (toks[i].is("temp") || toks[i].is("temporary") || toks[i].is("unlogged") ||
		toks[i].is("global") || toks[i].is("local")) {
		i++
	}
	if i >= len(toks) || !toks[i].is("table") {
		return toks, nil, nil
	}
	out := append([]token(nil), toks[:i+1]...)
	rest := toks[i+1:]
	if toks[0].is("create") {
		// Elements are the depth-1 comma-separated items of the first (...).
		depth, elemStart := 0, false
		for j := 0; j < len(rest); j++ {
			t := rest[j]
			if depth == 1 && elemStart {
				elemStart = false
				var k int
				if k, out, err = columnDef(src, rest, j, out, extras); err != nil {
					return nil, nil, err
				}
				if k > j {
					j = k - 1
					continue
				}
			}
			switch {
			case t.isOp("("):
				depth++
				elemStart = depth == 1
			case t.isOp(")"):
				depth--
			case t.isOp(",") && depth == 1:
				elemStart = true
			}
			out = append(out, t)
		}
		return wrapKeyCalls(out), extras, nil
	}
	depth := 0
	for j := 0; j < len(rest); j++ {
		t := rest[j]
		out = append(out, t)
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case depth == 0 && t.is("add"):
			k := j + 1
			if k < len(rest) && rest[k].is("column") {
				out = append(out, rest[k])
				k++
			}
			if k+2 < len(rest) && rest[k].is("if") && rest[k+1].is("not") && rest[k+2].is("exists") {
				out = append(out, rest[k:k+3]...)
				k += 3
			}
			var next int
			if next, out, err = columnDef(src, rest, k, out, extras); err != nil {
				return nil, nil, err
			}
			j = next - 1
		}
	}
	return out, extras, nil
}

// columnDef handles a column definition starting at toks[j]: it appends the
// name, the rewritten type and the column constraints TiDB understands to out
// and returns the index after the definition; serial, DEFAULT and identity go
// to extras. When toks[j] does not start a column definition it returns j, out.
func columnDef(src string, toks []token, j int, out []token, extras map[string]*ColumnExtra) (int, []token, error) {
	if j >= len(toks) || (toks[j].kind != tkIdent && toks[j].kind != tkQIdent) || tableConstraintWords[toks[j].val] && toks[j].kind == tkIdent {
		return j, out, nil
	}
	k := j + 1
	if k+1 < len(toks) && toks[k].isOp(".") { // Phoenix-style fam.col
		k += 2
	}
	ty, next, ok := parseTypeName(toks, k)
	if !ok {
		return j, out, nil
	}
	var ex ColumnExtra
	if base, ok := serialTypes[ty.base]; ok && len(ty.mods) == 0 && ty.array == 0 {
		ex.Serial, ty = ty.base, pgTypeName{base: base}
	}
	tidb, err := ddlType(ty)
	if err != nil {
		return 0, nil, err.WithPosition(charPos(src, toks[k].pos))
	}
	if next < len(toks) && (toks[next].is("unsigned") || toks[next].is("signed") || toks[next].is("zerofill")) {
		return 0, nil, syntaxErrorAt(src, toks[next].pos, toks[next].end)
	}
	out = append(out, toks[j:k]...)
	out = append(out, synth(tidb, toks[k]))
	next, out, err2 := columnConstraints(src, toks, next, out, &ex)
	if err2 != nil {
		return 0, nil, err2
	}
	if ex != (ColumnExtra{}) {
		extras[toks[k-1].val] = &ex
	}
	return next, out, nil
}

// wrapKeyCalls parenthesizes the function calls written as key parts of a
// table's PRIMARY KEY (md5(a), b): PostgreSQL's CREATE INDEX accepts a bare
// call as a key expression, TiDB only a parenthesized one, so both spellings
// come out as IndexPartSpecification.Expr.
func wrapKeyCalls(toks []token) []token {
	for j := 0; j+2 < len(toks); j++ {
		if !toks[j].is("primary") || !toks[j+1].is("key") || !toks[j+2].isOp("(") {
			continue
		}
		out := append([]token(nil), toks[:j+3]...)
		k, depth, start := j+3, 1, true
		for ; k < len(toks) && depth > 0; k++ {
			t := toks[k]
			if start && depth == 1 {
				if end := keyCallEnd(toks, k); end > 0 {
					out = append(out, synth("(", t))
					out = append(out, toks[k:end]...)
					out = append(out, synthGlued(")", toks[end-1]))
					k = end - 1
					start = false
					continue
				}
			}
			start = false
			switch {
			case t.isOp("("):
				depth++
			case t.isOp(")"):
				depth--
			case t.isOp(",") && depth == 1:
				start = true
			}
			out = append(out, t)
		}
		return append(out, toks[k:]...)
	}
	return toks
}

// keyCallEnd returns the index after a call name[.name](...) starting at
// toks[k], or 0 if none starts there.
func keyCallEnd(toks []token, k int) int {
	isWord := func(i int) bool { return i < len(toks) && (toks[i].kind == tkIdent || toks[i].kind == tkQIdent) }
	if !isWord(k) {
		return 0
	}
	k++
	for k+1 < len(toks) && toks[k].isOp(".") && isWord(k+1) {
		k += 2
	}
	if k >= len(toks) || !toks[k].isOp("(") {
		return 0
	}
	depth := 0
	for ; k < len(toks); k++ {
		switch {
		case toks[k].isOp("("):
			depth++
		case toks[k].isOp(")"):
			if depth--; depth == 0 {
				return k + 1
			}
		}
	}
	return 0
}
