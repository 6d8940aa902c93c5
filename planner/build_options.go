package planner

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// Storage parameters, PostgreSQL's WITH (name = value) syntax:
//
//	salt_buckets = N       1..256: the rowkey starts with a hash byte (TableDesc.SaltBuckets)
//	layout = tall | wide   wide: the last key column is a qualifier prefix
//	<fam>.versions = N     1..maxVersions versions kept per cell
//	<fam>.ttl = T          '7 days', '1 hour', a number of seconds; 0 or 'forever' for none
//	<fam>.compression = C  none | snappy | zstd
//	<fam>.bloom = B        row | none
//
// Errors use PostgreSQL's reloption texts and SQLSTATEs (22023): an
// unknown name is "unrecognized parameter", a bad value "invalid value for
// <kind> option", an integer out of range "value N out of bounds".

// Option names and bounds.
const (
	optSaltBuckets = "salt_buckets"
	optLayout      = "layout"
	optVersions    = "versions"
	optTTL         = "ttl"
	optCompression = "compression"
	optBloom       = "bloom"

	maxSaltBuckets = 256
	// maxVersions bounds f.versions: every version is a cell a read may
	// have to skip, so a runaway value is a mistake rather than a wish.
	maxVersions = 1000
	// maxTTL keeps a TTL well inside time.Duration (about 292 years).
	maxTTL = 100 * 365 * 24 * time.Hour
)

var (
	layoutValues      = []string{"tall", LayoutWide}
	compressionValues = []string{"none", "snappy", "zstd"}
	bloomValues       = []string{"row", "none"}
)

// applyTableOptions applies CREATE TABLE's WITH (...) options to t, whose
// columns, key and families are final, and checks the result.
func applyTableOptions(t *TableDesc, opts []sqlparse.TableOption) error {
	if len(opts) == 0 {
		return nil
	}
	if err := checkDuplicateOptions(opts); err != nil {
		return err
	}
	for _, o := range opts {
		if err := setOption(t, o.Name, o.Value); err != nil {
			return err
		}
	}
	return checkLayout(t)
}

// checkDuplicateOptions rejects a name given twice, as PostgreSQL does.
func checkDuplicateOptions(opts []sqlparse.TableOption) error {
	seen := make(map[string]bool, len(opts))
	for _, o := range opts {
		if seen[o.Name] {
			return pgerror.New(pgerror.CodeInvalidParameterValue, "parameter %q specified more than once", o.Name)
		}
		seen[o.Name] = true
	}
	return nil
}

