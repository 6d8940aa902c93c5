package exec

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// Rows of the pg_catalog relations that come
// from fixed data, the roles and the session rather than from tables.

func pgAmRows(_ context.Context, _ *executor, r *relRows) error {
	r.add("oid", amHeap, "amname", "heap", "amhandler", regProc{3, "heap_tableam_handler"}.datum(), "amtype", "t")
	r.add("oid", amBtree, "amname", "btree", "amhandler", regProc{330, "bthandler"}.datum(), "amtype", "i")
	r.add("oid", amHash, "amname", "hash", "amhandler", regProc{331, "hashhandler"}.datum(), "amtype", "i")
	return nil
}

func pgOpclassRows(_ context.Context, _ *executor, r *relRows) error {
	for _, o := range btreeOpclasses {
		r.add("oid", o.oid, "opcmethod", amBtree, "opcname", o.name, "opcnamespace", syscat.NamespacePgCatalog,
			"opcowner", BootstrapRoleOID, "opcfamily", o.family, "opcintype", o.inType, "opcdefault", true,
			"opckeytype", 0)
	}
	return nil
}

func pgCollationRows(_ context.Context, _ *executor, r *relRows) error {
	r.add("oid", collDefault, "collname", "default", "collnamespace", syscat.NamespacePgCatalog,
		"collowner", BootstrapRoleOID, "collprovider", "d", "collisdeterministic", true, "collencoding", -1)
	for _, c := range []struct {
		oid  uint32
		name string
	}{{collC, "C"}, {collPOSIX, "POSIX"}} {
		r.add("oid", c.oid, "collname", c.name, "collnamespace", syscat.NamespacePgCatalog,
			"collowner", BootstrapRoleOID, "collprovider", "c", "collisdeterministic", true, "collencoding", -1,
			"collcollate", c.name, "collctype", c.name)
	}
	return nil
}

func pgTablespaceRows(_ context.Context, _ *executor, r *relRows) error {
	r.add("oid", tablespaceDefault, "spcname", "pg_default", "spcowner", BootstrapRoleOID)
	r.add("oid", tablespaceGlobal, "spcname", "pg_global", "spcowner", BootstrapRoleOID)
	return nil
}

func pgLanguageRows(_ context.Context, _ *executor, r *relRows) error {
	for _, l := range []struct {
		oid       uint32
		name      string
		trusted   bool
		validator uint32
	}{{12, "internal", false, 2246}, {13, "c", false, 2247}, {14, "sql", true, 2248}} {
		r.add("oid", l.oid, "lanname", l.name, "lanowner", BootstrapRoleOID, "lanispl", false,
			"lanpltrusted", l.trusted, "lanplcallfoid", 0, "laninline", 0, "lanvalidator", l.validator)
	}
	return nil
}

func pgDatabaseRows(_ context.Context, x *executor, r *relRows) error {
	r.add("oid", databaseOID, "datname", x.env.sess.param("database"), "datdba", BootstrapRoleOID,
		"encoding", encodingUTF8, "datlocprovider", "c", "datistemplate", false, "datallowconn", true,
		"datconnlimit", -1, "dattablespace", tablespaceDefault, "datcollate", databaseLocale,
		"datctype", databaseLocale)
	return nil
}

func pgRolesRows(ctx context.Context, x *executor, r *relRows) error {
	roles, err := x.roleList(ctx)
	if err != nil {
		return err
	}
	for _, ro := range roles {
		r.add("rolname", ro.Name, "rolsuper", ro.Super, "rolinherit", ro.Inherit, "rolcreaterole", ro.CreateRole,
			"rolcreatedb", ro.CreateDB, "rolcanlogin", ro.CanLogin, "rolreplication", false,
			"rolconnlimit", ro.ConnLimit, "rolpassword", "********", "rolbypassrls", ro.Super, "oid", ro.OID)
	}
	return nil
}

func pgUserRows(ctx context.Context, x *executor, r *relRows) error {
	roles, err := x.roleList(ctx)
	if err != nil {
		return err
	}
	for _, ro := range roles {
		if ro.CanLogin {
			r.add("usename", ro.Name, "usesysid", ro.OID, "usecreatedb", ro.CreateDB, "usesuper", ro.Super,
				"userepl", false, "usebypassrls", ro.Super, "passwd", "********")
		}
	}
	return nil
}

