package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

// copyStmt plans COPY ... FROM STDIN into a CopyFrom and COPY ... TO
// STDOUT into a CopyTo, with PostgreSQL's checks and SQLSTATEs in its
// order: file access first, then the relation and columns, then the
// options.
func (b *builder) copyStmt(s *sqlparse.CopyStmt) (Plan, error) {
	if s.File != "" || s.Program {
		return nil, copyPrivilegeError(s)
	}
	if s.Where > 0 {
		return nil, pgerror.Unimplemented("COPY FROM ... WHERE").WithPosition(s.Where)
	}
	if s.From {
		return b.copyFrom(s)
	}
	return b.copyTo(s)
}

// copyPrivilegeError is PostgreSQL's answer to a role that may not read or
// write the server's files: widesql never lets a client do that.
func copyPrivilegeError(s *sqlparse.CopyStmt) error {
	msg := "must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an external program"
	switch {
	case s.Program:
	case s.From:
		msg = "must be superuser or have privileges of the pg_read_server_files role to COPY from a file"
	default:
		msg = "must be superuser or have privileges of the pg_write_server_files role to COPY to a file"
	}
	return pgerror.New(codeInsufficientPrivilege, "%s", msg).
		WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.")
}

func (b *builder) copyTable(name string) (*TableDesc, error) {
	schema, rel := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		schema, rel = name[:i], name[i+1:]
	}
	return b.lookupTable(schema, rel)
}

// copyColumns resolves a COPY column list (all visible columns when none
// was written) to column indexes.
func copyColumns(t *TableDesc, names []string) ([]int, error) {
	if names == nil {
		return t.Visible(), nil
	}
	out := make([]int, 0, len(names))
	seen := map[int]bool{}
	for _, n := range names {
		i := t.ColumnIndex(n)
		if i < 0 {
			return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", n, t.Name)
		}
		if seen[i] {
			return nil, pgerror.New(pgerror.CodeDuplicateColumn, "column %q specified more than once", n)
		}
		seen[i] = true
		out = append(out, i)
	}
	return out, nil
}

func (b *builder) copyFrom(s *sqlparse.CopyStmt) (Plan, error) {
	t, err := b.copyTable(s.Table)
	if err != nil {
		return nil, err
	}
	if t.Virtual != "" {
		return nil, pgerror.New(pgerror.CodeWrongObjectType, "cannot copy to view %q", t.Name)
	}
	targets, err := copyColumns(t, s.Columns)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(targets))
	for j, i := range targets {
		names[j] = t.Columns[i].Name
	}
	f, err := copyFormat(s, names, func(n string) bool { return t.ColumnIndex(n) >= 0 }, t.Name)
	if err != nil {
		return nil, err
	}
	cp := &CopyFrom{Table: t, Targets: targets, Fill: make([]Expr, len(t.Columns)), Format: f}
	isTarget := map[int]bool{}
	for _, i := range targets {
		isTarget[i] = true
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		if isTarget[i] || c.Hidden {
			continue
		}
		if cp.Fill[i], err = b.defaultExpr(c); err != nil { // build_insert.go
			return nil, err
		}
	}
	return cp, nil
}

func (b *builder) copyTo(s *sqlparse.CopyStmt) (Plan, error) {
	q := s.Query
	if q == nil {
		t, err := b.copyTable(s.Table)
		if err != nil {
			return nil, err
		}
		cols, err := copyColumns(t, s.Columns)
		if err != nil {
			return nil, err
		}
		var sb strings.Builder
		sb.WriteString("SELECT ")
		for j, i := range cols {
			if j > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(copyQuote(t.Columns[i].Name))
		}
		sb.WriteString(" FROM ")
		for k, part := range strings.Split(s.Table, ".") {
			if k > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(copyQuote(part))
		}
		stmts, err := sqlparse.Parse(sb.String())
		if err != nil {
			return nil, err
		}
		q = &stmts[0]
	}
	switch q.AST.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		if q.Returning == nil {
			return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "COPY query must have a RETURNING clause")
		}
		return nil, pgerror.Unimplemented("COPY (INSERT/UPDATE/DELETE ... RETURNING) TO")
	default:
		return nil, pgerror.New(pgerror.CodeSyntaxError, "COPY (query) TO requires a SELECT statement")
	}
	b.columnAliases = q.ColumnAliases
	b.writeTimes = callsWriteTime(q.AST) // build_writetime.go
	plan, err := b.stmt(q)
	if err != nil {
		return nil, err
	}
	cols := plan.Columns()
	names := make([]string, len(cols))
	for j, c := range cols {
		names[j] = c.Name
	}
	f, err := copyFormat(s, names, nil, s.Table)
	if err != nil {
		return nil, err
	}
	return &CopyTo{Query: plan, Format: f}, nil
}

