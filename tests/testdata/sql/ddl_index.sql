# CREATE INDEX is accepted and recorded, but no index is built yet: a
# NOTICE says so and queries scan. UNIQUE indexes only on the primary key.

statement ok
CREATE TABLE users (id INT PRIMARY KEY, email TEXT, name TEXT)

statement ok
CREATE INDEX users_email ON users (email)

statement ok
CREATE INDEX IF NOT EXISTS users_email ON users (email)

statement error 42P07
CREATE INDEX users_email ON users (name)

statement ok
CREATE INDEX ON users (name)

statement ok
CREATE INDEX ON users (name)

statement ok
CREATE INDEX CONCURRENTLY IF NOT EXISTS users_lower ON users USING btree (email DESC NULLS LAST, name)

statement ok
CREATE INDEX users_partial ON users (email) WHERE email IS NOT NULL

# An index name may not clash with a table.
statement error 42P07
CREATE INDEX users ON users (email)

statement error 42P01
CREATE INDEX nosuch_idx ON nosuch (a)

statement error 42703
CREATE INDEX users_bad ON users (nosuch)

# UNIQUE on the primary key columns is already enforced by the rowkey.
statement ok
CREATE UNIQUE INDEX users_id_key ON users (id)

# widesql-only
statement error 0A000
CREATE UNIQUE INDEX users_email_key ON users (email)

statement count 2
INSERT INTO users VALUES (1, 'a@x', 'a'), (2, 'b@x', 'b')

query
SELECT id FROM users WHERE email = 'b@x'
----
2

statement ok
DROP INDEX users_email

statement ok
DROP INDEX IF EXISTS users_email

statement error 42704
DROP INDEX users_email

statement ok
DROP INDEX users_name_idx, users_name_idx1

statement ok
DROP INDEX public.users_lower

# Dropping the table drops its indexes: the name is free again.
statement ok
DROP TABLE users

statement ok
CREATE TABLE users (id INT PRIMARY KEY, email TEXT)

statement ok
CREATE INDEX users_partial ON users (email)

# Other constraints are refused rather than ignored.
# widesql-only
statement error 0A000 UNIQUE
CREATE TABLE u2 (id INT PRIMARY KEY, email TEXT UNIQUE)

# widesql-only
statement error 0A000 CHECK
CREATE TABLE u2 (id INT PRIMARY KEY, n INT CHECK (n > 0))

# widesql-only
statement error 0A000 UNIQUE
CREATE TABLE u2 (id INT PRIMARY KEY, email TEXT, UNIQUE (email))
