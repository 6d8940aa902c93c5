# Regions: SPLIT TABLE, SHOW TABLE t REGIONS, widesql.regions and the
# full-scan guardrail (SET widesql.full_scan).
# file: widesql-only

statement ok
CREATE TABLE users (name TEXT, id INT, v TEXT, PRIMARY KEY (name, id))

# A new table is one region, unbounded at both ends.
query
SELECT start_key, end_key, rows, writes FROM widesql.regions WHERE table_name = 'users'
----
NULL  NULL  0  0

statement ok
SPLIT TABLE users BY ('h'), ('p', 5)

# Boundaries decode into key column values; a prefix of the key is fine.
query
SELECT start_key, end_key FROM widesql.regions WHERE table_name = 'users'
----
NULL    /'h'
/'h'    /'p'/5
/'p'/5  NULL

# A point that already is a boundary adds nothing.
statement ok
SPLIT TABLE users BY ('h')

query
SELECT count(*) FROM widesql.regions WHERE table_name = 'users'
----
3

statement ok
INSERT INTO users VALUES ('ada', 1, 'x'), ('bob', 2, 'y'), ('cy', 3, 'z'), ('hal', 1, 'h'), ('pat', 4, 'p'), ('pat', 5, 'q'), ('zed', 9, 'z')

# Writes land in the region that holds the key ('pat' sorts after 'p').
query
SELECT start_key, writes FROM widesql.regions WHERE table_name = 'users'
----
NULL    3
/'h'    1
/'p'/5  3

query
SELECT count(*) FROM users
----
7

query
SELECT sum(reads) >= 7, sum(writes), min(size_bytes) >= 0, min(rows) >= 0, min(files) >= 0 FROM widesql.regions WHERE table_name = 'users'
----
t  7  t  t  t

query
SELECT read_rate >= 0 AND write_rate > 0 FROM widesql.regions WHERE table_name = 'users'
----
t
t
t

statement ok
UPDATE users SET v = 'w' WHERE name = 'zed' AND id = 9

query
SELECT start_key, writes FROM widesql.regions WHERE table_name = 'users'
----
NULL    3
/'h'    1
/'p'/5  4

statement ok
CREATE TABLE nums (id BIGINT PRIMARY KEY, v INT)

# BETWEEN ... REGIONS n: n-1 points spread evenly between the bounds.
statement ok
SPLIT TABLE nums BETWEEN (0) AND (100) REGIONS 4

query
SELECT start_key, end_key FROM widesql.regions WHERE table_name = 'nums'
----
NULL  /25
/25   /50
/50   /75
/75   NULL

# The view has no key: filters, ORDER BY and aggregates work as on any table.
query
SELECT table_name, count(*) FROM widesql.regions GROUP BY table_name ORDER BY count(*) DESC, table_name
----
nums   4
users  3

query
SELECT end_key FROM widesql.regions WHERE table_name = 'nums' AND end_key IS NOT NULL ORDER BY end_key DESC LIMIT 1
----
/75

# A DESC key column: the points are values, the boundaries come out in key
# order (largest first).
statement ok
CREATE TABLE recent (ts BIGINT, PRIMARY KEY (ts DESC))

statement ok
SPLIT TABLE recent BETWEEN (1000) AND (4000) REGIONS 3

query
SELECT start_key, end_key FROM widesql.regions WHERE table_name = 'recent'
----
NULL   /3000
/3000  /2000
/2000  NULL

# A text key split by BETWEEN: points between the encoded bytes, shown as
# far as they decode.
statement ok
CREATE TABLE words (w TEXT PRIMARY KEY)

statement ok
SPLIT TABLE words BETWEEN ('a') AND ('b') REGIONS 2

query
SELECT start_key, end_key FROM widesql.regions WHERE table_name = 'words'
----
NULL        /x'618001'
/x'618001'  NULL

# Timestamps split by value.
statement ok
CREATE TABLE ticks (ts TIMESTAMP, host TEXT, PRIMARY KEY (ts, host))

statement ok
SPLIT TABLE ticks BETWEEN ('2024-01-01') AND ('2024-01-03') REGIONS 2

query
SELECT end_key FROM widesql.regions WHERE table_name = 'ticks' AND end_key IS NOT NULL
----
/'2024-01-02 00:00:00'

# A salted table starts with one region per bucket; a split point splits
# every bucket. Its boundaries start with the bucket number.
statement ok
CREATE TABLE salted (id INT PRIMARY KEY, v TEXT) WITH (salt_buckets = 4)

