package syscat

import (
	"strings"

	"github.com/widesql/widesql/planner/types"
)

// pgCatalog lists pg_catalog's relations: PostgreSQL 15's names, OIDs,
// column names, order and types (as \d pg_catalog.X shows them), with
// these departures where widesql has no such type:
//
//	aclitem[]      text[], always NULL (no privileges are recorded)
//	pg_node_tree   text, the expression's SQL text where there is one
//	inet           text
//	xid, anyarray  columns of these types are left out (relfrozenxid,
//	               relminmxid, datfrozenxid, datminmxid, attmissingval,
//	               backend_xid, backend_xmin): no client reads them
//
// Relations whose rows widesql has no objects for (pg_policy, pg_trigger,
// pg_rewrite, ...) exist and are empty, so that the queries clients send
// about a table (psql's \d footers) succeed with no rows, as they do on a
// PostgreSQL table with none of those objects.
var pgCatalog = []*Relation{
	rel("pg_am", 2601, 'r', `
		oid oid, amname name, amhandler regproc, amtype "char"`),
	rel("pg_attrdef", 2604, 'r', `
		oid oid, adrelid oid, adnum smallint, adbin pg_node_tree`),
	rel("pg_attribute", 1249, 'r', `
		attrelid oid, attname name, atttypid oid, attstattarget integer, attlen smallint, attnum smallint,
		attndims integer, attcacheoff integer, atttypmod integer, attbyval boolean, attalign "char",
		attstorage "char", attcompression "char", attnotnull boolean, atthasdef boolean,
		atthasmissing boolean, attidentity "char", attgenerated "char", attisdropped boolean,
		attislocal boolean, attinhcount integer, attcollation oid, attacl aclitem[], attoptions text[],
		attfdwoptions text[]`),
	rel("pg_auth_members", 1261, 'r', `
		roleid oid, member oid, grantor oid, admin_option boolean`),
	rel("pg_class", 1259, 'r', `
		oid oid, relname name, relnamespace oid, reltype oid, reloftype oid, relowner oid, relam oid,
		relfilenode oid, reltablespace oid, relpages integer, reltuples real, relallvisible integer,
		reltoastrelid oid, relhasindex boolean, relisshared boolean, relpersistence "char", relkind "char",
		relnatts smallint, relchecks smallint, relhasrules boolean, relhastriggers boolean,
		relhassubclass boolean, relrowsecurity boolean, relforcerowsecurity boolean,
		relispopulated boolean, relreplident "char", relispartition boolean, relrewrite oid,
		relacl aclitem[], reloptions text[], relpartbound pg_node_tree`),
	rel("pg_collation", 3456, 'r', `
		oid oid, collname name, collnamespace oid, collowner oid, collprovider "char",
		collisdeterministic boolean, collencoding integer, collcollate text, collctype text,
		colliculocale text, collversion text`),
	rel("pg_constraint", 2606, 'r', `
		oid oid, conname name, connamespace oid, contype "char", condeferrable boolean,
		condeferred boolean, convalidated boolean, conrelid oid, contypid oid, conindid oid,
		conparentid oid, confrelid oid, confupdtype "char", confdeltype "char", confmatchtype "char",
		conislocal boolean, coninhcount integer, connoinherit boolean, conkey smallint[],
		confkey smallint[], conpfeqop oid[], conppeqop oid[], conffeqop oid[], confdelsetcols smallint[],
		conexclop oid[], conbin pg_node_tree`),
	rel("pg_database", 1262, 'r', `
		oid oid, datname name, datdba oid, encoding integer, datlocprovider "char", datistemplate boolean,
		datallowconn boolean, datconnlimit integer, dattablespace oid, datcollate text, datctype text,
		daticulocale text, datcollversion text, datacl aclitem[]`),
	rel("pg_depend", 2608, 'r', `
		classid oid, objid oid, objsubid integer, refclassid oid, refobjid oid, refobjsubid integer,
		deptype "char"`),
	rel("pg_description", 2609, 'r', `
		objoid oid, classoid oid, objsubid integer, description text`),
	rel("pg_enum", 3501, 'r', `
		oid oid, enumtypid oid, enumsortorder real, enumlabel name`),
	rel("pg_extension", 3079, 'r', `
		oid oid, extname name, extowner oid, extnamespace oid, extrelocatable boolean, extversion text,
		extconfig oid[], extcondition text[]`),
	rel("pg_foreign_table", 3118, 'r', `
		ftrelid oid, ftserver oid, ftoptions text[]`),
	rel("pg_index", 2610, 'r', `
		indexrelid oid, indrelid oid, indnatts smallint, indnkeyatts smallint, indisunique boolean,
		indnullsnotdistinct boolean, indisprimary boolean, indisexclusion boolean, indimmediate boolean,
		indisclustered boolean, indisvalid boolean, indcheckxmin boolean, indisready boolean,
		indislive boolean, indisreplident boolean, indkey int2vector, indcollation oidvector,
		indclass oidvector, indoption int2vector, indexprs pg_node_tree, indpred pg_node_tree`),
	rel("pg_indexes", 12043, 'v', `
		schemaname name, tablename name, indexname name, tablespace name, indexdef text`),
	rel("pg_inherits", 2611, 'r', `
		inhrelid oid, inhparent oid, inhseqno integer, inhdetachpending boolean`),
	rel("pg_language", 2612, 'r', `
		oid oid, lanname name, lanowner oid, lanispl boolean, lanpltrusted boolean, lanplcallfoid oid,
		laninline oid, lanvalidator oid, lanacl aclitem[]`),
	rel("pg_matviews", 12038, 'v', `
		schemaname name, matviewname name, matviewowner name, tablespace name, hasindexes boolean,
		ispopulated boolean, definition text`),
	rel("pg_namespace", 2615, 'r', `
		oid oid, nspname name, nspowner oid, nspacl aclitem[]`),
	rel("pg_opclass", 2616, 'r', `
		oid oid, opcmethod oid, opcname name, opcnamespace oid, opcowner oid, opcfamily oid, opcintype oid,
		opcdefault boolean, opckeytype oid`),
	rel("pg_partitioned_table", 3350, 'r', `
		partrelid oid, partstrat "char", partnatts smallint, partdefid oid, partattrs int2vector,
		partclass oidvector, partcollation oidvector, partexprs pg_node_tree`),
	rel("pg_policy", 3256, 'r', `
		oid oid, polname name, polrelid oid, polcmd "char", polpermissive boolean, polroles oid[],
		polqual pg_node_tree, polwithcheck pg_node_tree`),
	rel("pg_proc", 1255, 'r', `
		oid oid, proname name, pronamespace oid, proowner oid, prolang oid, procost real, prorows real,
		provariadic oid, prosupport regproc, prokind "char", prosecdef boolean, proleakproof boolean,
		proisstrict boolean, proretset boolean, provolatile "char", proparallel "char", pronargs smallint,
		pronargdefaults smallint, prorettype oid, proargtypes oidvector, proallargtypes oid[],
		proargmodes "char"[], proargnames text[], proargdefaults pg_node_tree, protrftypes oid[],
		prosrc text, probin text, prosqlbody pg_node_tree, proconfig text[], proacl aclitem[]`),
	rel("pg_publication", 6104, 'r', `
		oid oid, pubname name, pubowner oid, puballtables boolean, pubinsert boolean, pubupdate boolean,
		pubdelete boolean, pubtruncate boolean, pubviaroot boolean`),
	rel("pg_publication_namespace", 6237, 'r', `
		oid oid, pnpubid oid, pnnspid oid`),
	rel("pg_publication_rel", 6106, 'r', `
		oid oid, prpubid oid, prrelid oid, prqual pg_node_tree, prattrs int2vector`),
	rel("pg_rewrite", 2618, 'r', `
		oid oid, rulename name, ev_class oid, ev_type "char", ev_enabled "char", is_instead boolean,
		ev_qual pg_node_tree, ev_action pg_node_tree`),
	rel("pg_roles", 12000, 'v', `
		rolname name, rolsuper boolean, rolinherit boolean, rolcreaterole boolean, rolcreatedb boolean,
		rolcanlogin boolean, rolreplication boolean, rolconnlimit integer, rolpassword text,
		rolvaliduntil timestamp with time zone, rolbypassrls boolean, rolconfig text[], oid oid`),
	rel("pg_sequence", 2224, 'r', `
		seqrelid oid, seqtypid oid, seqstart bigint, seqincrement bigint, seqmax bigint, seqmin bigint,
		seqcache bigint, seqcycle boolean`),
	rel("pg_sequences", 12048, 'v', `
		schemaname name, sequencename name, sequenceowner name, data_type regtype, start_value bigint,
		min_value bigint, max_value bigint, increment_by bigint, cycle boolean, cache_size bigint,
		last_value bigint`),
	rel("pg_settings", 12104, 'v', `
		name text, setting text, unit text, category text, short_desc text, extra_desc text, context text,
		vartype text, source text, min_val text, max_val text, enumvals text[], boot_val text,
		reset_val text, sourcefile text, sourceline integer, pending_restart boolean`),
	rel("pg_shdescription", 2396, 'r', `
		objoid oid, classoid oid, description text`),
	rel("pg_stat_activity", 12222, 'v', `
		datid oid, datname name, pid integer, leader_pid integer, usesysid oid, usename name,
		application_name text, client_addr inet, client_hostname text, client_port integer,
		backend_start timestamp with time zone, xact_start timestamp with time zone,
		query_start timestamp with time zone, state_change timestamp with time zone, wait_event_type text,
		wait_event text, state text, query_id bigint, query text, backend_type text`),
	rel("pg_statistic_ext", 3381, 'r', `
		oid oid, stxrelid oid, stxname name, stxnamespace oid, stxowner oid, stxstattarget integer,
		stxkeys int2vector, stxkind "char"[], stxexprs pg_node_tree`),
	rel("pg_tables", 12033, 'v', `
		schemaname name, tablename name, tableowner name, tablespace name, hasindexes boolean,
		hasrules boolean, hastriggers boolean, rowsecurity boolean`),
	rel("pg_tablespace", 1213, 'r', `
		oid oid, spcname name, spcowner oid, spcacl aclitem[], spcoptions text[]`),
	rel("pg_trigger", 2620, 'r', `
		oid oid, tgrelid oid, tgparentid oid, tgname name, tgfoid oid, tgtype smallint, tgenabled "char",
		tgisinternal boolean, tgconstrrelid oid, tgconstrindid oid, tgconstraint oid, tgdeferrable boolean,
		tginitdeferred boolean, tgnargs smallint, tgattr int2vector, tgargs bytea, tgqual pg_node_tree,
		tgoldtable name, tgnewtable name`),
	rel("pg_type", 1247, 'r', `
		oid oid, typname name, typnamespace oid, typowner oid, typlen smallint, typbyval boolean,
		typtype "char", typcategory "char", typispreferred boolean, typisdefined boolean, typdelim "char",
		typrelid oid, typsubscript regproc, typelem oid, typarray oid, typinput regproc, typoutput regproc,
		typreceive regproc, typsend regproc, typmodin regproc, typmodout regproc, typanalyze regproc,
		typalign "char", typstorage "char", typnotnull boolean, typbasetype oid, typtypmod integer,
		typndims integer, typcollation oid, typdefaultbin pg_node_tree, typdefault text, typacl aclitem[]`),
	rel("pg_user", 12014, 'v', `
		usename name, usesysid oid, usecreatedb boolean, usesuper boolean, userepl boolean,
		usebypassrls boolean, passwd text, valuntil timestamp with time zone, useconfig text[]`),
	rel("pg_views", 12028, 'v', `
		schemaname name, viewname name, viewowner name, definition text`),
}