// roleName returns the name of a role OID as pg_get_userbyid does:
// "unknown (OID=n)" for none.
func (x *executor) roleName(ctx context.Context, oid uint32) string {
	if roles, err := x.roleList(ctx); err == nil {
		for _, ro := range roles {
			if ro.OID == oid {
				return ro.Name
			}
		}
	}
	if n, ok := predefinedRoles[oid]; ok {
		return n
	}
	return "unknown (OID=" + strconv.FormatUint(uint64(oid), 10) + ")"
}

// tableStats are a table's size figures from the store's regions.
type tableStats struct{ rows, bytes int64 }

// tableStats sums t's regions; ok is false when the store keeps no region
// figures (or the table went away).
func (x *executor) tableStats(ctx context.Context, t *planner.TableDesc) (tableStats, bool) {
	admin, ok := x.eng.store.(kv.Admin)
	if !ok {
		return tableStats{}, false
	}
	regions, err := admin.Regions(ctx, t.KVName())
	if err != nil {
		if !errors.Is(err, kv.ErrTableNotFound) {
			return tableStats{}, false
		}
		return tableStats{}, false
	}
	var s tableStats
	for _, rg := range regions {
		s.rows += rg.Rows
		s.bytes += rg.Bytes
	}
	return s, true
}

// settingMeta is what pg_settings shows of a parameter beyond its value,
// as PostgreSQL 15 shows it.
type settingMeta struct{ category, context, vartype string }

var settingMetas = map[string]settingMeta{
	"application_name":                    {"Reporting and Logging / What to Log", "user", "string"},
	"block_size":                          {"Preset Options", "internal", "integer"},
	"bytea_output":                        {"Client Connection Defaults / Statement Behavior", "user", "enum"},
	"check_function_bodies":               {"Client Connection Defaults / Statement Behavior", "user", "bool"},
	"client_encoding":                     {"Client Connection Defaults / Locale and Formatting", "user", "string"},
	"client_min_messages":                 {"Client Connection Defaults / Statement Behavior", "user", "enum"},
	"data_directory_mode":                 {"Preset Options", "internal", "integer"},
	"datestyle":                           {"Client Connection Defaults / Locale and Formatting", "user", "string"},
	"default_transaction_deferrable":      {"Client Connection Defaults / Statement Behavior", "user", "bool"},
	"default_transaction_isolation":       {"Client Connection Defaults / Statement Behavior", "user", "enum"},
	"default_transaction_read_only":       {"Client Connection Defaults / Statement Behavior", "user", "bool"},
	"enable_hashjoin":                     {"Query Tuning / Planner Method Configuration", "user", "bool"},
	"enable_indexscan":                    {"Query Tuning / Planner Method Configuration", "user", "bool"},
	"enable_mergejoin":                    {"Query Tuning / Planner Method Configuration", "user", "bool"},
	"enable_nestloop":                     {"Query Tuning / Planner Method Configuration", "user", "bool"},
	"enable_seqscan":                      {"Query Tuning / Planner Method Configuration", "user", "bool"},
	"escape_string_warning":               {"Version and Platform Compatibility / Previous PostgreSQL Versions", "user", "bool"},
	"extra_float_digits":                  {"Client Connection Defaults / Locale and Formatting", "user", "integer"},
	"geqo":                                {"Query Tuning / Genetic Query Optimizer", "user", "bool"},
	"idle_in_transaction_session_timeout": {"Client Connection Defaults / Statement Behavior", "user", "integer"},
	"idle_session_timeout":                {"Client Connection Defaults / Statement Behavior", "user", "integer"},
	"in_hot_standby":                      {"Preset Options", "internal", "bool"},
	"integer_datetimes":                   {"Preset Options", "internal", "bool"},
	"intervalstyle":                       {"Client Connection Defaults / Locale and Formatting", "user", "enum"},
	"jit":                                 {"Query Tuning / Other Planner Options", "user", "bool"},
	"lc_collate":                          {"Preset Options", "internal", "string"},
	"lc_ctype":                            {"Preset Options", "internal", "string"},
	"lc_messages":                         {"Client Connection Defaults / Locale and Formatting", "superuser", "string"},
	"lc_monetary":                         {"Client Connection Defaults / Locale and Formatting", "user", "string"},
	"lc_numeric":                          {"Client Connection Defaults / Locale and Formatting", "user", "string"},
	"lc_time":                             {"Client Connection Defaults / Locale and Formatting", "user", "string"},
	"lock_timeout":                        {"Client Connection Defaults / Statement Behavior", "user", "integer"},
	"log_statement":                       {"Reporting and Logging / What to Log", "superuser", "enum"},
	"maintenance_work_mem":                {"Resource Usage / Memory", "user", "integer"},
	"max_connections":                     {"Connections and Authentication / Connection Settings", "postmaster", "integer"},
	"max_identifier_length":               {"Preset Options", "internal", "integer"},
	"max_index_keys":                      {"Preset Options", "internal", "integer"},
	"plan_cache_mode":                     {"Query Tuning / Other Planner Options", "user", "enum"},
	"port":                                {"Connections and Authentication / Connection Settings", "postmaster", "integer"},
	"random_page_cost":                    {"Query Tuning / Planner Cost Constants", "user", "real"},
	"row_security":                        {"Client Connection Defaults / Statement Behavior", "user", "bool"},
	"search_path":                         {"Client Connection Defaults / Statement Behavior", "user", "string"},
	"server_encoding":                     {"Preset Options", "internal", "string"},
	"server_version":                      {"Preset Options", "internal", "string"},
	"server_version_num":                  {"Preset Options", "internal", "integer"},
	"ssl":                                 {"Connections and Authentication / SSL", "sighup", "bool"},
	"standard_conforming_strings":         {"Version and Platform Compatibility / Previous PostgreSQL Versions", "user", "bool"},
	"statement_timeout":                   {"Client Connection Defaults / Statement Behavior", "user", "integer"},
	"synchronous_commit":                  {"Write-Ahead Log / Settings", "user", "enum"},
	"temp_buffers":                        {"Resource Usage / Memory", "user", "integer"},
	"timezone":                            {"Client Connection Defaults / Locale and Formatting", "user", "string"},
	"timezone_abbreviations":              {"Client Connection Defaults / Locale and Formatting", "user", "string"},
	"transaction_deferrable":              {"Client Connection Defaults / Statement Behavior", "user", "bool"},
	"transaction_isolation":               {"Client Connection Defaults / Statement Behavior", "user", "enum"},
	"transaction_read_only":               {"Client Connection Defaults / Statement Behavior", "user", "bool"},
	"work_mem":                            {"Resource Usage / Memory", "user", "integer"},
	"xmloption":                           {"Client Connection Defaults / Statement Behavior", "user", "enum"},
}

