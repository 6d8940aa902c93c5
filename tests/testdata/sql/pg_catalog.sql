# pg_catalog relations and the catalog functions, as psql, pgjdbc,
# SQLAlchemy and GORM read them. OIDs of user objects differ from
# PostgreSQL's, so records select names, kinds and attnums, not OIDs.

statement ok
CREATE TABLE items (id serial PRIMARY KEY, name varchar(20) NOT NULL DEFAULT 'x', price numeric(10,2))

statement ok
CREATE TABLE nokey (a int, b text)

statement ok
COMMENT ON TABLE items IS 'things we sell'

statement ok
COMMENT ON COLUMN items.price IS 'in euros'

query
SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_toast%' AND nspname NOT LIKE 'pg_temp%' ORDER BY 1
----
information_schema
pg_catalog
public

# Tables, their primary-key indexes and serial sequences.
query rowsort
SELECT c.relname, c.relkind, c.relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
----
items  r  p
items_id_seq  S  p
items_pkey  i  p
nokey  r  p

query
SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.relname IN ('items', 'items_pkey') ORDER BY c.relname
----
heap
btree

# Columns: the hidden row id of a table without a primary key is not one.
query
SELECT a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'items' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
----
1  id  integer  t  t
2  name  character varying(20)  t  t
3  price  numeric(10,2)  f  f

query
SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'nokey' AND a.attnum > 0 ORDER BY a.attnum
----
a
b

query
SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid WHERE c.relname = 'items' AND d.adnum = 1
----
nextval('items_id_seq'::regclass)

query
SELECT c2.relname, i.indisprimary, i.indisunique, i.indnkeyatts, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class c2 ON c2.oid = i.indexrelid WHERE c.relname = 'items'
----
items_pkey  t  t  1  CREATE UNIQUE INDEX items_pkey ON public.items USING btree (id)

query
SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname = 'nokey'
----
0

query
SELECT con.conname, con.contype, pg_get_constraintdef(con.oid, true) FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid WHERE c.relname = 'items'
----
items_pkey  p  PRIMARY KEY (id)

query
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'items'
----
items_pkey  CREATE UNIQUE INDEX items_pkey ON public.items USING btree (id)

query
SELECT tablename, hasindexes FROM pg_tables WHERE schemaname = 'public' ORDER BY 1
----
items  t
nokey  f

query
SELECT pg_get_serial_sequence('items', 'id'), pg_get_serial_sequence('items', 'price') IS NULL
----
public.items_id_seq  t

query error 42P01
SELECT pg_get_serial_sequence('nosuch', 'id')

query error 42703
SELECT pg_get_serial_sequence('items', 'nosuch')

query
SELECT s.seqstart, s.seqincrement, s.seqmax, format_type(s.seqtypid, NULL) FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relname = 'items_id_seq'
----
1  1  2147483647  integer

# Column descriptions are the COMMENT ON COLUMN text alone.
query
SELECT col_description(c.oid, 3), col_description(c.oid, 2) IS NULL FROM pg_class c WHERE c.relname = 'items'
----
in euros  t

query
SELECT split_part(obj_description(c.oid, 'pg_class'), chr(10), 1) FROM pg_class c WHERE c.relname = 'items'
----
things we sell

# widesql-only
query
SELECT split_part(obj_description(c.oid, 'pg_class'), chr(10), 2) FROM pg_class c WHERE c.relname = 'items'
----
rowkey (id); family d: name, price

# widesql-only
statement ok
CREATE TABLE metrics (host text, ts timestamptz, f.cpu float8, PRIMARY KEY (host, ts DESC)) WITH (salt_buckets = 4, f.versions = 3)

# widesql-only
query
SELECT i.indoption::text, pg_get_indexdef(i.indexrelid, 2, false), c.reloptions::text, obj_description(c.oid, 'pg_class') FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname = 'metrics'
----
0 3  ts  {salt_buckets=4,f.versions=3}  rowkey (host, ts DESC); salt_buckets=4; family f: cpu (versions=3)

query
SELECT t.typname, t.typtype FROM pg_type t JOIN pg_class c ON c.reltype = t.oid WHERE c.relname = 'items'
----
items  c

query
SELECT typname, typlen, typcategory, typinput FROM pg_type WHERE typname IN ('int4', '_int4', 'varchar', 'name') ORDER BY 1
----
_int4  -1  A  array_in
int4  4  N  int4in
name  64  S  namein
varchar  -1  S  varcharin

query
SELECT setting FROM pg_settings WHERE name = 'max_index_keys'
----
32

query
SELECT pg_encoding_to_char(encoding), datlocprovider FROM pg_database WHERE datname = current_database()
----
UTF8  c

# Relations psql's \d reads that have no rows for a widesql table.
query
SELECT (SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relname = 'items'), (SELECT count(*) FROM pg_policy), (SELECT count(*) FROM pg_inherits), (SELECT count(*) FROM pg_statistic_ext), (SELECT count(*) FROM pg_publication)
----
0  0  0  0  0

query
SELECT format_type('1043', 24), format_type('1042', NULL), format_type('1700', -1), format_type('99999', NULL)
----
character varying(20)  character  numeric  ???

query
SELECT pg_size_pretty(10239::bigint), pg_size_pretty(10240::bigint), pg_size_pretty(123456789::bigint)
----
10239 bytes  10 kB  118 MB

query
SELECT current_schemas(true)::text, current_schemas(false)::text
----
{pg_catalog,public}  {public}

query
SELECT pg_table_is_visible(c.oid), has_table_privilege(c.relname, 'select') FROM pg_class c WHERE c.relname = 'items'
----
t  t

query error 42P01
SELECT has_table_privilege('nosuch', 'select')

query error 22023
SELECT has_table_privilege('items', 'frob')

query
SELECT pg_get_indexdef('0'), pg_get_constraintdef('0') IS NULL, pg_get_userbyid('99999')
----
NULL  t  unknown (OID=99999)
