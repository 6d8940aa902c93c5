package exec

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Reading AS OF TIMESTAMP T. The store keeps, per column, the newest
// f.versions versions of the column's family; a scan AS OF T reads them
// all and takes, per column, the newest version at or before T.
//
// It must never answer wrongly, so it refuses to guess:
//
//   - A column whose retained versions are all newer than T and fill the
//     family's quota may have had any value at T (the older versions were
//     dropped): the read fails with 72000 "snapshot too old", naming the
//     family to give more versions.
//   - Every write rewrites the row marker, so the marker's oldest retained
//     version is the row's first write, unless the marker's quota is full.
//     A row with no cell at or before T did not exist at T if its marker
//     is not full, and is "snapshot too old" if it is.
//   - T older than now - TTL of a family the scan reads fails the same way:
//     expired cells are gone.
//
// Deletes are not versions: DELETE removes the row's cells and UPDATE ...
// SET c = NULL the column's (kv's Bigtable semantics), so reading AS OF a
// time before a delete shows the row, or the column, as if it had never
// had that history.

// asOfRead picks the versions of one scan AS OF a time.
type asOfRead struct {
	t     *planner.TableDesc
	at    kv.Timestamp   // T
	text  string         // T as the session prints it, for messages
	quota map[string]int // family -> versions kept
	// keyWT is set when the query reads key write times: the marker
	// version at T is needed.
	keyWT bool
}

// newAsOfRead evaluates the scan's AS OF value and widens opts to read
// every retained version.
func newAsOfRead(p *planner.Scan, env *evalEnv, opts *kv.ReadOptions) (*asOfRead, error) {
	v, err := eval(p.AsOf, nil, env)
	if err != nil {
		return nil, err
	}
	if v.IsNull() {
		return nil, pgerror.New("22004", "AS OF TIMESTAMP must not be null")
	}
	a := &asOfRead{t: p.Table, quota: map[string]int{}}
	a.text = string(types.AppendTextIn(nil, v, env.zone()))
	switch {
	case v.I >= int64(kv.MaxTimestamp):
		a.at = kv.MaxTimestamp
	case v.I < 0:
		a.at = -1 // before every cell
	default:
		a.at = kv.Timestamp(v.I)
	}
	read := map[string]bool{}
	for _, f := range opts.Families {
		read[f] = true
	}
	now := kv.Now()
	opts.MaxVersions = 1
	for _, f := range p.Table.Families {
		q := max(f.MaxVersions, 1)
		a.quota[f.Name] = q
		if len(opts.Families) > 0 && !read[f.Name] {
			continue
		}
		opts.MaxVersions = max(opts.MaxVersions, q)
		if f.TTL > 0 && a.at >= 0 && int64(a.at) < int64(now)-f.TTL.Microseconds() {
			return nil, pgerror.New(pgerror.CodeSnapshotTooOld,
				"snapshot too old: table %q keeps the cells of family %q for %s, and AS OF %s is older than that",
				p.Table.Name, f.Name, ttlText(f.TTL), a.text).
				WithHint("Read AS OF a later time, or raise the family's TTL: ALTER TABLE %s SET (%s.ttl = ...).", p.Table.Name, f.Name)
		}
	}
	// Rows that did not exist at T are skipped: a row limit would count
	// them.
	opts.Limit = 0
	for _, ci := range p.Needed {
		if src, ok := planner.WriteTimeSource(p.Table, ci); ok && p.Table.Columns[src].IsKey() {
			a.keyWT = true
		}
	}
	return a, nil
}

func ttlText(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		if d == 24*time.Hour {
			return "1 day"
		}
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}

