# file: widesql-only
# Reading a table AS OF TIMESTAMP, and writing at an explicit timestamp
# (SET widesql.write_timestamp). Every cell keeps the newest d.versions
# versions; a read AS OF T takes each column's newest version at or
# before T, and refuses (72000) when the versions kept cannot tell.

statement ok
SET TimeZone = 'UTC'

statement ok
CREATE TABLE hist (k INT PRIMARY KEY, v TEXT, n INT) WITH (d.versions = 3)

statement ok
SET widesql.write_timestamp = '2024-01-01 00:00:00+00'

statement count 2
INSERT INTO hist VALUES (1, 'a', 1), (2, 'b', 2)

statement ok
SET widesql.write_timestamp = '2024-01-02 00:00:00'

statement count 1
UPDATE hist SET v = 'a2' WHERE k = 1

statement ok
SET widesql.write_timestamp = '2024-01-03 00:00:00+00'

statement count 1
INSERT INTO hist VALUES (3, 'c', 3)

statement ok
SET widesql.write_timestamp = '2024-01-04 00:00:00+00'

statement count 1
UPDATE hist SET n = 20 WHERE k = 2

statement ok
RESET widesql.write_timestamp

query
SELECT k, v, n FROM hist ORDER BY k
----
1  a2  1
2  b   20
3  c   3

query
SELECT k, v, n FROM hist AS OF TIMESTAMP '2024-01-01 12:00:00+00' ORDER BY k
----
1  a  1
2  b  2

# The bound is inclusive: a version written at exactly T is visible.
query
SELECT k, v, n FROM hist AS OF TIMESTAMP '2024-01-02 00:00:00+00' ORDER BY k
----
1  a2  1
2  b   2

query
SELECT k, v, n FROM hist AS OF TIMESTAMP '2024-01-03 00:00:00+00' ORDER BY k
----
1  a2  1
2  b   2
3  c   3

# Before the first write no row existed.
query
SELECT count(*) FROM hist AS OF TIMESTAMP '2023-12-31 23:59:59+00'
----
0

# A time in the future reads the latest versions.
query
SELECT k, v, n FROM hist AS OF TIMESTAMP now() + interval '1 day' ORDER BY k
----
1  a2  1
2  b   20
3  c   3

query
SELECT k, v, n FROM hist AS OF TIMESTAMP now() - interval '1 second' ORDER BY k
----
1  a2  1
2  b   20
3  c   3

# Key predicates still reach the rowkey.
query
SELECT v FROM hist AS OF TIMESTAMP '2024-01-01 12:00:00+00' WHERE k = 1
----
a

query
EXPLAIN SELECT v FROM hist AS OF TIMESTAMP '2024-01-01 12:00:00+00' WHERE k = 1
----
POINT GET ON hist ROWKEY 4 BYTES AS OF '2024-01-01 12:00:00+00' KEY (1) FAMILIES (d)

# A date or a timestamp without zone is read in the session's zone.
query
SELECT v FROM hist AS OF TIMESTAMP '2024-01-01 12:00:00' WHERE k = 1
----
a

query
SELECT v FROM hist AS OF TIMESTAMP DATE '2024-01-02' WHERE k = 1
----
a2

# The table at two times side by side: what changed in between.
query
SELECT o.k, o.v, n.v, o.n, n.n
FROM hist AS o AS OF TIMESTAMP '2024-01-01 12:00:00+00'
JOIN hist AS n ON n.k = o.k
WHERE o.v IS DISTINCT FROM n.v OR o.n IS DISTINCT FROM n.n
ORDER BY o.k
----
1  a  a2  1  1
2  b  b   2  20

# Three more versions of v push its version of 2024-01-01 out of the
# three kept: as of then, v is unknown.
statement ok
SET widesql.write_timestamp = '2024-02-01 00:00:00+00'

statement count 1
UPDATE hist SET v = 'x1' WHERE k = 1

