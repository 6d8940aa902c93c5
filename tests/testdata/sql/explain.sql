# file: widesql-only
# EXPLAIN output: one text column "QUERY PLAN", one row per line: one line
# per operator, and per table access its path, decoded key bounds, the
# families read and the remaining filter (see README "Reading EXPLAIN").

statement ok
CREATE TABLE follows (follower VARCHAR(64), followed VARCHAR(64), info.since TIMESTAMP, info.weight DOUBLE PRECISION, PRIMARY KEY (follower, followed))

statement ok
CREATE TABLE posts (author TEXT, at TIMESTAMP, d.title TEXT, PRIMARY KEY (author, at DESC))

# Point get on the full key.
query colnames
EXPLAIN SELECT since FROM follows WHERE follower = 'alice' AND followed = 'bob'
----
QUERY PLAN
POINT GET ON follows ROWKEY 4-132 BYTES KEY ('alice', 'bob') FAMILIES (info)

# Prefix scan on the first key column.
query colnames
EXPLAIN SELECT followed FROM follows WHERE follower = 'alice'
----
QUERY PLAN
RANGE SCAN ON follows ROWKEY 4-132 BYTES [/'alice' - /'alice'] FAMILIES (info)

# Prefix + range on the second key column.
query colnames
EXPLAIN SELECT followed FROM follows WHERE follower = 'alice' AND followed >= 'b' AND followed < 'd'
----
QUERY PLAN
RANGE SCAN ON follows ROWKEY 4-132 BYTES [/'alice'/'b' - /'alice'/'d') FAMILIES (info)

# IN lists fixing every key column: a multi-get.
query colnames
EXPLAIN SELECT since FROM follows WHERE follower IN ('alice', 'bob') AND followed = 'carol'
----
QUERY PLAN
MULTI GET 2 KEYS ON follows ROWKEY 4-132 BYTES KEY ('alice', 'carol'), ('bob', 'carol') FAMILIES (info)

# IN list on a key prefix: one span per value.
query colnames
EXPLAIN SELECT followed FROM follows WHERE follower IN ('alice', 'bob')
----
QUERY PLAN
RANGE SCAN ON follows ROWKEY 4-132 BYTES [/'alice' - /'alice'], [/'bob' - /'bob'] FAMILIES (info)

# LIKE 'prefix%' is exactly a key range: no filter remains.
query colnames
EXPLAIN SELECT follower FROM follows WHERE follower LIKE 'ali%'
----
QUERY PLAN
RANGE SCAN ON follows ROWKEY 4-132 BYTES [/'ali'*] FAMILIES (info)

# A non-key predicate: full scan with a filter, reading only the families needed.
query colnames
EXPLAIN SELECT follower FROM follows WHERE weight > 1
----
QUERY PLAN
FULL SCAN ON follows ROWKEY 4-132 BYTES FAMILIES (info) FILTER (weight > 1) (full scan: no condition on rowkey column follower)

# ORDER BY matching the key order needs no sort; the reverse order is a reverse scan.
query colnames
EXPLAIN SELECT followed FROM follows WHERE follower = 'alice' ORDER BY followed DESC LIMIT 2
----
QUERY PLAN
LIMIT 2
  RANGE SCAN ON follows ROWKEY 4-132 BYTES [/'alice' - /'alice'] REVERSE FAMILIES (info) LIMIT 2

# A DESC key column: newest first is key order; a range on it bounds the scan.
query colnames
EXPLAIN SELECT title FROM posts WHERE author = 'ann' AND at > '2026-01-02 00:00:00' ORDER BY at DESC
----
QUERY PLAN
RANGE SCAN ON posts ROWKEY 10+ BYTES (/'ann'/'2026-01-02 00:00:00' - /'ann'] FAMILIES (d)

query colnames
EXPLAIN SELECT author, count(*) FROM posts GROUP BY author
----
QUERY PLAN
AGGREGATE count(*) GROUP BY author
  FULL SCAN ON posts ROWKEY 10+ BYTES FAMILIES (d) (full scan: no condition on rowkey column author)
