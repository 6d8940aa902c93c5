package exec

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/syscat"
)

// Roles live in their own system table, beside the table catalog:
//
//	rowkey "r/<name>"  family "m"  qualifier "role"  -> JSON roleRecord
//	rowkey "next"      family "m"  qualifier "oid"   -> uint32 next role OID
//
// A password is stored only as a SCRAM-SHA-256 verifier (pgwire/auth).
// Role OIDs: the bootstrap superuser is 10, as in PostgreSQL; other roles
// take OIDs from syscat.FirstUserOID up, inside the OID block of table id
// 0, which no table ever has (table ids start at 1).
const (
	rolesTable  = "_widesql_roles"
	rolesFamily = "m"
	maxRoles    = syscat.BlockSize
)

var (
	qualRole    = []byte("role")
	qualNextOID = []byte("oid")
	roleNextKey = []byte("next")
)

// roleRecord is one stored role.
type roleRecord struct {
	OID         uint32 `json:"oid"`
	Name        string `json:"name"`
	Super       bool   `json:"super,omitempty"`
	Inherit     bool   `json:"inherit,omitempty"`
	CreateRole  bool   `json:"createrole,omitempty"`
	CreateDB    bool   `json:"createdb,omitempty"`
	CanLogin    bool   `json:"login,omitempty"`
	Replication bool   `json:"replication,omitempty"`
	BypassRLS   bool   `json:"bypassrls,omitempty"`
	ConnLimit   int    `json:"connlimit"`
	// Verifier is the SCRAM-SHA-256 verifier; "" for no password.
	Verifier string `json:"verifier,omitempty"`
	// ValidUntil is VALID UNTIL in µs since the epoch (types.PosInf for
	// 'infinity'); nil for none.
	ValidUntil *int64 `json:"validuntil,omitempty"`
}

func (r *roleRecord) info() RoleInfo {
	return RoleInfo{OID: r.OID, Name: r.Name, Super: r.Super, Inherit: r.Inherit, CreateRole: r.CreateRole,
		CreateDB: r.CreateDB, CanLogin: r.CanLogin, ConnLimit: r.ConnLimit, HasPassword: r.Verifier != "",
		Replication: r.Replication, BypassRLS: r.BypassRLS, ValidUntil: r.ValidUntil}
}

func roleKey(name string) []byte { return []byte("r/" + name) }

// roleStore caches the stored roles. Reads take mu; changes are
// serialized by ddlMu and written to the store before the cache.
type roleStore struct {
	sys   kv.Table
	clock *clock

	ddlMu sync.Mutex
	mu    sync.RWMutex
	roles map[string]*roleRecord // records are immutable once published
	next  uint32
}

func openRoles(ctx context.Context, store kv.Store, clk *clock) (*roleStore, error) {
	err := store.CreateTable(ctx, rolesTable, kv.TableSpec{Families: []kv.Family{{Name: rolesFamily, MaxVersions: 1}}})
	if err != nil && !errors.Is(err, kv.ErrTableExists) {
		return nil, err
	}
	sys, err := store.Table(ctx, rolesTable)
	if err != nil {
		return nil, err
	}
	rs := &roleStore{sys: sys, clock: clk, roles: map[string]*roleRecord{}, next: syscat.FirstUserOID}
	it := sys.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	defer it.Close()
	for it.Next() {
		row := it.Row()
		for _, cell := range row.Cells {
			switch {
			case string(row.Key) == string(roleNextKey) && string(cell.Qualifier) == string(qualNextOID):
				rs.next = binary.BigEndian.Uint32(cell.Value)
			case string(cell.Qualifier) == string(qualRole) && strings.HasPrefix(string(row.Key), "r/"):
				r := &roleRecord{}
				if err := json.Unmarshal(cell.Value, r); err != nil {
					return nil, pgerror.Wrap(err, pgerror.CodeDataCorrupted, "role entry "+string(row.Key))
				}
				rs.roles[r.Name] = r
			}
		}
	}
	return rs, it.Err()
}

// get returns the role name, or nil.
func (rs *roleStore) get(name string) *roleRecord {
	rs.mu.RLock()
	defer rs.mu.RUnlock()
	return rs.roles[name]
}

// list returns the roles ordered by name.
func (rs *roleStore) list() []*roleRecord {
	rs.mu.RLock()
	out := make([]*roleRecord, 0, len(rs.roles))
	for _, r := range rs.roles {
		out = append(out, r)
	}
	rs.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (rs *roleStore) hasOID(oid uint32) bool {
	rs.mu.RLock()
	defer rs.mu.RUnlock()
	for _, r := range rs.roles {
		if r.OID == oid {
			return true
		}
	}
	return false
}

func (rs *roleStore) put(r *roleRecord, require kv.Precondition) (kv.RowMutation, error) {
	enc, err := json.Marshal(r)
	if err != nil {
		return kv.RowMutation{}, err
	}
	return kv.RowMutation{Key: roleKey(r.Name), Require: require, Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: rolesFamily, Qualifier: qualRole, Timestamp: rs.clock.now(), Value: enc}}}, nil
}