query
SELECT start_key, end_key FROM widesql.regions WHERE table_name = 'salted'
----
NULL  /1
/1    /2
/2    /3
/3    NULL

statement ok
SPLIT TABLE salted BY (100)

query
SELECT start_key, end_key FROM widesql.regions WHERE table_name = 'salted'
----
NULL    /0/100
/0/100  /1
/1      /1/100
/1/100  /2
/2      /2/100
/2/100  /3
/3      /3/100
/3/100  NULL

# A bucket key expression in front: split at the buckets, and sequential
# ids spread over the regions.
statement ok
CREATE TABLE orders (id BIGINT, v INT, PRIMARY KEY ((id % 4), id))

statement ok
SPLIT TABLE orders BY (1), (2), (3)

statement ok
INSERT INTO orders VALUES (100, 0), (101, 0), (102, 0), (103, 0), (104, 0), (105, 0), (106, 0), (107, 0)

query
SELECT start_key, end_key, writes FROM widesql.regions WHERE table_name = 'orders'
----
NULL  /1    2
/1    /2    2
/2    /3    2
/3    NULL  2

# A wide-layout table's kv rowkey is its key columns but the last: it
# splits between groups of rows.
statement ok
CREATE TABLE fans (star TEXT, fan TEXT, since DATE, PRIMARY KEY (star, fan)) WITH (layout = 'wide')

statement ok
SPLIT TABLE fans BY ('m')

statement error 42601 point 1 has 2 values, but the rowkey has 1 columns
SPLIT TABLE fans BY ('m', 'x')

statement ok
INSERT INTO fans VALUES ('ada', 'bob', '2024-01-01'), ('ada', 'cy', '2024-01-02'), ('zoe', 'ada', '2024-01-03')

query
SELECT start_key, end_key, writes FROM widesql.regions WHERE table_name = 'fans'
----
NULL  /'m'  2
/'m'  NULL  1

# Errors.
statement error 42P01
SPLIT TABLE nosuch BY (1)

statement error 42P01
SHOW TABLE nosuch REGIONS

statement error 42809
SHOW TABLE widesql.regions REGIONS

statement error 42809
SPLIT TABLE widesql.regions BY (1)

statement error 42601 point 1 has 3 values, but the rowkey has 2 columns
SPLIT TABLE users BY ('a', 1, 2)

statement error 22P02
SPLIT TABLE users BY ('a', 'x')

statement error 22003
SPLIT TABLE users BY ('a', 99999999999)

statement error 22004
SPLIT TABLE users BY (NULL)

statement error 22023
SPLIT TABLE nums BETWEEN (0) AND (100) REGIONS 0

statement error 22023 lower bound must be below the upper bound
SPLIT TABLE nums BETWEEN (5) AND (5) REGIONS 2

statement error 42703
SPLIT TABLE nums BY (id)

# The session goes on after the errors.
query
SELECT count(*) FROM widesql.regions WHERE table_name = 'users'
----
3

# The full-scan guardrail.
statement ok
SET widesql.full_scan = 'reject'

statement error 55000 full scan of table "users" rejected by widesql.full_scan
SELECT * FROM users WHERE v = 'x'

statement error 55000 full scan of table "nums"
SELECT name FROM users WHERE name = 'ada' AND id IN (SELECT v FROM nums)

statement error 55000
UPDATE users SET v = 'q'

statement error 55000
DELETE FROM nums WHERE v = 1

statement error 55000
EXPLAIN ANALYZE SELECT * FROM users

# Keyed reads pass; so do system views, EXPLAIN and ALLOW FULL SCAN.
query
SELECT v FROM users WHERE name = 'ada'
----
x

query
SELECT count(*) > 0 FROM widesql.regions
----
t

query
EXPLAIN SELECT * FROM users WHERE v = 'x'
----
FULL SCAN ON users ROWKEY 6+ BYTES FAMILIES (d) FILTER (v = 'x') (full scan: no condition on rowkey column name)

query
SELECT name FROM users WHERE v = 'x' ALLOW FULL SCAN
----
ada

statement ok
UPDATE users SET v = 'x' WHERE v = 'x' ALLOW FULL SCAN

statement ok
SET widesql.full_scan = 'warn'

query
SELECT count(*) FROM users
----
7

statement ok
RESET widesql.full_scan

query
SELECT count(*) FROM users
----
7
