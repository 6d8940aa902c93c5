package planner

import (
	"math"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// RowIDShardBits is the number of shard bits of a hidden row id: 16 shards,
// so sequential inserts spread over 16 pre-split regions.
const RowIDShardBits = 4

// addRowID gives a table declared without a primary key its hidden rowkey
// column (see TableDesc.ShardBits).
func addRowID(t *TableDesc) {
	t.ShardBits = RowIDShardBits
	t.Columns = append(t.Columns, ColumnDesc{ID: t.NextColumnID, Name: RowIDColumn, Type: types.TInt8,
		NotNull: true, KeyPos: 0, Hidden: true})
	t.NextColumnID++
	t.Key = []KeyColumn{{Col: len(t.Columns) - 1}}
}

// RowIDSplits returns the values at which a row id table is pre-split: the
// first row id of every shard but the first.
func RowIDSplits(shardBits int) []int64 {
	out := make([]int64, 0, 1<<shardBits-1)
	for s := int64(1); s < 1<<shardBits; s++ {
		out = append(out, s<<(63-shardBits))
	}
	return out
}

// columnExtra applies what sqlparse cut from a column definition: serial,
// identity and DEFAULT.
func (b *builder) columnExtra(t *TableDesc, c *ColumnDesc, ex *sqlparse.ColumnExtra) error {
	if ex.Serial != "" || ex.Identity != "" {
		if ex.Serial != "" && ex.Default != "" {
			return pgerror.New(pgerror.CodeSyntaxError, "multiple default values specified for column %q of table %q", c.Name, t.Name)
		}
		if ex.Identity != "" && ex.Default != "" {
			return pgerror.New(pgerror.CodeSyntaxError, "both default and identity specified for column %q of table %q", c.Name, t.Name)
		}
		lo, hi, ok := intRange(c.Type)
		if !ok {
			return pgerror.New(pgerror.CodeInvalidParameterValue, "identity column type must be smallint, integer, or bigint")
		}
		seq, err := sequenceDesc(seqName(t.Name, c.Name), c.Type, lo, hi, ex.Seq)
		if err != nil {
			return err
		}
		c.Seq, c.NotNull = seq, true
		if ex.Serial != "" {
			c.Default = "nextval('" + seq.Name + "'::regclass)"
		} else {
			c.Identity = ex.Identity
		}
		return nil
	}
	if ex.Default != "" {
		// Check the expression now, as PostgreSQL does; it is built again
		// from its text for every INSERT plan.
		e, err := b.parseDefault(ex.Default)
		if err != nil {
			return err
		}
		if _, err := b.assign(e, c); err != nil {
			return err
		}
		c.Default = ex.Default
	}
	return nil
}

// intRange returns the range of an integer type.
func intRange(t types.T) (lo, hi int64, ok bool) {
	switch t.Kind {
	case types.Int2:
		return math.MinInt16, math.MaxInt16, true
	case types.Int4:
		return math.MinInt32, math.MaxInt32, true
	case types.Int8:
		return math.MinInt64, math.MaxInt64, true
	}
	return 0, 0, false
}

// sequenceDesc applies PostgreSQL's defaults and checks to identity
// sequence options: an ascending sequence runs from 1 to the type's
// maximum, a descending one from -1 down to the type's minimum.
func sequenceDesc(name string, t types.T, lo, hi int64, o sqlparse.SeqOptions) (*SequenceDesc, error) {
	s := &SequenceDesc{Name: name, Increment: 1}
	if o.Increment != nil {
		s.Increment = *o.Increment
	}
	if s.Increment == 0 {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "INCREMENT must not be zero")
	}
	if s.Increment > 0 {
		s.Min, s.Max = 1, hi
	} else {
		s.Min, s.Max = lo, -1
	}
	if o.Min != nil {
		s.Min = *o.Min
	}
	if o.Max != nil {
		s.Max = *o.Max
	}
	if s.Min < lo || s.Min > hi {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "MINVALUE (%d) is out of range for sequence data type %s", s.Min, t)
	}
	if s.Max < lo || s.Max > hi {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "MAXVALUE (%d) is out of range for sequence data type %s", s.Max, t)
	}
	if s.Min >= s.Max {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "MINVALUE (%d) must be less than MAXVALUE (%d)", s.Min, s.Max)
	}
	s.Start = s.Min
	if s.Increment < 0 {
		s.Start = s.Max
	}
	if o.Start != nil {
		s.Start = *o.Start
	}
	if s.Start < s.Min {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "START value (%d) cannot be less than MINVALUE (%d)", s.Start, s.Min)
	}
	if s.Start > s.Max {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "START value (%d) cannot be greater than MAXVALUE (%d)", s.Start, s.Max)
	}
	return s, nil
}

// seqName is PostgreSQL's name for a column's sequence, <table>_<col>_seq,
// with the longer part truncated to fit 63 bytes.
func seqName(table, col string) string {
	for len(table)+len(col)+5 > maxIdentifierLength {
		if len(table) >= len(col) {
			table = table[:len(table)-1]
		} else {
			col = col[:len(col)-1]
		}
	}
	return table + "_" + col + "_seq"
}
