package planner

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// CreateTableSQL returns widesql DDL that recreates t: its columns with
// PostgreSQL type names, NOT NULL, DEFAULT, serial and identity, family
// prefixes, the primary key with key expressions and DESC, and WITH
// (...) holding every option that is not the default. Running it gives a
// table whose CreateTableSQL is the same text. Secondary index records and
// the table's data are not part of it. A table with comments gets its
// COMMENT ON statements after the CREATE TABLE, each after "; ".
func CreateTableSQL(t *TableDesc) string {
	var sb strings.Builder
	sb.WriteString("CREATE TABLE ")
	sb.WriteString(QuoteIdent(t.Name))
	sb.WriteString(" (")
	sep := ""
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Hidden {
			continue
		}
		sb.WriteString(sep)
		sep = ", "
		writeColumn(&sb, c)
	}
	if t.ShardBits == 0 && len(t.Key) > 0 {
		sb.WriteString(sep)
		if t.PKName != "" {
			sb.WriteString("CONSTRAINT ")
			sb.WriteString(QuoteIdent(t.PKName))
			sb.WriteString(" ")
		}
		sb.WriteString("PRIMARY KEY (")
		for i, kc := range t.Key {
			if i > 0 {
				sb.WriteString(", ")
			}
			c := &t.Columns[kc.Col]
			if c.Generated != "" {
				sb.WriteString("(" + c.Generated + ")")
			} else {
				sb.WriteString(QuoteIdent(c.Name))
			}
			if kc.Desc {
				sb.WriteString(" DESC")
			}
		}
		sb.WriteString(")")
	}
	sb.WriteString(")")
	if opts := optionsSQL(t); len(opts) > 0 {
		sb.WriteString(" WITH (")
		sb.WriteString(strings.Join(opts, ", "))
		sb.WriteString(")")
	}
	writeComments(&sb, t) // COMMENT ON statements follow, when there are comments
	return sb.String()
}

// writeComments appends, after a CREATE TABLE, the COMMENT ON statements
// that restore t's comments (helper "infoschema"), each after "; ".
func writeComments(sb *strings.Builder, t *TableDesc) {
	name := QuoteIdent(t.Name)
	if t.Comment != "" {
		sb.WriteString("; COMMENT ON TABLE " + name + " IS " + quoteLiteral(t.Comment))
	}
	for i := range t.Columns {
		if c := &t.Columns[i]; c.Comment != "" && !c.Hidden {
			sb.WriteString("; COMMENT ON COLUMN " + name + "." + QuoteIdent(c.Name) + " IS " + quoteLiteral(c.Comment))
		}
	}
}

func writeColumn(sb *strings.Builder, c *ColumnDesc) {
	if !c.IsKey() && c.Family != "" && c.Family != DefaultFamily {
		sb.WriteString(QuoteIdent(c.Family))
		sb.WriteString(".")
	}
	sb.WriteString(QuoteIdent(c.Name))
	sb.WriteString(" ")
	if c.Seq != nil && c.Identity == "" {
		sb.WriteString(serialName(c.Type))
		return
	}
	sb.WriteString(c.Type.String())
	if c.Seq != nil {
		sb.WriteString(" GENERATED " + strings.ToUpper(c.Identity) + " AS IDENTITY")
		if o := identityOptions(c); o != "" {
			sb.WriteString(" (" + o + ")")
		}
		return
	}
	if c.Default != "" {
		sb.WriteString(" DEFAULT ")
		sb.WriteString(c.Default)
	}
	if c.NotNull && !c.IsKey() {
		sb.WriteString(" NOT NULL")
	}
}

func serialName(t types.T) string {
	switch t.Kind {
	case types.Int2:
		return "smallserial"
	case types.Int8:
		return "bigserial"
	}
	return "serial"
}

// identityOptions lists the sequence options of an identity column that
// differ from the defaults PostgreSQL derives from its type and increment.
func identityOptions(c *ColumnDesc) string {
	s := c.Seq
	lo, hi, _ := intRange(c.Type)
	inc := s.Increment
	def, err := sequenceDesc(s.Name, c.Type, lo, hi, sqlparse.SeqOptions{Increment: &inc})
	if err != nil {
		def = &SequenceDesc{}
	}
	var out []string
	if s.Start != def.Start {
		out = append(out, "START WITH "+strconv.FormatInt(s.Start, 10))
	}
	if s.Increment != 1 {
		out = append(out, "INCREMENT BY "+strconv.FormatInt(s.Increment, 10))
	}
	if s.Min != def.Min {
		out = append(out, "MINVALUE "+strconv.FormatInt(s.Min, 10))
	}
	if s.Max != def.Max {
		out = append(out, "MAXVALUE "+strconv.FormatInt(s.Max, 10))
	}
	return strings.Join(out, " ")
}

// optionsSQL lists t's non-default options as WITH items. Options of a
// family no column declares are left out: CREATE TABLE could not name it.
func optionsSQL(t *TableDesc) []string {
	var out []string
	if t.SaltBuckets > 0 {
		out = append(out, optSaltBuckets+" = "+strconv.Itoa(t.SaltBuckets))
	}
	if t.Layout == LayoutWide {
		out = append(out, optLayout+" = 'wide'")
	}
	declared := map[string]bool{}
	for i := range t.Columns {
		if c := &t.Columns[i]; !c.IsKey() && !c.Hidden {
			declared[c.Family] = true
		}
	}
	if len(declared) == 0 {
		declared[DefaultFamily] = true
	}
	for _, f := range t.Families {
		if !declared[f.Name] {
			continue
		}
		p := QuoteIdent(f.Name) + "."
		if f.MaxVersions > 1 {
			out = append(out, p+optVersions+" = "+strconv.Itoa(f.MaxVersions))
		}
		if f.TTL > 0 {
			out = append(out, p+optTTL+" = "+quoteLiteral(formatTTL(f.TTL)))
		}
		if f.Compression != "" {
			out = append(out, p+optCompression+" = "+quoteLiteral(f.Compression))
		}
		if f.Bloom != "" {
			out = append(out, p+optBloom+" = "+quoteLiteral(f.Bloom))
		}
	}
	return out
}

var plainIdent = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// QuoteIdent quotes an identifier when reading it back needs quotes: it
// is not lower-case letters, digits and '_', or it is a reserved word of
// PostgreSQL or of the parser widesql uses.
func QuoteIdent(s string) string {
	if plainIdent.MatchString(s) && !reservedWords[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// reservedWords are PostgreSQL's reserved key words (the "reserved" and
// "reserved (can be function or type)" rows of its key word table) and
// TiDB's reserved ones.
var reservedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric authorization binary both
		case cast check collate collation column concurrently constraint create cross current_catalog current_date
		current_role current_schema current_time current_timestamp current_user default deferrable desc distinct do
		else end except false fetch for foreign freeze from full grant group having ilike in initially inner intersect
		into is isnull join lateral leading left like limit localtime localtimestamp natural not notnull null offset on
		only or order outer overlaps placing primary references returning right select session_user similar some
		symmetric system_user table tablesample then to trailing true union unique user using variadic verbose when
		where window with`) {
		m[w] = true
	}
	for _, k := range parser.Keywords {
		if k.Reserved {
			m[strings.ToLower(k.Word)] = true
		}
	}
	return m
}()