// apply writes muts and, once they are durable, publishes the new records
// and drops the removed names. Callers hold ddlMu.
func (rs *roleStore) apply(ctx context.Context, muts []kv.RowMutation, publish []*roleRecord, remove []string, next uint32) error {
	if err := rs.sys.Apply(ctx, muts); err != nil {
		if errors.Is(err, kv.ErrConditionFailed) {
			return pgerror.New(pgerror.CodeSerializationFailure, "could not serialize access due to a concurrent role change")
		}
		return err
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, n := range remove {
		delete(rs.roles, n)
	}
	for _, r := range publish {
		rs.roles[r.Name] = r
	}
	if next != 0 {
		rs.next = next
	}
	return nil
}

// create stores a new role. r.OID 0 assigns the next role OID.
func (rs *roleStore) create(ctx context.Context, r *roleRecord) error {
	rs.ddlMu.Lock()
	defer rs.ddlMu.Unlock()
	if rs.get(r.Name) != nil {
		return errRoleExists(r.Name)
	}
	var muts []kv.RowMutation
	next := uint32(0)
	if r.OID == 0 {
		if rs.next >= syscat.FirstUserOID+maxRoles {
			return pgerror.New(pgerror.CodeProgramLimitExceeded, "too many roles: widesql stores at most %d", maxRoles)
		}
		r.OID, next = rs.next, rs.next+1
		muts = append(muts, kv.RowMutation{Key: roleNextKey, Mutations: []kv.Mutation{{Kind: kv.SetCell,
			Family: rolesFamily, Qualifier: qualNextOID, Timestamp: rs.clock.now(), Value: binary.BigEndian.AppendUint32(nil, next)}}})
	}
	m, err := rs.put(r, kv.RequireAbsent)
	if err != nil {
		return err
	}
	return rs.apply(ctx, append(muts, m), []*roleRecord{r}, nil, next)
}

// replace stores nw in place of the role oldName (renaming it when the
// names differ), provided oldName is still old.
func (rs *roleStore) replace(ctx context.Context, old, nw *roleRecord) error {
	rs.ddlMu.Lock()
	defer rs.ddlMu.Unlock()
	if rs.get(old.Name) != old {
		return pgerror.New(pgerror.CodeSerializationFailure, "could not serialize access due to a concurrent change of role %q", old.Name)
	}
	if nw.Name == old.Name {
		m, err := rs.put(nw, kv.RequirePresent)
		if err != nil {
			return err
		}
		return rs.apply(ctx, []kv.RowMutation{m}, []*roleRecord{nw}, nil, 0)
	}
	if rs.get(nw.Name) != nil {
		return errRoleExists(nw.Name)
	}
	m, err := rs.put(nw, kv.RequireAbsent)
	if err != nil {
		return err
	}
	del := kv.RowMutation{Key: roleKey(old.Name), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}
	return rs.apply(ctx, []kv.RowMutation{del, m}, []*roleRecord{nw}, []string{old.Name}, 0)
}

// drop removes the roles, all or none.
func (rs *roleStore) drop(ctx context.Context, roles []*roleRecord) error {
	rs.ddlMu.Lock()
	defer rs.ddlMu.Unlock()
	var muts []kv.RowMutation
	var names []string
	for _, r := range roles {
		if rs.get(r.Name) != r {
			return pgerror.New(pgerror.CodeSerializationFailure, "could not serialize access due to a concurrent change of role %q", r.Name)
		}
		muts = append(muts, kv.RowMutation{Key: roleKey(r.Name), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
		names = append(names, r.Name)
	}
	if len(muts) == 0 {
		return nil
	}
	return rs.apply(ctx, muts, nil, names, 0)
}

func errRoleExists(name string) error {
	return pgerror.New(codeDuplicateObject, "role %q already exists", name)
}

func errNoRole(name string) error {
	return pgerror.New(codeUndefinedObject, "role %q does not exist", name)
}

// SQLSTATEs of role management.
const (
	codeDuplicateObject        = "42710"
	codeUndefinedObject        = "42704"
	codeInsufficientPrivilege  = "42501"
	codeObjectInUse            = "55006"
	codeDependentObjectsExist  = "2BP01"
	codeFeatureNotSupportedRol = "0A000"
)

// roleStore returns the engine's role store.
func (e *Engine) roleStore(ctx context.Context) (*roleStore, error) {
	return e.roles, nil
}
