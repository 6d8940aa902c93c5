package exec

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// Regions: SPLIT TABLE adds region boundaries through kv.Admin, and
// widesql.regions (SHOW TABLE t REGIONS) lists every region of every user
// table with its boundaries decoded into key column values:
//
//	/'alice'/42       the key columns, as SQL literals, in key order
//	/'alice'/x'0a0b'  a boundary that is not a whole key decodes as far as
//	                  it can; the remaining bytes are shown in hex
//	/3/'alice'        a salted table's boundaries start with the bucket
//	NULL              unbounded (the first region's start, the last's end)

// admin returns the store's region administration, or 0A000.
func (x *executor) admin() (kv.Admin, error) {
	a, ok := x.eng.store.(kv.Admin)
	if !ok {
		return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "the storage engine has no regions")
	}
	return a, nil
}

// splitTable runs SPLIT TABLE. Its tag is "SPLIT TABLE n", n the number of
// regions the statement added (a point that already was a boundary adds
// none).
func (x *executor) splitTable(ctx context.Context, p *planner.SplitTable) (string, []Row, error) {
	admin, err := x.admin()
	if err != nil {
		return "", nil, err
	}
	if _, err := x.eng.cat.kvTable(p.Table); err != nil {
		return "", nil, err
	}
	t := p.Table
	var points [][]byte
	if p.Points != nil {
		for _, pt := range p.Points {
			k, err := x.splitKey(t, pt)
			if err != nil {
				return "", nil, err
			}
			points = append(points, k)
		}
	} else if points, err = x.splitRange(t, p); err != nil {
		return "", nil, err
	}
	var keys [][]byte
	for _, k := range points {
		if t.SaltBuckets == 0 {
			keys = append(keys, k)
			continue
		}
		for b := 0; b < t.SaltBuckets; b++ {
			keys = append(keys, append([]byte{byte(b)}, k...))
		}
	}
	for _, k := range keys {
		if len(k) > kv.MaxKeySize {
			return "", nil, pgerror.New(pgerror.CodeProgramLimitExceeded, "split key of %d bytes exceeds the maximum of %d", len(k), kv.MaxKeySize)
		}
	}
	before, err := admin.Regions(ctx, t.KVName())
	if err != nil {
		return "", nil, regionError(err, t)
	}
	if err := admin.Split(ctx, t.KVName(), keys); err != nil {
		return "", nil, regionError(err, t)
	}
	after, err := admin.Regions(ctx, t.KVName())
	if err != nil {
		return "", nil, regionError(err, t)
	}
	return fmt.Sprintf("SPLIT TABLE %d", len(after)-len(before)), nil, nil
}

func regionError(err error, t *planner.TableDesc) error {
	switch {
	case errors.Is(err, kv.ErrTableNotFound):
		return pgerror.New(pgerror.CodeUndefinedTable, "relation %q does not exist", t.Name)
	case errors.Is(err, kv.ErrInvalidArgument):
		return pgerror.Wrap(err, pgerror.CodeInvalidParameterValue, "SPLIT TABLE "+t.Name)
	}
	return storageError(err)
}

// splitValues evaluates one tuple of key values.
func (x *executor) splitValues(t *planner.TableDesc, vals []planner.Expr) ([]types.Datum, error) {
	out := make([]types.Datum, len(vals))
	for i, e := range vals {
		d, err := eval(e, nil, x.env)
		if err != nil {
			return nil, err
		}
		if d.IsNull() {
			c := &t.Columns[t.Key[i].Col]
			return nil, pgerror.New("22004", "SPLIT TABLE value for key column %q cannot be null", c.Name)
		}
		out[i] = d
	}
	return out, nil
}

// splitKey encodes one tuple as an (unsalted) rowkey prefix.
func (x *executor) splitKey(t *planner.TableDesc, vals []planner.Expr) ([]byte, error) {
	ds, err := x.splitValues(t, vals)
	if err != nil {
		return nil, err
	}
	return encodeKeyPrefix(t, ds), nil
}

func encodeKeyPrefix(t *planner.TableDesc, ds []types.Datum) []byte {
	var key []byte
	for i, d := range ds {
		kc := t.Key[i]
		key = keyenc.AppendKey(key, d, t.Columns[kc.Col].Type, kc.Desc)
	}
	return key
}