// relKinds holds the pg_class.relkind of the pg_catalog relations that
// are views in PostgreSQL; the others are tables ('r').
var relKinds = map[*Relation]byte{}

// RelKind returns r's pg_class.relkind: 'r' for PostgreSQL's catalog
// tables, 'v' for its system views and for information_schema's.
func RelKind(r *Relation) byte {
	if r.Schema == InformationSchema {
		return 'v'
	}
	if k, ok := relKinds[r]; ok {
		return k
	}
	return 'r'
}

// rel declares a pg_catalog relation from its column list, "name type,
// ..." with PostgreSQL's type names (pgTypeNames).
func rel(name string, oid uint32, kind byte, cols string) *Relation {
	r := &Relation{Schema: PgCatalog, Name: name, OID: oid}
	for _, c := range strings.Split(cols, ",") {
		c = strings.TrimSpace(c)
		sp := strings.IndexByte(c, ' ')
		t, ok := pgTypeNames[c[sp+1:]]
		if sp < 0 || !ok {
			panic("syscat: bad column " + c + " of " + name)
		}
		r.Columns = append(r.Columns, Column{Name: c[:sp], Type: t})
	}
	if kind != 'r' {
		relKinds[r] = kind
	}
	return r
}

// pgTypeNames maps the type names of the column lists above to widesql
// types; see pgCatalog for the stand-ins.
var pgTypeNames = map[string]types.T{
	"oid":                      types.TOid,
	"name":                     types.TName,
	`"char"`:                   types.TChar,
	"regproc":                  types.TRegProc,
	"regtype":                  types.TRegType,
	"int2vector":               types.TInt2Vector,
	"oidvector":                types.TOidVector,
	"boolean":                  types.TBool,
	"smallint":                 types.TInt2,
	"integer":                  types.TInt4,
	"bigint":                   types.TInt8,
	"real":                     types.TFloat4,
	"text":                     types.TText,
	"bytea":                    types.TBytea,
	"timestamp with time zone": types.TTimestampTZ,
	"smallint[]":               types.ArrayOf(types.TInt2),
	"oid[]":                    types.ArrayOf(types.TOid),
	"text[]":                   types.ArrayOf(types.TText),
	`"char"[]`:                 types.ArrayOf(types.TChar),
	"aclitem[]":                types.ArrayOf(types.TText),
	"pg_node_tree":             types.TText,
	"inet":                     types.TText,
}
