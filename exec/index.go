package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// indexDDL runs CREATE INDEX and DROP INDEX. Secondary indexes are not
// built yet: CREATE INDEX records the index in the table's descriptor (so
// the catalog can list it) and says, in a NOTICE, that queries scan.
func (x *executor) indexDDL(ctx context.Context, p planner.Plan) (string, []Row, error) {
	switch p := p.(type) {
	case *planner.CreateIndex:
		name, created, err := x.eng.cat.addIndex(ctx, p)
		if err != nil {
			return "", nil, err
		}
		if !created {
			x.env.sess.notice("NOTICE", "42P07", fmt.Sprintf("relation %q already exists, skipping", name))
		} else {
			x.env.sess.notice("NOTICE", "00000", fmt.Sprintf("index %q is recorded but not built: widesql has no secondary indexes yet, so queries on %q use its primary key or scan the table", name, p.Table))
		}
		return "CREATE INDEX", nil, nil
	case *planner.DropIndex:
		for _, name := range p.Names {
			dropped, err := x.eng.cat.dropIndex(ctx, name, p.IfExists)
			if err != nil {
				return "", nil, err
			}
			if !dropped {
				x.env.sess.notice("NOTICE", "00000", fmt.Sprintf("index %q does not exist, skipping", name))
			}
		}
		return "DROP INDEX", nil, nil
	}
	return "", nil, pgerror.New(pgerror.CodeInternalError, "cannot execute %T", p)
}

// indexOwner returns the table that has an index of this name, or nil.
// The caller holds ddlMu or accepts a racy answer.
func (c *catalog) indexOwner(name string) *planner.TableDesc {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, e := range c.tables {
		for _, ix := range e.desc.Indexes {
			if ix.Name == name {
				return e.desc
			}
		}
	}
	return nil
}

// relationExists reports whether a table or index has this name.
func (c *catalog) relationExists(name string) bool {
	_, err := c.entry(name)
	return err == nil || c.indexOwner(name) != nil
}

// addIndex records an index in its table's descriptor. It returns the name
// used and false (no error) when the name exists and IfNotExists is set.
func (c *catalog) addIndex(ctx context.Context, p *planner.CreateIndex) (string, bool, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	e, err := c.entry(p.Table)
	if err != nil {
		return "", false, err
	}
	ix := p.Index
	ix.Columns = append([]string(nil), ix.Columns...)
	if p.AutoName {
		base := ix.Name
		for n := 1; c.relationExists(ix.Name); n++ {
			suffix := fmt.Sprint(n)
			stem := strings.TrimSuffix(base, "_idx")
			tail := strings.TrimPrefix(base, stem)
			ix.Name = stem + tail + suffix
		}
	} else if c.relationExists(ix.Name) {
		if p.IfNotExists {
			return ix.Name, false, nil
		}
		return "", false, pgerror.New(pgerror.CodeDuplicateTable, "relation %q already exists", ix.Name)
	}
	d := *e.desc
	d.Indexes = append(append([]planner.IndexDesc(nil), d.Indexes...), ix)
	return ix.Name, true, c.replace(ctx, &d, e.kv)
}

// dropIndex removes a recorded index; 42704 if none has the name.
func (c *catalog) dropIndex(ctx context.Context, name string, ifExists bool) (bool, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	t := c.indexOwner(name)
	if t == nil {
		if ifExists {
			return false, nil
		}
		return false, pgerror.New(pgerror.CodeUndefinedObject, "index %q does not exist", name)
	}
	e, err := c.entry(t.Name)
	if err != nil {
		return false, err
	}
	d := *e.desc
	d.Indexes = nil
	for _, ix := range e.desc.Indexes {
		if ix.Name != name {
			d.Indexes = append(d.Indexes, ix)
		}
	}
	return true, c.replace(ctx, &d, e.kv)
}

// replace persists a new descriptor of an existing table and publishes it.
// The caller holds ddlMu.
func (c *catalog) replace(ctx context.Context, d *planner.TableDesc, t kv.Table) error {
	enc, err := json.Marshal(d)
	if err != nil {
		return err
	}
	err = c.sys.Apply(ctx, []kv.RowMutation{{Key: []byte("t/" + d.Name), Require: kv.RequirePresent, Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: catalogFamily, Qualifier: qualDesc, Timestamp: c.clock.now(), Value: enc}}}})
	if err != nil {
		return storageError(err)
	}
	c.mu.Lock()
	c.gen.Add(1)
	c.tables[d.Name] = &tableEntry{desc: d, kv: t}
	c.mu.Unlock()
	return nil
}
