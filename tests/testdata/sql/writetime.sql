# file: widesql-only
# writetime(col): the timestamptz of the cell version a query read
# (Cassandra's WRITETIME); for a rowkey column the row marker's; NULL for
# a NULL column.

statement ok
SET TimeZone = 'UTC'

statement ok
CREATE TABLE wt (k INT PRIMARY KEY, v TEXT, n INT, x.note TEXT) WITH (d.versions = 3)

statement ok
SET widesql.write_timestamp = '2024-05-01 10:00:00+00'

statement count 2
INSERT INTO wt VALUES (1, 'a', 1, 'first'), (2, 'b', NULL, NULL)

statement ok
SET widesql.write_timestamp = '2024-05-02 10:00:00.123+00'

statement count 1
UPDATE wt SET n = 5 WHERE k = 2

statement ok
RESET widesql.write_timestamp

query colnames
SELECT k, v, writetime(v), writetime(n), writetime(note), writetime(k) FROM wt ORDER BY k
----
k  v  writetime               writetime               writetime               writetime
1  a  2024-05-01 10:00:00+00  2024-05-01 10:00:00+00  2024-05-01 10:00:00+00  2024-05-01 10:00:00+00
2  b  2024-05-01 10:00:00+00  2024-05-02 10:00:00.123+00  NULL                2024-05-02 10:00:00.123+00

# SELECT * is unchanged.
query colnames
SELECT *, writetime(v) AS wv FROM wt WHERE k = 1
----
k  v  n  note   wv
1  a  1  first  2024-05-01 10:00:00+00

query
SELECT k FROM wt WHERE writetime(n) > '2024-05-02' ORDER BY k
----
2

query
SELECT max(writetime(v)), min(writetime(k)) FROM wt
----
2024-05-01 10:00:00+00  2024-05-01 10:00:00+00

query
SELECT k, writetime(t.n) FROM wt AS t WHERE k = 2
----
2  2024-05-02 10:00:00.123+00

query
SELECT a.k, writetime(b.n) FROM wt a JOIN wt b ON b.k = a.k + 1
----
1  2024-05-02 10:00:00.123+00

# Only writetime(n) is read: the scan still reads n (its NULL-ness decides).
query
SELECT k, writetime(n) FROM wt ORDER BY k
----
1  2024-05-01 10:00:00+00
2  2024-05-02 10:00:00.123+00

# As of a time, the write time of the version read.
query
SELECT n, writetime(n), writetime(k) FROM wt AS OF TIMESTAMP '2024-05-01 12:00:00+00' WHERE k = 2
----
NULL  NULL  2024-05-01 10:00:00+00

query
SELECT k FROM wt WHERE k IN (SELECT k FROM wt WHERE writetime(v) < '2024-05-02')
ORDER BY k
----
1
2

query error 0A000 the argument of writetime() must be a column
SELECT writetime(1) FROM wt

query error 42703
SELECT writetime(nosuch) FROM wt

query error 0A000
SELECT writetime(c) FROM (SELECT v AS c FROM wt) s

query error 0A000
SELECT writetime(v) FROM versions.wt

query error 42803
SELECT k, writetime(v) FROM wt GROUP BY k
