package sqlparse

import (
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// UtilityKind says which intercepted statement a Utility is.
type UtilityKind int

// Utility statement kinds.
const (
	Begin                 UtilityKind = iota + 1 // BEGIN / START TRANSACTION; Isolation, ReadOnly, ReadWrite, Deferrable
	Commit                                       // COMMIT / END
	Rollback                                     // ROLLBACK / ABORT
	Savepoint                                    // SAVEPOINT Name
	Release                                      // RELEASE [SAVEPOINT] Name
	RollbackTo                                   // ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] Name
	Set                                          // SET [SESSION|LOCAL] Name TO Values; Values nil means DEFAULT
	Reset                                        // RESET Name; RESET ALL has All set
	Show                                         // SHOW Name; SHOW ALL has All set
	Discard                                      // DISCARD Name (all, plans, sequences, temp)
	Deallocate                                   // DEALLOCATE [PREPARE] Name; DEALLOCATE ALL has All set
	SetTransaction                               // SET TRANSACTION modes (current transaction)
	SetSessionTransaction                        // SET SESSION CHARACTERISTICS AS TRANSACTION modes
	Checkpoint                                   // CHECKPOINT: write memtables to files
)

var kindNames = [...]string{"", "Begin", "Commit", "Rollback", "Savepoint", "Release", "RollbackTo",
	"Set", "Reset", "Show", "Discard", "Deallocate", "SetTransaction", "SetSessionTransaction", "Checkpoint"}

func (k UtilityKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "UtilityKind(?)"
}

// Utility is a statement answered by the session rather than the planner.
// Names are folded like identifiers (lower case unless quoted).
type Utility struct {
	Kind   UtilityKind
	Name   string   // GUC, savepoint, prepared statement or DISCARD target
	Values []string // SET values, unquoted; nil for SET ... TO DEFAULT
	Local  bool     // SET LOCAL
	All    bool     // the ALL form of RESET, SHOW, DISCARD, DEALLOCATE (Name is "all")

	// Transaction modes of Begin, SetTransaction and SetSessionTransaction.
	Isolation  string // "serializable", "repeatable read", "read committed", "read uncommitted" or ""
	ReadOnly   bool   // READ ONLY
	ReadWrite  bool   // READ WRITE
	Deferrable bool   // DEFERRABLE (NOT DEFERRABLE is accepted and leaves it false)
}

// utilParser walks the tokens of one statement.
type utilParser struct {
	src  string
	toks []token
	i    int
}

func (p *utilParser) peek(kw string) bool { return p.i < len(p.toks) && p.toks[p.i].is(kw) }

func (p *utilParser) accept(kws ...string) bool {
	for _, kw := range kws {
		if p.peek(kw) {
			p.i++
			return true
		}
	}
	return false
}

func (p *utilParser) errHere() error {
	if p.i >= len(p.toks) {
		end := p.toks[len(p.toks)-1].end
		return pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(p.src, end))
	}
	return syntaxErrorAt(p.src, p.toks[p.i].pos, p.toks[p.i].end)
}

func (p *utilParser) done(u *Utility) (*Utility, error) {
	if p.i < len(p.toks) {
		return nil, p.errHere()
	}
	return u, nil
}

// name reads an identifier (folded unless quoted).
func (p *utilParser) name() (string, error) {
	if p.i < len(p.toks) && (p.toks[p.i].kind == tkIdent || p.toks[p.i].kind == tkQIdent) {
		p.i++
		return p.toks[p.i-1].val, nil
	}
	return "", p.errHere()
}

// dottedName reads name[.name...].
func (p *utilParser) dottedName() (string, error) {
	n, err := p.name()
	for err == nil && p.i+1 < len(p.toks) && p.toks[p.i].isOp(".") {
		p.i++
		var m string
		m, err = p.name()
		n += "." + m
	}
	return n, err
}