// copyQuote double-quotes an identifier for the SQL text COPY t TO builds.
func copyQuote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// copyFormat checks COPY's options as PostgreSQL's ProcessCopyOptions
// does, in its order and with its SQLSTATEs, and resolves the FORCE_*
// column lists against names, the data columns. known reports whether a
// name not in names is a column of the relation (42P10 then, else 42703);
// it is nil for a query.
func copyFormat(s *sqlparse.CopyStmt, names []string, known func(string) bool, rel string) (CopyFormat, error) {
	var f CopyFormat
	seen := map[string]bool{}
	var format, delim, null, quote, escape *string
	var forceQuote, forceNotNull, forceNull *sqlparse.CopyOption
	str := func(o *sqlparse.CopyOption) (*string, error) {
		if !o.HasValue || o.IsList || o.Star {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "%s requires a parameter", o.Name).WithPosition(o.Pos)
		}
		v := o.Value
		return &v, nil
	}
	for k := range s.Options {
		o := &s.Options[k]
		if seen[o.Name] {
			return f, pgerror.New(pgerror.CodeSyntaxError, "conflicting or redundant options").WithPosition(o.Pos)
		}
		seen[o.Name] = true
		var err error
		switch o.Name {
		case "format":
			if format, err = str(o); err == nil {
				v := strings.ToLower(*format)
				switch v {
				case "text", "csv", "binary":
					format = &v
				default:
					return f, pgerror.New(pgerror.CodeInvalidParameterValue, "COPY format \"%s\" not recognized", *format).WithPosition(o.Pos)
				}
			}
		case "freeze":
			// A load hint: there is no visibility map to skip here.
		case "delimiter":
			delim, err = str(o)
		case "null":
			null, err = str(o)
		case "header":
			switch v := strings.ToLower(o.Value); {
			case !o.HasValue || v == "true" || v == "on" || v == "1" || v == "t" || v == "yes":
				f.Header = true
			case v == "false" || v == "off" || v == "0" || v == "f" || v == "no":
			case v == "match":
				f.Header, f.HeaderMatch = true, true
			default:
				return f, pgerror.New(pgerror.CodeSyntaxError, "header requires a Boolean value or \"match\"")
			}
		case "quote":
			quote, err = str(o)
		case "escape":
			escape, err = str(o)
		case "force_quote", "force_not_null", "force_null":
			if !o.IsList && !(o.Star && o.Name == "force_quote") {
				return f, pgerror.New(pgerror.CodeInvalidParameterValue, "argument to option \"%s\" must be a list of column names", o.Name).WithPosition(o.Pos)
			}
			switch o.Name {
			case "force_quote":
				forceQuote = o
			case "force_not_null":
				forceNotNull = o
			default:
				forceNull = o
			}
		case "encoding":
			var enc *string
			if enc, err = str(o); err == nil {
				switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(*enc)) {
				case "utf8", "unicode", "sqlascii":
				case "latin1", "latin2", "latin9", "win1252", "win1251", "euc_jp", "sjis", "gbk", "big5", "koi8r":
					return f, pgerror.Unimplemented("COPY ENCODING " + *enc + " (the data must be UTF8)")
				default:
					return f, pgerror.New(pgerror.CodeInvalidParameterValue, "argument to option \"encoding\" must be a valid encoding name").WithPosition(o.Pos)
				}
			}
		default:
			return f, pgerror.New(pgerror.CodeSyntaxError, "option \"%s\" not recognized", o.Name).WithPosition(o.Pos)
		}
		if err != nil {
			return f, err
		}
	}
	binary := format != nil && *format == "binary"
	f.CSV = format != nil && *format == "csv"
	switch {
	case binary && delim != nil:
		return f, pgerror.New(pgerror.CodeSyntaxError, "cannot specify DELIMITER in BINARY mode")
	case binary && null != nil:
		return f, pgerror.New(pgerror.CodeSyntaxError, "cannot specify NULL in BINARY mode")
	}
	d, n := "\t", "\\N"
	if f.CSV {
		d, n = ",", ""
	}
	if delim != nil {
		d = *delim
	}
	if null != nil {
		n = *null
	}
	f.Null = n
	q, e := "\"", ""
	if quote != nil {
		q = *quote
	}
	if escape != nil {
		e = *escape
	} else {
		e = q
	}
	unsupported := func(msg string) error { return pgerror.New(pgerror.CodeFeatureNotSupported, "%s", msg) }
	invalid := func(format string, a ...any) error {
		return pgerror.New(pgerror.CodeInvalidParameterValue, format, a...)
	}
	switch {
	case len(d) != 1:
		return f, unsupported("COPY delimiter must be a single one-byte character")
	case d[0] == '\n' || d[0] == '\r':
		return f, invalid("COPY delimiter cannot be newline or carriage return")
	case strings.ContainsAny(n, "\r\n"):
		return f, invalid("COPY null representation cannot use newline or carriage return")
	case !f.CSV && strings.IndexByte("\\.abcdefghijklmnopqrstuvwxyz0123456789", d[0]) >= 0:
		return f, invalid("COPY delimiter cannot be \"%s\"", d)
	case binary && f.Header:
		return f, unsupported("cannot specify HEADER in BINARY mode")
	case !f.CSV && quote != nil:
		return f, unsupported("COPY quote available only in CSV mode")
	case f.CSV && len(q) != 1:
		return f, unsupported("COPY quote must be a single one-byte character")
	case f.CSV && d[0] == q[0]:
		return f, invalid("COPY delimiter and quote must be different")
	case !f.CSV && escape != nil:
		return f, unsupported("COPY escape available only in CSV mode")
	case f.CSV && len(e) != 1:
		return f, unsupported("COPY escape must be a single one-byte character")
	case forceQuote != nil && !f.CSV:
		return f, unsupported("COPY force quote available only in CSV mode")
	case forceQuote != nil && s.From:
		return f, unsupported("COPY force quote only available using COPY TO")
	case forceNotNull != nil && !f.CSV:
		return f, unsupported("COPY force not null available only in CSV mode")
	case forceNotNull != nil && !s.From:
		return f, unsupported("COPY force not null only available using COPY FROM")
	case forceNull != nil && !f.CSV:
		return f, unsupported("COPY force null available only in CSV mode")
	case forceNull != nil && !s.From:
		return f, unsupported("COPY force null only available using COPY FROM")
	case strings.IndexByte(n, d[0]) >= 0:
		return f, unsupported("COPY delimiter must not appear in the NULL specification")
	case f.CSV && strings.IndexByte(n, q[0]) >= 0:
		return f, unsupported("CSV quote character must not appear in the NULL specification")
	case f.HeaderMatch && !s.From:
		return f, unsupported("cannot use \"match\" with HEADER in COPY TO")
	case binary && !s.From:
		return f, pgerror.Unimplemented("COPY TO in binary format (use FORMAT text or csv)")
	}
	f.Binary = binary
	f.Delimiter = d[0]
	if f.CSV {
		f.Quote, f.Escape = q[0], e[0]
	}
	var err error
	if f.ForceQuote, err = forceColumns(forceQuote, "FORCE_QUOTE", names, known, rel); err != nil {
		return f, err
	}
	if f.ForceNotNull, err = forceColumns(forceNotNull, "FORCE_NOT_NULL", names, known, rel); err != nil {
		return f, err
	}
	if f.ForceNull, err = forceColumns(forceNull, "FORCE_NULL", names, known, rel); err != nil {
		return f, err
	}
	return f, nil
}

// forceColumns marks the data columns a FORCE_* option names; nil when
// the option was not given.
func forceColumns(o *sqlparse.CopyOption, what string, names []string, known func(string) bool, rel string) ([]bool, error) {
	if o == nil {
		return nil, nil
	}
	out := make([]bool, len(names))
	if o.Star {
		for j := range out {
			out[j] = true
		}
		return out, nil
	}
	for _, n := range o.List {
		j := slices.Index(names, n)
		if j < 0 {
			if known != nil && !known(n) {
				return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", n, rel)
			}
			if known == nil {
				return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", n)
			}
			return nil, pgerror.New(pgerror.CodeInvalidColumnReference, "%s column \"%s\" not referenced by COPY", what, n)
		}
		out[j] = true
	}
	return out, nil
}

// codeInsufficientPrivilege is PostgreSQL's insufficient_privilege.
const codeInsufficientPrivilege = "42501"
