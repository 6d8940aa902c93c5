# ALTER TABLE: ADD COLUMN (into a new family), DROP COLUMN, RENAME COLUMN,
# RENAME TO, ALTER COLUMN SET/DROP DEFAULT, SET/RESET family options.
# widesql never rewrites rows: a column added with NOT NULL, DEFAULT or a
# sequence needs an empty table.

statement ok
CREATE TABLE at_users (id int PRIMARY KEY, name text)

statement count 2
INSERT INTO at_users VALUES (1, 'ann'), (2, 'bob')

# widesql-only
statement ok
ALTER TABLE at_users ADD COLUMN p.bio text

# postgres-only: no column families
statement ok
ALTER TABLE at_users ADD COLUMN bio text

# Existing rows read NULL in the new column.
query colnames
SELECT * FROM at_users ORDER BY id
----
id  name  bio
1   ann   NULL
2   bob   NULL

statement count 1
INSERT INTO at_users VALUES (3, 'cy', 'hello')

statement count 1
UPDATE at_users SET bio = 'hi' WHERE id = 1

query
SELECT id, name, bio FROM at_users ORDER BY id
----
1  ann  hi
2  bob  NULL
3  cy   hello

statement error 42701 column "bio" of relation "at_users" already exists
ALTER TABLE at_users ADD COLUMN bio text

statement ok
ALTER TABLE at_users ADD COLUMN IF NOT EXISTS bio text

statement ok
ALTER TABLE at_users ADD COLUMN score int, ADD COLUMN rank int

query colnames
SELECT * FROM at_users WHERE id = 2
----
id  name  bio   score  rank
2   bob   NULL  NULL   NULL

statement error 23502 column "must" of relation "at_users" contains null values
ALTER TABLE at_users ADD COLUMN must int NOT NULL

# PostgreSQL fills existing rows with the default; widesql refuses.
# widesql-only
statement error 0A000 cannot add column "dflt" with a DEFAULT to table "at_users" because it has rows
ALTER TABLE at_users ADD COLUMN dflt int DEFAULT 7

# widesql-only
statement error 0A000 cannot add serial or identity column "sid" to table "at_users" because it has rows
ALTER TABLE at_users ADD COLUMN sid serial

statement error 42P01
ALTER TABLE at_nosuch ADD COLUMN x int

# RENAME COLUMN: the data follows the column.
statement ok
ALTER TABLE at_users RENAME COLUMN name TO title

query
SELECT id, title FROM at_users ORDER BY id
----
1  ann
2  bob
3  cy

statement error 42703
SELECT name FROM at_users

statement error 42703 column "nosuch" does not exist
ALTER TABLE at_users RENAME COLUMN nosuch TO x

statement error 42701 column "bio" of relation "at_users" already exists
ALTER TABLE at_users RENAME COLUMN title TO bio

# A key column can be renamed.
statement ok
ALTER TABLE at_users RENAME COLUMN id TO uid

query
SELECT uid, title FROM at_users WHERE uid = 2
----
2  bob

# DROP COLUMN: the column is gone; adding one of the same name starts empty.
statement ok
ALTER TABLE at_users DROP COLUMN bio

query colnames
SELECT * FROM at_users ORDER BY uid
----
uid  title  score  rank
1    ann    NULL   NULL
2    bob    NULL   NULL
3    cy     NULL   NULL

statement ok
ALTER TABLE at_users ADD COLUMN bio text

query
SELECT uid, bio FROM at_users ORDER BY uid
----
1  NULL
2  NULL
3  NULL

statement error 42703 column "nosuch" of relation "at_users" does not exist
ALTER TABLE at_users DROP COLUMN nosuch

statement ok
ALTER TABLE at_users DROP COLUMN IF EXISTS nosuch

# PostgreSQL drops the primary key constraint with the column; widesql
# cannot: the key is where the row is stored.
# widesql-only
statement error 0A000 because it is part of the primary key
ALTER TABLE at_users DROP COLUMN uid

# ALTER COLUMN SET DEFAULT / DROP DEFAULT apply to later inserts.
statement ok
ALTER TABLE at_users ALTER COLUMN score SET DEFAULT 10

statement count 1
INSERT INTO at_users (uid, title) VALUES (4, 'dee')

statement ok
ALTER TABLE at_users ALTER COLUMN score DROP DEFAULT

statement count 1
INSERT INTO at_users (uid, title) VALUES (5, 'eve')

query
SELECT uid, score FROM at_users WHERE uid >= 4 ORDER BY uid
----
4  10
5  NULL

# RENAME TO moves the table, data and all.
statement ok
CREATE TABLE at_other (a int PRIMARY KEY)

statement error 42P07 relation "at_other" already exists
ALTER TABLE at_users RENAME TO at_other

statement ok
ALTER TABLE at_users RENAME TO at_people

query
SELECT count(*) FROM at_people
----
5

statement error 42P01
SELECT * FROM at_users

# On an empty table NOT NULL and DEFAULT columns can be added.
statement ok
CREATE TABLE at_empty (k int PRIMARY KEY)

statement ok
ALTER TABLE at_empty ADD COLUMN must text NOT NULL, ADD COLUMN dflt int DEFAULT 7, ADD COLUMN sid serial

statement count 1
INSERT INTO at_empty (k, must) VALUES (1, 'x')

query
SELECT k, must, dflt, sid FROM at_empty
----
1  x  7  1

statement error 23502
INSERT INTO at_empty (k) VALUES (2)

# Family options: SET and RESET (widesql storage parameters).
# widesql-only
statement ok
CREATE TABLE at_fam (id int PRIMARY KEY, v text)

# widesql-only
statement ok
ALTER TABLE at_fam ADD COLUMN h.hist text

# widesql-only
statement ok
ALTER TABLE at_fam SET (h.versions = 5, h.ttl = '2 days', h.compression = 'zstd', d.bloom = 'none')

# widesql-only
query
SHOW CREATE TABLE at_fam
----
at_fam  CREATE TABLE at_fam (id integer, v text, h.hist text, PRIMARY KEY (id)) WITH (d.bloom = 'none', h.versions = 5, h.ttl = '2 days', h.compression = 'zstd')

# widesql-only
statement ok
ALTER TABLE at_fam RESET (h.ttl, d.bloom)

# widesql-only
query
SHOW CREATE TABLE at_fam
----
at_fam  CREATE TABLE at_fam (id integer, v text, h.hist text, PRIMARY KEY (id)) WITH (h.versions = 5, h.compression = 'zstd')

# widesql-only
statement count 1
INSERT INTO at_fam VALUES (1, 'a', 'b')

# widesql-only
query
SELECT id, v, hist FROM at_fam
----
1  a  b

# widesql-only
statement error 42704 column family "nope" does not exist
ALTER TABLE at_fam SET (nope.ttl = 5)

# widesql-only
statement error 22023 unrecognized parameter "h.color"
ALTER TABLE at_fam SET (h.color = 'blue')

# widesql-only
statement error 0A000 cannot change salt_buckets of an existing table
ALTER TABLE at_fam SET (salt_buckets = 8)

# widesql-only
statement error 0A000 cannot change layout of an existing table
ALTER TABLE at_fam SET (layout = 'wide')

statement error 22023 unrecognized parameter
ALTER TABLE at_people SET (nosuch = 50)

statement ok
ALTER TABLE IF EXISTS at_nosuch SET (nosuch = 50)

statement ok
DROP TABLE at_people, at_other, at_empty

# widesql-only
statement ok
DROP TABLE at_fam
