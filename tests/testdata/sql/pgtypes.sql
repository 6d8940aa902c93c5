# The system-catalog types: oid, name, "char", the reg* types, int2vector
# and oidvector, printed, parsed, compared and cast as PostgreSQL 15 does.

statement ok
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)

statement ok
CREATE TABLE "Mixed" (id INTEGER PRIMARY KEY)

# oid: unsigned 32-bit; negative input down to -2^31 wraps.
query
SELECT '4294967295'::oid, '-1'::oid, ' 42 '::oid, 7::oid, (-1)::oid, 4294967295::int8::oid
----
4294967295  4294967295  42  7  4294967295  4294967295

query error 22003
SELECT '4294967296'::oid

query error 22P02
SELECT 'abc'::oid

query error 22003 OID out of range
SELECT (-1)::int8::oid

query
SELECT 4294967295::oid::int4, 4294967295::oid::int8, 4294967295::oid::text
----
-1  4294967295  4294967295

# oid meets integers at oid; it has no arithmetic.
query
SELECT 1::oid < 2, 1::oid = 1::int8, 16385::oid = 16385, '16385' = 16385::oid, 3::oid IN (1, 2, 3)
----
t  t  t  t  t

query error 42883
SELECT 1::oid + 1

query
SELECT x FROM (VALUES (3::oid), (4294967295::oid), (1::oid)) v(x) ORDER BY x
----
1
3
4294967295

# name: text-like, truncated to 63 bytes.
query
SELECT 'pg_class'::name, length(repeat('a', 70)::name), 'ab'::name = 'ab'::text, 'abc'::name LIKE 'a%', upper('abc'::name), 'ab'::name || 'c'
----
pg_class  63  t  t  ABC  abc

# "char": one byte, possibly empty.
query
SELECT 'r'::"char", 'abc'::"char", ''::"char" = '', 'A'::"char"::int, 65::"char", 'x'::"char"::text, 'r'::"char" = 'r'
----
r  a  t  65  A  x  t

query error 22003
SELECT 300::"char"

# regclass: a relation's OID that prints as its name.
query
SELECT 'pg_class'::regclass, 'pg_class'::regclass::oid, 'pg_catalog.pg_class'::regclass::oid, 'PG_CLASS'::regclass, '"pg_class"'::regclass, 1259::regclass, '1259'::regclass
----
pg_class  1259  1259  pg_class  pg_class  pg_class  pg_class

query
SELECT 'users'::regclass, 'public.users'::regclass, '"Mixed"'::regclass, 'users'::regclass::text, 'users'::regclass::oid::regclass, 'users'::regclass::oid > 16383
----
users  users  "Mixed"  users  users  t

query
SELECT 0::regclass, '-'::regclass, 999999::regclass, '999999'::regclass
----
-  -  999999  999999

query
SELECT CAST('users' AS REGCLASS), 'users'::pg_catalog.regclass, CAST('users'::regclass AS OID) = 'users'::regclass
----
users  users  t

query error 42P01 relation "nosuch" does not exist
SELECT 'nosuch'::regclass

query error 42P01
SELECT 'mixed'::regclass

query error 3F000
SELECT 'nosuch.users'::regclass

query error 42602
SELECT ''::regclass

# reg* values compare as oids, with oids and integers (so an untyped
# literal on the other side is read as an oid).
query
SELECT 'pg_class'::regclass = 1259, 1259::oid = 'pg_class'::regclass, 'pg_class'::regclass = '1259', 'pg_class'::regclass < 'pg_type'::regclass
----
t  t  t  f

# postgres-only: widesql reads the literal as a regclass, so the name resolves
query error 22P02
SELECT 'pg_class'::regclass = 'pg_class'

# regtype: format_type's names, without modifiers.
query
SELECT 'int4'::regtype, 'integer'::regtype::text, 'varchar(10)'::regtype, 'int4[]'::regtype, '_text'::regtype, 'bpchar'::regtype, 23::regtype, 'int4'::regtype::oid
----
integer  integer  character varying  integer[]  text[]  character  integer  23

query error 42704
SELECT 'nosuchtype'::regtype

query
SELECT 'pg_catalog'::regnamespace, 'public'::regnamespace::oid, 11::regnamespace, 'information_schema'::regnamespace::oid = 0
----
pg_catalog  2200  pg_catalog  f

query error 3F000
SELECT 'nosuch'::regnamespace

query error 42704
SELECT 'nosuchrole'::regrole

query
SELECT 0::regproc, '-'::regproc, 0::regrole, 0::regtype
----
-  -  -  -

# int2vector and oidvector: space-separated; subscripts start at 0.
query
SELECT '1 2'::int2vector, ' 1  2 '::int2vector, ''::int2vector = '', '23 25'::oidvector, '1 2'::int2vector::text
----
1 2  1 2  t  23 25  1 2

query error 22P02
SELECT '1,2'::int2vector

query error 22003
SELECT '70000'::int2vector

query error 42846
SELECT '{1,2}'::int2[]::int2vector

query
SELECT '1 2'::oidvector = '1 2'::oidvector, '1 2'::oidvector < '1 3'::oidvector, '1 2 3'::oidvector < '2'::oidvector
----
t  t  f

query
SELECT array_length('1 2 3'::int2vector::int2[], 1), array_length('1 2'::oidvector::oid[], 1)
----
3  2

# pg_typeof names the types.
query
SELECT pg_typeof(1::oid), pg_typeof('a'::name), pg_typeof('a'::"char"), pg_typeof('pg_class'::regclass), pg_typeof('int4'::regtype), pg_typeof('1'::int2vector), pg_typeof('1'::oidvector)
----
oid  name  "char"  regclass  regtype  int2vector  oidvector

# Parameters: oid = $1 takes an integer; $1::regclass a name.
query
SELECT 'users'::regclass = 'users'::regclass::oid::int8::oid
----
t