// pick calls use with the version at T of each column of r, and reports
// whether the row existed at T. row holds the decoded key (for messages).
func (a *asOfRead) pick(r kv.Row, row Row, use func(*kv.Cell) error) (bool, error) {
	exists, hasMarker := false, false
	var marker *kv.Cell
	markerOld := false
	oldFamily := "" // a column's family whose quota hides its value at T
	cells := r.Cells
	for i := 0; i < len(cells); {
		// One column: cells[i:j], newest first.
		j := i + 1
		for j < len(cells) && cells[j].Family == cells[i].Family && bytes.Equal(cells[j].Qualifier, cells[i].Qualifier) {
			j++
		}
		q := a.quota[cells[i].Family]
		if q == 0 {
			q = 1
		}
		col := cells[i:min(j, i+q)]
		isMarker := cells[i].Family == a.t.MarkerFamily && bytes.Equal(cells[i].Qualifier, planner.MarkerQualifier)
		var at *kv.Cell
		for k := range col {
			if col[k].Timestamp <= a.at {
				at = &col[k]
				break
			}
		}
		full := len(col) >= q
		switch {
		case isMarker:
			hasMarker, marker, markerOld = true, at, at == nil && full
		case at != nil:
			if err := use(at); err != nil {
				return false, err
			}
		case full && oldFamily == "":
			oldFamily = cells[i].Family
		}
		if at != nil {
			exists = true
		}
		i = j
	}
	switch {
	case !exists && (markerOld || !hasMarker && oldFamily != ""):
		return false, a.tooOld(row, a.t.MarkerFamily)
	case !exists:
		return false, nil // created after T
	case oldFamily != "":
		return false, a.tooOld(row, oldFamily)
	case a.keyWT && markerOld:
		return false, a.tooOld(row, a.t.MarkerFamily)
	}
	if marker != nil {
		if err := use(marker); err != nil {
			return false, err
		}
	}
	return true, nil
}

// tooOld is the error for a row whose history at T is gone.
func (a *asOfRead) tooOld(row Row, family string) error {
	t := a.t
	names := make([]string, len(t.Key))
	vals := make([]string, len(t.Key))
	for i, kc := range t.Key {
		names[i] = t.Columns[kc.Col].Name
		vals[i] = string(types.AppendText(nil, row[kc.Col]))
	}
	q := a.quota[family]
	versions := "versions"
	if q == 1 {
		versions = "version"
	}
	e := pgerror.New(pgerror.CodeSnapshotTooOld,
		"snapshot too old: table %q keeps %d %s of family %q, and AS OF %s is older than a row's history",
		t.Name, q, versions, family, a.text)
	e.Detail = fmt.Sprintf("Every retained version of row (%s)=(%s) in family %q is newer.", strings.Join(names, ", "), strings.Join(vals, ", "), family)
	e.Hint = fmt.Sprintf("Read AS OF a later time, or keep more versions: ALTER TABLE %s SET (%s.versions = %d).", t.Name, family, 2*q)
	e.Table = t.Name
	return e
}

// writeTimestamp is the timestamp of a statement's cells: the clock's, or
// SET widesql.write_timestamp's (backfilling history at a given time).
func (x *executor) writeTimestamp() (kv.Timestamp, error) {
	v := ""
	if x.env.sess != nil {
		v = x.env.sess.values["widesql.write_timestamp"]
	}
	if strings.TrimSpace(v) == "" {
		return x.eng.clock.now(), nil
	}
	loc := time.UTC
	if x.env.sess != nil {
		loc = x.env.zone()
	}
	return parseWriteTimestamp(v, loc)
}

// parseWriteTimestamp reads a widesql.write_timestamp value: a timestamptz
// (in loc when it names no zone) from 1970 on, truncated to the
// millisecond (kv's and Bigtable's cell granularity).
func parseWriteTimestamp(v string, loc *time.Location) (kv.Timestamp, error) {
	d, err := types.ParseTextIn(types.TTimestampTZ, v, loc)
	if err != nil {
		return 0, err
	}
	if d.I < 0 || d.I > int64(kv.MaxTimestamp) {
		return 0, pgerror.New(pgerror.CodeDatetimeFieldOverflow,
			"widesql.write_timestamp %q is out of range: cell timestamps run from 1970-01-01 00:00:00+00", v)
	}
	return kv.Timestamp(d.I / 1000 * 1000), nil
}

// checkWriteTimestamp validates a SET widesql.write_timestamp value
// (settings.go): empty, or a timestamptz parseWriteTimestamp accepts. The
// value is kept as written and read in the session's zone at each write.
func checkWriteTimestamp(v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", nil
	}
	if _, err := parseWriteTimestamp(v, time.UTC); err != nil {
		return "", err
	}
	return v, nil
}
