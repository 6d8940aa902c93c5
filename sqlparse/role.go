package sqlparse

import (
	"strconv"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// RoleStmtKind says which role statement a RoleStmt is.
type RoleStmtKind uint8

const (
	CreateRole RoleStmtKind = iota + 1 // CREATE ROLE | USER name [WITH] options
	AlterRole                          // ALTER ROLE | USER name [WITH] options
	RenameRole                         // ALTER ROLE | USER name RENAME TO new
	DropRole                           // DROP ROLE | USER [IF EXISTS] name, ...
)

// RoleStmt is CREATE/ALTER/DROP ROLE or USER, parsed at token level.
type RoleStmt struct {
	Kind RoleStmtKind
	// User is set when the statement said USER: CREATE USER implies LOGIN.
	User bool
	// Names holds the role: one for CREATE, ALTER and RENAME, one or more
	// for DROP. A name is folded unless quoted; CURRENT_USER and
	// SESSION_USER (ALTER only) are returned as those words, with
	// CurrentUser set.
	Names       []string
	CurrentUser bool
	NewName     string // RENAME TO
	IfExists    bool   // DROP ... IF EXISTS
	Options     []RoleOption
}

// RoleOption is one role option as written. Name is the option's
// canonical lower-case name: superuser, createdb, createrole, inherit,
// login, replication, bypassrls (Bool holds the value, false for the NO
// forms), password (Value, or Null for PASSWORD NULL), connection limit
// (Int), valid until (Value).
type RoleOption struct {
	Name  string
	Bool  bool
	Value string
	Null  bool
	Int   int
	// Pos is the 1-based character position of the option, for errors.
	Pos int
}

// roleFlags maps the flag keywords to their option name and value.
var roleFlags = map[string]struct {
	name string
	val  bool
}{
	"superuser": {"superuser", true}, "nosuperuser": {"superuser", false},
	"createdb": {"createdb", true}, "nocreatedb": {"createdb", false},
	"createrole": {"createrole", true}, "nocreaterole": {"createrole", false},
	"inherit": {"inherit", true}, "noinherit": {"inherit", false},
	"login": {"login", true}, "nologin": {"login", false},
	"replication": {"replication", true}, "noreplication": {"replication", false},
	"bypassrls": {"bypassrls", true}, "nobypassrls": {"bypassrls", false},
}

// parseRole parses a role statement; nil, nil when toks is not one.
func parseRole(src string, toks []token) (*RoleStmt, error) {
	if len(toks) < 2 || !(toks[1].is("role") || toks[1].is("user")) {
		return nil, nil
	}
	st := &RoleStmt{User: toks[1].is("user")}
	p := &utilParser{src: src, toks: toks, i: 2}
	switch {
	case toks[0].is("create"):
		st.Kind = CreateRole
	case toks[0].is("alter"):
		st.Kind = AlterRole
	case toks[0].is("drop"):
		st.Kind = DropRole
		return st, p.dropRoles(st)
	default:
		return nil, nil
	}
	if st.Kind == AlterRole && (p.peek("current_user") || p.peek("session_user")) {
		st.CurrentUser = true
	}
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	st.Names = []string{name}
	if st.Kind == AlterRole && p.peek("rename") {
		p.i++
		if !p.accept("to") {
			return nil, p.errHere()
		}
		if st.NewName, err = p.name(); err != nil {
			return nil, err
		}
		st.Kind = RenameRole
		_, err = p.done(nil)
		return st, err
	}
	if st.Kind == AlterRole && (p.peek("set") || p.peek("reset") || p.peek("in")) {
		return nil, unsupported("ALTER ROLE ... SET").WithPosition(charPos(src, toks[p.i].pos))
	}
	p.accept("with")
	return st, p.roleOptions(st)
}

// dropRoles reads [IF EXISTS] name [, ...].
func (p *utilParser) dropRoles(st *RoleStmt) error {
	if p.accept("if") {
		if !p.accept("exists") {
			return p.errHere()
		}
		st.IfExists = true
	}
	for {
		n, err := p.name()
		if err != nil {
			return err
		}
		st.Names = append(st.Names, n)
		if p.i < len(p.toks) && p.toks[p.i].isOp(",") {
			p.i++
			continue
		}
		_, err = p.done(nil)
		return err
	}
}

// roleOptions reads the option list up to the end of the statement. An
// option given twice is 42601, as in PostgreSQL.
func (p *utilParser) roleOptions(st *RoleStmt) error {
	seen := map[string]bool{}
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		opt := RoleOption{Pos: charPos(p.src, t.pos)}
		if f, ok := roleFlags[t.val]; ok && t.kind == tkIdent {
			p.i++
			opt.Name, opt.Bool = f.name, f.val
		} else {
			switch {
			case t.is("encrypted") || t.is("password"):
				p.i++
				if t.is("encrypted") && !p.accept("password") {
					return p.errHere()
				}
				opt.Name = "password"
				if p.accept("null") {
					opt.Null = true
				} else if opt.Value, opt.Null = p.stringLit(); opt.Null {
					return p.errHere()
				}
			case t.is("unencrypted"):
				return unsupported("UNENCRYPTED PASSWORD").WithPosition(opt.Pos)
			case t.is("connection"):
				p.i++
				if !p.accept("limit") {
					return p.errHere()
				}
				opt.Name = "connection limit"
				neg := p.i < len(p.toks) && p.toks[p.i].isOp("-")
				if neg {
					p.i++
				}
				if p.i >= len(p.toks) || p.toks[p.i].kind != tkNumber {
					return p.errHere()
				}
				n, err := strconv.Atoi(p.toks[p.i].val)
				if err != nil {
					return p.errHere()
				}
				p.i++
				if neg {
					n = -n
				}
				opt.Int = n
			case t.is("valid"):
				p.i++
				if !p.accept("until") {
					return p.errHere()
				}
				opt.Name = "valid until"
				var bad bool
				if opt.Value, bad = p.stringLit(); bad {
					return p.errHere()
				}
			case t.is("in") || t.is("role") || t.is("admin") || t.is("user") || t.is("sysid"):
				return unsupported("role membership options").WithPosition(opt.Pos)
			default:
				return p.errHere()
			}
		}
		if seen[opt.Name] {
			return pgerror.New(pgerror.CodeSyntaxError, "conflicting or redundant options").WithPosition(opt.Pos)
		}
		seen[opt.Name] = true
		st.Options = append(st.Options, opt)
	}
	return nil
}

// stringLit reads a string literal; bad is true (nothing read) when the
// next token is not one.
func (p *utilParser) stringLit() (s string, bad bool) {
	if p.i < len(p.toks) && p.toks[p.i].kind == tkString {
		p.i++
		return p.toks[p.i-1].val, false
	}
	return "", true
}