// intercept recognises utility statements by their leading tokens. It
// returns nil, nil for statements that go to TiDB.
func intercept(src string, toks []token) (*Utility, error) {
	p := &utilParser{src: src, toks: toks, i: 1}
	switch first := toks[0]; {
	case first.is("begin"):
		p.accept("work", "transaction")
		u := &Utility{Kind: Begin}
		if err := p.txnModes(u); err != nil {
			return nil, err
		}
		return p.done(u)
	case first.is("start") && len(toks) > 1 && toks[1].is("transaction"):
		p.i = 2
		u := &Utility{Kind: Begin}
		if err := p.txnModes(u); err != nil {
			return nil, err
		}
		return p.done(u)
	case first.is("commit") || first.is("end"):
		p.accept("work", "transaction")
		if p.accept("and") {
			if !p.accept("no") {
				return nil, unsupported("COMMIT AND CHAIN").WithPosition(charPos(src, first.pos))
			}
			if !p.accept("chain") {
				return nil, p.errHere()
			}
		}
		return p.done(&Utility{Kind: Commit})
	case first.is("rollback") || first.is("abort"):
		p.accept("work", "transaction")
		if p.accept("to") {
			p.accept("savepoint")
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			return p.done(&Utility{Kind: RollbackTo, Name: n})
		}
		if p.accept("and") {
			if !p.accept("no") {
				return nil, unsupported("ROLLBACK AND CHAIN").WithPosition(charPos(src, first.pos))
			}
			if !p.accept("chain") {
				return nil, p.errHere()
			}
		}
		return p.done(&Utility{Kind: Rollback})
	case first.is("savepoint") || first.is("release"):
		u := &Utility{Kind: Savepoint}
		if first.is("release") {
			u.Kind = Release
			p.accept("savepoint")
		}
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		u.Name = n
		return p.done(u)
	case first.is("set"):
		return p.set()
	case first.is("show") && showForTiDB(src, toks):
		return nil, nil
	case first.is("reset") || first.is("show"):
		u := &Utility{Kind: Reset}
		if first.is("show") {
			u.Kind = Show
		}
		switch {
		case p.accept("all"):
			u.Name, u.All = "all", true
		case p.peek("time") && p.i+1 < len(toks) && toks[p.i+1].is("zone"):
			u.Name, p.i = "timezone", p.i+2
		case u.Kind == Show && p.peek("transaction") && p.i+2 < len(toks) && toks[p.i+1].is("isolation") && toks[p.i+2].is("level"):
			u.Name, p.i = "transaction_isolation", p.i+3
		case p.peek("session") && p.i+1 < len(toks) && toks[p.i+1].is("authorization"):
			u.Name, p.i = "session_authorization", p.i+2
		default:
			n, err := p.dottedName()
			if err != nil {
				return nil, err
			}
			u.Name = n
		}
		return p.done(u)
	case first.is("discard"):
		if !(p.peek("all") || p.peek("plans") || p.peek("sequences") || p.peek("temp") || p.peek("temporary")) {
			return nil, p.errHere()
		}
		u := &Utility{Kind: Discard, Name: toks[1].val, All: toks[1].is("all")}
		if u.Name == "temporary" {
			u.Name = "temp"
		}
		p.i++
		return p.done(u)
	case first.is("checkpoint"):
		return p.done(&Utility{Kind: Checkpoint})
	case first.is("deallocate"):
		p.accept("prepare")
		u := &Utility{Kind: Deallocate}
		if p.accept("all") {
			u.Name, u.All = "all", true
			return p.done(u)
		}
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		u.Name = n
		return p.done(u)
	}
	return nil, nil
}