// splitOption splits a family option name "fam.opt"; fam is "" for a
// table option.
func splitOption(name string) (fam, opt string) {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// family returns t's family of that name (a pointer into t.Families, so
// the caller must own the slice), or 42704.
func family(t *TableDesc, name string) (*FamilyDesc, error) {
	for i := range t.Families {
		if t.Families[i].Name == name {
			return &t.Families[i], nil
		}
	}
	return nil, pgerror.New(pgerror.CodeUndefinedObject, "column family %q does not exist", name).
		WithHint("A family exists once a column is declared in it: %s.column type.", name)
}

func unrecognized(name string) error {
	return pgerror.New(pgerror.CodeInvalidParameterValue, "unrecognized parameter %q", name)
}

// setOption sets one option on t, in place: t.Families must not be shared
// with a published descriptor.
func setOption(t *TableDesc, name, value string) error {
	famName, opt := splitOption(name)
	if famName == "" {
		switch opt {
		case optSaltBuckets:
			n, err := intOption(name, value, 1, maxSaltBuckets)
			if err != nil {
				return err
			}
			t.SaltBuckets = n
		case optLayout:
			v, err := enumOption(name, value, layoutValues)
			if err != nil {
				return err
			}
			t.Layout = LayoutTall
			if v == LayoutWide {
				t.Layout = LayoutWide
			}
		default:
			return unrecognized(name)
		}
		return nil
	}
	switch opt {
	case optVersions, optTTL, optCompression, optBloom:
	default:
		return unrecognized(name)
	}
	f, err := family(t, famName)
	if err != nil {
		return err
	}
	switch opt {
	case optVersions:
		f.MaxVersions, err = intOption(name, value, 1, maxVersions)
	case optTTL:
		f.TTL, err = ttlOption(name, value)
	case optCompression:
		f.Compression, err = enumOption(name, value, compressionValues)
	case optBloom:
		f.Bloom, err = enumOption(name, value, bloomValues)
	}
	return err
}

// resetOption returns one option of t to its default, in place (as
// setOption). Table options are the caller's to refuse.
func resetOption(t *TableDesc, name string) error {
	famName, opt := splitOption(name)
	if famName == "" {
		switch opt {
		case optSaltBuckets:
			t.SaltBuckets = 0
		case optLayout:
			t.Layout = LayoutTall
		default:
			return unrecognized(name)
		}
		return nil
	}
	switch opt {
	case optVersions, optTTL, optCompression, optBloom:
	default:
		return unrecognized(name)
	}
	f, err := family(t, famName)
	if err != nil {
		return err
	}
	switch opt {
	case optVersions:
		f.MaxVersions = 1
	case optTTL:
		f.TTL = 0
	case optCompression:
		f.Compression = ""
	case optBloom:
		f.Bloom = ""
	}
	return nil
}

// checkLayout checks that a wide table has a qualifier column: the last
// of at least two key columns, a real column (a key expression's value is
// derived from the row, so it cannot name the row's cells).
func checkLayout(t *TableDesc) error {
	if t.Layout != LayoutWide {
		return nil
	}
	if len(t.Key) < 2 || t.ShardBits > 0 {
		return pgerror.New(pgerror.CodeInvalidTableDefinition, "layout 'wide' needs a primary key of at least two columns").
			WithHint("The last key column becomes the qualifier prefix of the cells inside one row per value of the other key columns.")
	}
	if last := &t.Columns[t.Key[len(t.Key)-1].Col]; last.Generated != "" {
		return pgerror.New(pgerror.CodeInvalidTableDefinition, "the last primary key column of a wide table cannot be a key expression").
			WithHint("Put a plain column last in the PRIMARY KEY: it becomes the qualifier prefix.")
	}
	return nil
}

// intOption parses an integer option value within [lo, hi].
func intOption(name, value string, lo, hi int) (int, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil {
		return 0, pgerror.New(pgerror.CodeInvalidParameterValue, "invalid value for integer option %q: %s", name, value)
	}
	if n < int64(lo) || n > int64(hi) {
		return 0, pgerror.New(pgerror.CodeInvalidParameterValue, "value %s out of bounds for option %q", value, name).
			WithDetail("Valid values are between \"%d\" and \"%d\".", lo, hi)
	}
	return int(n), nil
}

// enumOption matches value case-insensitively against valid and returns
// the lower-case value.
func enumOption(name, value string, valid []string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	for _, ok := range valid {
		if v == ok {
			return v, nil
		}
	}
	quoted := make([]string, len(valid))
	for i, s := range valid {
		quoted[i] = strconv.Quote(s)
	}
	list := strings.Join(quoted, " and ")
	if len(quoted) > 2 {
		list = strings.Join(quoted[:len(quoted)-1], ", ") + ", and " + quoted[len(quoted)-1]
	}
	return "", pgerror.New(pgerror.CodeInvalidParameterValue, "invalid value for enum option %q: %s", name, value).
		WithDetail("Valid values are %s.", list)
}

// ttlOption parses a TTL: an interval ('7 days', '1 hour', '01:30:00'), a
// number of seconds, or 0 / 'forever' for none (0 is returned). Months
// count 30 days, as in PostgreSQL's interval comparisons. A TTL under a
// second is refused: cell timestamps are microseconds but a TTL that
// short is a typo, not a design.
func ttlOption(name, value string) (time.Duration, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	bad := func() error {
		return pgerror.New(pgerror.CodeInvalidParameterValue, "invalid value for interval option %q: %s", name, value).
			WithHint("Give an interval such as '7 days' or '1 hour', a number of seconds, or 'forever' for none.")
	}
	if v == "forever" {
		return 0, nil
	}
	var micros float64
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, bad()
		}
		micros = f * 1e6
	} else {
		d, err := types.ParseText(types.TInterval, v)
		if err != nil {
			return 0, bad()
		}
		days, rem := types.IntervalTotal(d)
		micros = float64(days)*float64(24*time.Hour/time.Microsecond) + float64(rem)
	}
	if micros == 0 {
		return 0, nil
	}
	if micros < 1e6 || micros > float64(maxTTL/time.Microsecond) {
		return 0, pgerror.New(pgerror.CodeInvalidParameterValue, "value %s out of bounds for option %q", value, name).
			WithDetail("Valid values are between '1 second' and '%d days', or 0 or 'forever' for none.", maxTTL/(24*time.Hour))
	}
	return time.Duration(micros) * time.Microsecond, nil
}

// formatTTL renders a TTL as PostgreSQL's interval text ('7 days',
// '01:00:00', '1 day 12:00:00'), which ttlOption reads back exactly.
func formatTTL(d time.Duration) string {
	const day = 24 * time.Hour
	iv := types.NewInterval(0, int32(d/day), int64(d%day/time.Microsecond))
	return string(types.AppendText(nil, iv))
}
