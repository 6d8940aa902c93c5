package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// The catalog is a system table inside kv, so it is stored with the data
// (and could be shared by several servers):
//
//	rowkey "t/<name>"  family "m"  qualifier "desc"  -> JSON TableDesc
//	rowkey "seq"       family "m"  qualifier "next"  -> uint32 next table id
const (
	catalogTable  = "_widesql_catalog"
	catalogFamily = "m"
)

var (
	qualDesc = []byte("desc")
	qualNext = []byte("next")
	seqKey   = []byte("seq")
)

// catalog caches table descriptors and persists DDL in the system table.
// Reads are lock-free of kv; DDL is serialized by ddlMu.
type catalog struct {
	store kv.Store
	sys   kv.Table
	clock *clock

	ddlMu  sync.Mutex
	mu     sync.RWMutex
	tables map[string]*tableEntry
	nextID uint32
	// gen counts catalog changes; a prepared statement planned at an
	// older generation is planned again before it runs.
	gen atomic.Uint64
}

type tableEntry struct {
	desc *planner.TableDesc
	kv   kv.Table
}

var _ planner.Catalog = (*catalog)(nil)

func openCatalog(ctx context.Context, store kv.Store, clk *clock) (*catalog, error) {
	err := store.CreateTable(ctx, catalogTable, kv.TableSpec{Families: []kv.Family{{Name: catalogFamily, MaxVersions: 1}}})
	if err != nil && !errors.Is(err, kv.ErrTableExists) {
		return nil, err
	}
	sys, err := store.Table(ctx, catalogTable)
	if err != nil {
		return nil, err
	}
	c := &catalog{store: store, sys: sys, clock: clk, tables: map[string]*tableEntry{}, nextID: 1}
	it := sys.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	defer it.Close()
	for it.Next() {
		row := it.Row()
		for _, cell := range row.Cells {
			switch {
			case string(row.Key) == string(seqKey) && string(cell.Qualifier) == string(qualNext):
				c.nextID = binary.BigEndian.Uint32(cell.Value)
			case string(cell.Qualifier) == string(qualDesc) && bytes.HasPrefix(row.Key, []byte("t/")):
				var d planner.TableDesc
				if err := json.Unmarshal(cell.Value, &d); err != nil {
					return nil, pgerror.Wrap(err, pgerror.CodeDataCorrupted, "catalog entry "+string(row.Key))
				}
				if err := planner.CompileKeyExprs(&d); err != nil {
					return nil, pgerror.Wrap(err, pgerror.CodeDataCorrupted, "catalog entry "+string(row.Key))
				}
				t, err := store.Table(ctx, d.KVName())
				if err != nil {
					return nil, pgerror.Wrap(err, pgerror.CodeDataCorrupted, "table "+d.Name)
				}
				c.tables[d.Name] = &tableEntry{desc: &d, kv: t}
			}
		}
	}
	return c, it.Err()
}

// Table implements planner.Catalog.
func (c *catalog) Table(name string) (*planner.TableDesc, error) {
	e, err := c.entry(name)
	if err != nil {
		return nil, err
	}
	return e.desc, nil
}

func (c *catalog) entry(name string) (*tableEntry, error) {
	c.mu.RLock()
	e := c.tables[name]
	c.mu.RUnlock()
	if e == nil {
		return nil, pgerror.New(pgerror.CodeUndefinedTable, "relation %q does not exist", name)
	}
	return e, nil
}

// kvTable returns the kv table holding desc's rows.
func (c *catalog) kvTable(desc *planner.TableDesc) (kv.Table, error) {
	e, err := c.entry(desc.Name)
	if err != nil {
		return nil, err
	}
	if e.desc.ID != desc.ID {
		return nil, pgerror.New(pgerror.CodeUndefinedTable, "relation %q was dropped and re-created during the statement", desc.Name)
	}
	return e.kv, nil
}

// list returns the descriptors, unordered.
func (c *catalog) list() []*planner.TableDesc {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*planner.TableDesc, 0, len(c.tables))
	for _, e := range c.tables {
		out = append(out, e.desc)
	}
	return out
}