statement ok
SET widesql.write_timestamp = '2024-02-02 00:00:00+00'

statement count 1
UPDATE hist SET v = 'x2' WHERE k = 1

statement ok
SET widesql.write_timestamp = '2024-02-03 00:00:00+00'

statement count 1
UPDATE hist SET v = 'x3' WHERE k = 1

statement ok
RESET widesql.write_timestamp

query error 72000 snapshot too old: table "hist" keeps 3 versions of family "d"
SELECT k, v FROM hist AS OF TIMESTAMP '2024-01-01 12:00:00+00' WHERE k = 1

# n kept its version of 2024-01-01, so a query that does not read v can
# still go back there.
query
SELECT k, n FROM hist AS OF TIMESTAMP '2024-01-01 12:00:00+00' ORDER BY k
----
1  1
2  2

query
SELECT k, v FROM hist AS OF TIMESTAMP '2024-02-02 12:00:00+00' ORDER BY k
----
1  x2
2  b
3  c

# Deletes remove cells (no tombstones): a deleted row is gone from the
# past too.
statement count 1
DELETE FROM hist WHERE k = 3

query
SELECT k FROM hist AS OF TIMESTAMP '2024-01-03 12:00:00+00' WHERE k >= 2 ORDER BY k
----
2

# A family TTL: cells older than it are gone, so is the past before it.
statement ok
CREATE TABLE recent (k INT PRIMARY KEY, v TEXT) WITH (d.ttl = '1 day', d.versions = 2)

statement count 1
INSERT INTO recent VALUES (1, 'fresh')

query
SELECT v FROM recent AS OF TIMESTAMP now() + interval '1 hour'
----
fresh

# The row was written after that: its marker keeps all its history.
query
SELECT count(*) FROM recent AS OF TIMESTAMP now() - interval '1 hour'
----
0

# With one version kept, a row written after T may have replaced one
# that existed at T: the read cannot tell, so it refuses.
statement ok
CREATE TABLE one_version (k INT PRIMARY KEY, v TEXT)

statement count 1
INSERT INTO one_version VALUES (1, 'now')

query error 72000 snapshot too old: table "one_version" keeps 1 version of family "d"
SELECT v FROM one_version AS OF TIMESTAMP now() - interval '1 hour'

query error 72000 snapshot too old: table "recent" keeps the cells of family "d" for 1 day
SELECT v FROM recent AS OF TIMESTAMP now() - interval '2 days'

# What AS OF TIMESTAMP accepts.
query error 42P10 argument of AS OF TIMESTAMP must not contain variables
SELECT * FROM hist AS OF TIMESTAMP k

query error 42804 argument of AS OF TIMESTAMP must be type timestamp with time zone, not type integer
SELECT * FROM hist AS OF TIMESTAMP 42

query error 0A000 cannot use subquery in AS OF TIMESTAMP
SELECT * FROM hist AS OF TIMESTAMP (SELECT now())

query error 22004 AS OF TIMESTAMP must not be null
SELECT * FROM hist AS OF TIMESTAMP NULL

query error 22007
SELECT * FROM hist AS OF TIMESTAMP 'yesterday-ish'

query error 0A000 AS OF TIMESTAMP cannot be used with system view
SELECT * FROM versions.hist AS OF TIMESTAMP now()

# widesql.write_timestamp is a timestamptz from 1970 on, checked by SET.
statement error 22007
SET widesql.write_timestamp = 'not a time'

statement error 22008 out of range
SET widesql.write_timestamp = '1969-12-31 23:59:59+00'

query
SHOW widesql.write_timestamp
----
(empty)

statement ok
SET widesql.write_timestamp = '2030-01-01 00:00:00+00'

query
SHOW widesql.write_timestamp
----
2030-01-01 00:00:00+00

statement ok
SET widesql.write_timestamp = ''

statement ok
RESET widesql.write_timestamp

query
SELECT k, v FROM hist ORDER BY k
----
1  x3
2  b