func pgSettingsRows(_ context.Context, x *executor, r *relRows) error {
	sess := x.env.sess
	names := sortedSettingNames()
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	for _, name := range names {
		s := settings[strings.ToLower(name)]
		meta, ok := settingMetas[strings.ToLower(name)]
		if !ok {
			meta = settingMeta{"Customized Options", "user", "string"}
			switch s.kind {
			case kindBool:
				meta.vartype = "bool"
			case kindInt, kindMillis, kindKB:
				meta.vartype = "integer"
			case kindEnum:
				meta.vartype = "enum"
			}
			if s.readOnly {
				meta.context = "internal"
			}
		}
		var unit, minV, maxV any
		switch s.kind {
		case kindMillis:
			unit = "ms"
		case kindKB:
			unit = "kB"
		}
		if meta.vartype == "integer" {
			minV, maxV = strconv.FormatInt(s.min, 10), strconv.FormatInt(s.max, 10)
		}
		var enum []string
		if s.kind == kindEnum {
			enum = s.enum
		}
		cur := sess.show(s.name)
		reset, source := s.def, "default"
		if v, ok := sess.startup[s.name]; ok {
			if v, err := validateSetting(s, v); err == nil {
				reset, source = v, "client"
			}
		}
		if cur != reset {
			source = "session"
		}
		r.add("name", s.name, "setting", settingBase(s, cur), "unit", unit, "category", meta.category,
			"short_desc", s.desc, "context", meta.context, "vartype", meta.vartype, "source", source,
			"min_val", minV, "max_val", maxV, "enumvals", enum, "boot_val", settingBase(s, s.def),
			"reset_val", settingBase(s, reset), "pending_restart", false)
	}
	return nil
}

// settingBase is a value as pg_settings.setting shows it: durations and
// sizes as a number of the base unit.
func settingBase(s setting, v string) string {
	switch s.kind {
	case kindMillis:
		if n, ok := parseUnits(v, "ms", timeUnits); ok {
			return strconv.FormatInt(n, 10)
		}
	case kindKB:
		if n, ok := parseUnits(v, "kB", memUnits); ok {
			return strconv.FormatInt(n, 10)
		}
	}
	return v
}

var _ = types.Null
