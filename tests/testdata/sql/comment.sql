# COMMENT ON TABLE / COLUMN: the texts are kept in the catalog and read
# back through col_description, obj_description and pg_description, as
# GORM's AutoMigrate does (it ALTERs a column whose description differs
# from its model's comment). A table's description is the user's comment,
# then widesql's design summary on its own line: its first line is the
# comment.

statement ok
CREATE TABLE cm_people (id int PRIMARY KEY, name text, "Mixed Case" text)

statement ok
COMMENT ON TABLE cm_people IS 'people we know'

statement ok
COMMENT ON COLUMN cm_people.name IS 'full name'

statement ok
COMMENT ON COLUMN public.cm_people."Mixed Case" IS $$it's
two lines$$

query
SELECT col_description('cm_people'::regclass, 1), col_description('cm_people'::regclass, 2)
----
NULL  full name

query
SELECT col_description('cm_people'::regclass, 3) = E'it''s\ntwo lines'
----
t

query
SELECT split_part(obj_description('cm_people'::regclass, 'pg_class'), E'\n', 1)
----
people we know

# GORM's query for a column's comment.
query
SELECT description FROM pg_catalog.pg_description
WHERE objsubid = (SELECT ordinal_position FROM information_schema.columns
                  WHERE table_schema = CURRENT_SCHEMA() AND table_name = 'cm_people' AND column_name = 'name')
  AND objoid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'cm_people'
                AND relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = CURRENT_SCHEMA()))
----
full name

# A comment can be replaced; NULL and '' both drop it.
statement ok
COMMENT ON COLUMN cm_people.name IS 'given and family name'

query
SELECT col_description('cm_people'::regclass, 2)
----
given and family name

statement ok
COMMENT ON COLUMN cm_people.name IS NULL

statement ok
COMMENT ON COLUMN cm_people."Mixed Case" IS ''

query
SELECT col_description('cm_people'::regclass, 2) IS NULL, col_description('cm_people'::regclass, 3) IS NULL
----
t  t

# A comment follows its column through a rename.
statement ok
COMMENT ON COLUMN cm_people.id IS 'the key'

statement ok
ALTER TABLE cm_people RENAME COLUMN id TO person_id

query
SELECT col_description('cm_people'::regclass, 1)
----
the key

# SHOW CREATE TABLE restores the comments after the CREATE TABLE.
# widesql-only
query
SHOW CREATE TABLE cm_people
----
cm_people  CREATE TABLE cm_people (person_id integer, name text, "Mixed Case" text, PRIMARY KEY (person_id)); COMMENT ON TABLE cm_people IS 'people we know'; COMMENT ON COLUMN cm_people.person_id IS 'the key'

statement ok
COMMENT ON TABLE cm_people IS NULL

# Without a comment the description is widesql's design summary alone.
# widesql-only
query
SELECT obj_description('cm_people'::regclass, 'pg_class') LIKE 'rowkey (person_id)%'
----
t

# widesql-only
query
SHOW CREATE TABLE cm_people
----
cm_people  CREATE TABLE cm_people (person_id integer, name text, "Mixed Case" text, PRIMARY KEY (person_id)); COMMENT ON COLUMN cm_people.person_id IS 'the key'

# Comments go with a dropped table.
statement ok
DROP TABLE cm_people

statement ok
CREATE TABLE cm_people (id int PRIMARY KEY)

query
SELECT col_description('cm_people'::regclass, 1)
----
NULL

# Errors, as PostgreSQL reports them.
statement error 42P01 relation "cm_nosuch" does not exist
COMMENT ON TABLE cm_nosuch IS 'x'

statement error 42P01 relation "cm_nosuch" does not exist
COMMENT ON COLUMN cm_nosuch.a IS 'x'

statement error 3F000 schema "nosuchschema" does not exist
COMMENT ON TABLE nosuchschema.cm_people IS 'x'

statement error 42703 column "nosuch" of relation "cm_people" does not exist
COMMENT ON COLUMN cm_people.nosuch IS 'x'

statement error 42601 column name must be qualified
COMMENT ON COLUMN id IS 'x'

statement error 42601
COMMENT ON TABLE cm_people IS 5

statement error 42601
COMMENT ON TABLE cm_people IS 'a' 'b'

statement error 42601
COMMENT ON TABLE cm_people

statement error 42601
COMMENT ON nosuchkind cm_people IS 'x'

statement error 0A000 cross-database references are not implemented
COMMENT ON COLUMN a.b.c.d IS 'x'

# widesql keeps comments on tables and columns only.
# widesql-only
statement error 0A000 COMMENT ON INDEX is not supported
COMMENT ON INDEX cm_people_pkey IS 'x'

# widesql-only
statement error 0A000 cannot comment on system relation
COMMENT ON TABLE pg_catalog.pg_class IS 'x'

# The session still works.
query
SELECT count(*) FROM cm_people
----
0