// splitRange returns the Regions-1 points that divide [Lower, Upper] into
// Regions equal parts: by value when both bounds are one integer, date or
// timestamp (the first key column's type), otherwise by the encoded bytes
// read as numbers.
func (x *executor) splitRange(t *planner.TableDesc, p *planner.SplitTable) ([][]byte, error) {
	lo, err := x.splitValues(t, p.Lower)
	if err != nil {
		return nil, err
	}
	hi, err := x.splitValues(t, p.Upper)
	if err != nil {
		return nil, err
	}
	n := int64(p.Regions)
	var out [][]byte
	if len(lo) == 1 && len(hi) == 1 && arithmeticKey(t.Columns[t.Key[0].Col].Type.Kind) {
		a, b := big.NewInt(lo[0].I), big.NewInt(hi[0].I)
		if a.Cmp(b) >= 0 {
			return nil, boundsError(t, p)
		}
		span := new(big.Int).Sub(b, a)
		for i := int64(1); i < n; i++ {
			v := new(big.Int).Mul(span, big.NewInt(i))
			v.Quo(v, big.NewInt(n)).Add(v, a)
			d := lo[0]
			d.I = v.Int64()
			out = append(out, encodeKeyPrefix(t, []types.Datum{d}))
		}
		return dedupe(out), nil
	}
	a, b := encodeKeyPrefix(t, lo), encodeKeyPrefix(t, hi)
	switch c := bytes.Compare(a, b); {
	case c == 0:
		return nil, boundsError(t, p)
	case c > 0:
		a, b = b, a // a DESC column: the encodings run the other way
	}
	// Read both as numbers of the same width, with two spare bytes so that
	// close bounds still give distinct points.
	width := max(len(a), len(b)) + 2
	na := new(big.Int).SetBytes(padRight(a, width))
	span := new(big.Int).Sub(new(big.Int).SetBytes(padRight(b, width)), na)
	for i := int64(1); i < n; i++ {
		v := new(big.Int).Mul(span, big.NewInt(i))
		v.Quo(v, big.NewInt(n)).Add(v, na)
		k := v.FillBytes(make([]byte, width))
		// Trailing zero bytes only lengthen the key: the trimmed key is
		// still above a (they differ before the zeros) and below the point.
		k = bytes.TrimRight(k, "\x00")
		if len(k) == 0 {
			k = []byte{0}
		}
		out = append(out, k)
	}
	return dedupe(out), nil
}

func boundsError(t *planner.TableDesc, p *planner.SplitTable) error {
	return pgerror.New(pgerror.CodeInvalidParameterValue, "SPLIT TABLE %s: the lower bound must be below the upper bound", t.Name)
}

// arithmeticKey reports whether the points between two values of kind k
// can be computed on the values (Datum.I).
func arithmeticKey(k types.Kind) bool {
	switch k {
	case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time:
		return true
	}
	return false
}

func padRight(b []byte, n int) []byte {
	out := make([]byte, n)
	copy(out, b)
	return out
}

// dedupe sorts keys and drops repeats.
func dedupe(keys [][]byte) [][]byte {
	sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i], keys[j]) < 0 })
	out := keys[:0]
	for i, k := range keys {
		if i == 0 || !bytes.Equal(k, keys[i-1]) {
			out = append(out, k)
		}
	}
	return out
}

// regionsScan reads widesql.regions: the region lists, read on the first
// Next, sorted by table name and then key.
func (x *executor) regionsScan(p *planner.Scan) (operator, error) {
	if _, err := x.admin(); err != nil {
		return nil, err
	}
	return &listOp{x: x, p: p, load: x.regionRows}, nil // pgcatalog.go
}

// regionRows lists the regions of every user table.
func (x *executor) regionRows(ctx context.Context) ([]Row, error) {
	admin, err := x.admin()
	if err != nil {
		return nil, err
	}
	tables := x.eng.cat.list()
	sort.Slice(tables, func(i, j int) bool { return tables[i].Name < tables[j].Name })
	var out []Row
	for _, t := range tables {
		regions, err := admin.Regions(ctx, t.KVName())
		if errors.Is(err, kv.ErrTableNotFound) {
			continue // dropped since the list was taken
		}
		if err != nil {
			return nil, storageError(err)
		}
		for _, r := range regions {
			row := make(Row, planner.RegionFiles+1)
			row[planner.RegionTable] = types.NewText(t.Name)
			row[planner.RegionID] = types.NewInt(types.Int8, int64(r.ID))
			row[planner.RegionStartKey] = regionKeyDatum(t, r.Start)
			row[planner.RegionEndKey] = regionKeyDatum(t, r.End)
			row[planner.RegionSizeBytes] = types.NewInt(types.Int8, r.Bytes)
			row[planner.RegionRows] = types.NewInt(types.Int8, r.Rows)
			row[planner.RegionReads] = types.NewInt(types.Int8, r.Reads)
			row[planner.RegionWrites] = types.NewInt(types.Int8, r.Writes)
			// Rates are estimates: two decimals say all they know.
			row[planner.RegionReadRate] = types.NewFloat(math.Round(r.ReadRate*100) / 100)
			row[planner.RegionWriteRate] = types.NewFloat(math.Round(r.WriteRate*100) / 100)
			row[planner.RegionFiles] = types.NewInt(types.Int4, int64(r.Files))
			out = append(out, row)
		}
	}
	return out, nil
}

func regionKeyDatum(t *planner.TableDesc, key []byte) types.Datum {
	if len(key) == 0 {
		return types.Null
	}
	return types.NewText(decodeRegionKey(t, key))
}

// decodeRegionKey renders a kv rowkey (a region boundary) of t as its key
// column values, /v1/v2..., decoding as many columns as the bytes hold and
// showing the rest in hex; a salted table's keys start with the bucket.
func decodeRegionKey(t *planner.TableDesc, key []byte) string {
	var b strings.Builder
	if t.SaltBuckets > 0 && len(key) > 0 {
		b.WriteString("/" + strconv.Itoa(int(key[0])))
		key = key[1:]
	}
	for i := 0; i < t.KVKeyColumns() && len(key) > 0; i++ {
		kc := t.Key[i]
		d, rest, err := keyenc.DecodeKey(key, t.Columns[kc.Col].Type, kc.Desc)
		if err != nil {
			break
		}
		b.WriteString("/" + d.String())
		key = rest
	}
	if len(key) > 0 {
		b.WriteString("/x'" + hex.EncodeToString(key) + "'")
	}
	return b.String()
}