// showForTiDB reports whether a SHOW is one of the two table forms TiDB
// parses: SHOW CREATE TABLE name and SHOW TABLE name REGIONS (names may be
// schema-qualified). Every other SHOW names a setting.
func showForTiDB(src string, toks []token) bool {
	p := &utilParser{src: src, toks: toks, i: 1}
	regions := !p.accept("create")
	if !p.accept("table") {
		return false
	}
	if _, err := p.dottedName(); err != nil {
		return false
	}
	if regions && !p.accept("regions") {
		return false
	}
	return p.i == len(toks) || (regions && p.accept("where"))
}

// txnModes reads transaction modes, optionally comma-separated.
func (p *utilParser) txnModes(u *Utility) error {
	for p.i < len(p.toks) {
		switch {
		case p.accept("isolation"):
			if !p.accept("level") {
				return p.errHere()
			}
			switch {
			case p.accept("serializable"):
				u.Isolation = "serializable"
			case p.accept("repeatable"):
				if !p.accept("read") {
					return p.errHere()
				}
				u.Isolation = "repeatable read"
			case p.accept("read"):
				if !p.accept("committed", "uncommitted") {
					return p.errHere()
				}
				u.Isolation = "read " + p.toks[p.i-1].val
			default:
				return p.errHere()
			}
		case p.accept("read"):
			switch {
			case p.accept("only"):
				u.ReadOnly, u.ReadWrite = true, false
			case p.accept("write"):
				u.ReadOnly, u.ReadWrite = false, true
			default:
				return p.errHere()
			}
		case p.accept("deferrable"):
			u.Deferrable = true
		case p.accept("not"):
			if !p.accept("deferrable") {
				return p.errHere()
			}
			u.Deferrable = false
		default:
			return p.errHere()
		}
		if p.i < len(p.toks) && p.toks[p.i].isOp(",") {
			p.i++
		}
	}
	return nil
}

// set parses the SET family after the SET keyword.
func (p *utilParser) set() (*Utility, error) {
	u := &Utility{Kind: Set}
	if p.peek("session") && p.i+1 < len(p.toks) && p.toks[p.i+1].is("characteristics") {
		p.i += 2
		if !p.accept("as") || !p.accept("transaction") {
			return nil, p.errHere()
		}
		u.Kind = SetSessionTransaction
		return u, p.txnModes(u)
	}
	if p.accept("local") {
		u.Local = true
	} else {
		p.accept("session")
	}
	switch {
	case p.accept("transaction"):
		u.Kind = SetTransaction
		return u, p.txnModes(u)
	case p.peek("time") && p.i+1 < len(p.toks) && p.toks[p.i+1].is("zone"):
		p.i += 2
		u.Name = "timezone"
		if p.accept("local", "default") {
			return p.done(u)
		}
	case p.accept("names"):
		u.Name = "client_encoding"
		if p.accept("default") {
			return p.done(u)
		}
	case p.accept("schema"):
		u.Name = "search_path"
	default:
		n, err := p.dottedName()
		if err != nil {
			return nil, err
		}
		u.Name = n
		if !p.accept("to") {
			if p.i >= len(p.toks) || !p.toks[p.i].isOp("=") {
				return nil, p.errHere()
			}
			p.i++
		}
		if p.accept("default") {
			return p.done(u)
		}
	}
	return p.setValues(u)
}

// setValues reads a comma-separated list of SET values.
func (p *utilParser) setValues(u *Utility) (*Utility, error) {
	u.Values = []string{}
	for {
		if p.i >= len(p.toks) {
			return nil, p.errHere()
		}
		t := p.toks[p.i]
		sign := ""
		if (t.isOp("-") || t.isOp("+")) && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tkNumber {
			sign = strings.TrimPrefix(t.val, "+")
			p.i++
			t = p.toks[p.i]
		}
		switch t.kind {
		case tkIdent, tkQIdent, tkString, tkNumber:
			u.Values = append(u.Values, sign+t.val)
		default:
			return nil, p.errHere()
		}
		p.i++
		if p.i < len(p.toks) && p.toks[p.i].isOp(",") {
			p.i++
			continue
		}
		return p.done(u)
	}
}