// create assigns desc an id, records it and creates its kv table. It
// reports false when the table exists and ifNotExists is set.
func (c *catalog) create(ctx context.Context, desc *planner.TableDesc, ifNotExists bool) (bool, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if _, err := c.entry(desc.Name); err == nil || c.indexOwner(desc.Name) != nil {
		if ifNotExists {
			return false, nil
		}
		return false, pgerror.New(pgerror.CodeDuplicateTable, "relation %q already exists", desc.Name)
	}
	d := *desc
	d.ID = c.nextID
	spec := kv.TableSpec{Families: kvFamilies(&d)}
	for b := 1; b < d.SaltBuckets; b++ {
		spec.SplitKeys = append(spec.SplitKeys, []byte{byte(b)})
	}
	if d.ShardBits > 0 {
		for _, v := range planner.RowIDSplits(d.ShardBits) {
			spec.SplitKeys = append(spec.SplitKeys, keyenc.AppendKey(nil, types.NewInt(types.Int8, v), types.TInt8, false))
		}
	}
	if err := c.store.CreateTable(ctx, d.KVName(), spec); err != nil {
		return false, err
	}
	enc, err := json.Marshal(&d)
	if err != nil {
		return false, err
	}
	ts := c.clock.now()
	next := binary.BigEndian.AppendUint32(nil, d.ID+1)
	err = c.sys.Apply(ctx, []kv.RowMutation{
		{Key: []byte("t/" + d.Name), Require: kv.RequireAbsent, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: catalogFamily, Qualifier: qualDesc, Timestamp: ts, Value: enc}}},
		{Key: seqKey, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: catalogFamily, Qualifier: qualNext, Timestamp: ts, Value: next}}},
	})
	if err != nil {
		_ = c.store.DropTable(ctx, d.KVName())
		return false, err
	}
	t, err := c.store.Table(ctx, d.KVName())
	if err != nil {
		return false, err
	}
	c.mu.Lock()
	c.gen.Add(1)
	c.tables[d.Name] = &tableEntry{desc: &d, kv: t}
	c.nextID = d.ID + 1
	c.mu.Unlock()
	return true, nil
}

// drop removes a table's catalog entry and then its data.
func (c *catalog) drop(ctx context.Context, name string, ifExists bool) (bool, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	e, err := c.entry(name)
	if err != nil {
		if ifExists {
			return false, nil
		}
		return false, err
	}
	err = c.sys.Apply(ctx, []kv.RowMutation{{Key: []byte("t/" + name), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}})
	if err != nil {
		return false, err
	}
	c.mu.Lock()
	c.gen.Add(1)
	delete(c.tables, name)
	c.mu.Unlock()
	return true, c.store.DropTable(ctx, e.desc.KVName())
}

// kvFamilies is the store's view of a table's families and their options.
func kvFamilies(d *planner.TableDesc) []kv.Family {
	out := make([]kv.Family, len(d.Families))
	for i, f := range d.Families {
		out[i] = kv.Family{Name: f.Name, MaxVersions: f.MaxVersions, TTL: f.TTL, Compression: f.Compression, Bloom: f.Bloom}
	}
	return out
}

// alter publishes nw in place of old (ALTER TABLE; helper "families",
// exec/alter.go). Under ddlMu it checks that old is still the published
// descriptor (40001 if another DDL got there first), runs prepare (checks
// against the data, store family changes) and persists nw: a plain
// overwrite of the catalog row, or, when the name changes, one atomic batch
// moving it to the new name (42P07 if that name is taken).
func (c *catalog) alter(ctx context.Context, old, nw *planner.TableDesc, prepare func(kv.Table) error) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	e, err := c.entry(old.Name)
	if err != nil {
		return err
	}
	if e.desc != old {
		return pgerror.New(pgerror.CodeSerializationFailure, "could not serialize access due to a concurrent change of relation %q", old.Name)
	}
	if nw.Name != old.Name && c.relationExists(nw.Name) {
		return pgerror.New(pgerror.CodeDuplicateTable, "relation %q already exists", nw.Name)
	}
	if err := prepare(e.kv); err != nil {
		return err
	}
	if nw.Name == old.Name {
		return c.replace(ctx, nw, e.kv)
	}
	enc, err := json.Marshal(nw)
	if err != nil {
		return err
	}
	err = c.sys.Apply(ctx, []kv.RowMutation{
		{Key: []byte("t/" + nw.Name), Require: kv.RequireAbsent, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: catalogFamily, Qualifier: qualDesc, Timestamp: c.clock.now(), Value: enc}}},
		{Key: []byte("t/" + old.Name), Require: kv.RequirePresent, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}},
	})
	if err != nil {
		return storageError(err)
	}
	c.mu.Lock()
	c.gen.Add(1)
	delete(c.tables, old.Name)
	c.tables[nw.Name] = &tableEntry{desc: nw, kv: e.kv}
	c.mu.Unlock()
	return nil
}
