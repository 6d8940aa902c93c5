# file: widesql-only
# Key expressions: PRIMARY KEY parts computed from columns (seed 004's
# hashes, reversed keys and time buckets). The SQL is written against the
# logical columns; the planner routes predicates through the expressions.

statement ok
CREATE TABLE ke_logs (host TEXT, event TEXT, ts BIGINT, msg TEXT, PRIMARY KEY ((left(md5(host), 6)), host, event, ts DESC))

statement count 6
INSERT INTO ke_logs VALUES ('web1', 'login', 100, 'a'), ('web1', 'login', 200, 'b'), ('web1', 'logout', 150, 'c'), ('web2', 'login', 120, 'd'), ('db1', 'login', 90, 'e'), ('web1', 'login', 300, 'f')

query colnames
SELECT * FROM ke_logs WHERE host = 'web1' AND event = 'login' ORDER BY ts DESC
----
host  event  ts   msg
web1  login  300  f
web1  login  200  b
web1  login  100  a

query
SELECT msg FROM ke_logs WHERE host = 'web1' AND event = 'login' AND ts BETWEEN 150 AND 300 ORDER BY ts
----
b
f

query rowsort
SELECT host, msg FROM ke_logs WHERE host IN ('web2', 'db1')
----
db1   e
web2  d

query rowsort
SELECT msg FROM ke_logs WHERE host > 'web'
----
a
b
c
d
f

statement error 23505 duplicate key
INSERT INTO ke_logs VALUES ('web1', 'login', 100, 'dup')

query
SELECT count(*) FROM ke_logs
----
6

# Changing a column a key expression reads moves the row.
statement count 1
UPDATE ke_logs SET host = 'web9' WHERE host = 'db1' AND event = 'login' AND ts = 90

query
SELECT host, msg FROM ke_logs WHERE host = 'web9'
----
web9  e

query
SELECT count(*) FROM ke_logs WHERE host = 'db1'
----
0

statement count 1
DELETE FROM ke_logs WHERE host = 'web2'

query
SELECT count(*) FROM ke_logs
----
5

# The follow graph keyed by fixed-length hashes: the original values are
# kept as cells, so SELECT returns them.
statement ok
CREATE TABLE ke_follows (follower TEXT, followed TEXT, since DATE, PRIMARY KEY ((md5(follower)), (md5(followed))))

statement count 4
INSERT INTO ke_follows VALUES ('alice', 'bob', '2024-01-01'), ('alice', 'carol', '2024-02-01'), ('bob', 'alice', '2024-03-01'), ('carol', 'alice', NULL)

query
SELECT since FROM ke_follows WHERE follower = 'alice' AND followed = 'bob'
----
2024-01-01

query
SELECT followed FROM ke_follows WHERE follower = 'alice' ORDER BY followed
----
bob
carol

query rowsort
SELECT follower FROM ke_follows WHERE followed = 'alice'
----
bob
carol

statement error 23502
INSERT INTO ke_follows VALUES (NULL, 'bob', NULL)

# A reversed key: phone numbers sharing a prefix spread out.
statement ok
CREATE TABLE ke_phones (phone TEXT, owner TEXT, PRIMARY KEY ((reverse(phone))))

statement count 3
INSERT INTO ke_phones VALUES ('13800001234', 'ann'), ('13800001235', 'bo'), ('13900001234', 'cy')

query
SELECT owner FROM ke_phones WHERE phone = '13800001235'
----
bo

query rowsort
SELECT phone FROM ke_phones WHERE phone LIKE '138%'
----
13800001234
13800001235

# Time buckets: a range over ts reads one bounded scan per bucket and
# merges them back into ts order.
statement ok
CREATE TABLE ke_metrics (ts BIGINT, host TEXT, v DOUBLE PRECISION, PRIMARY KEY ((ts % 10), ts, host))

statement ok
INSERT INTO ke_metrics WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 60) SELECT g, 'h' || (g % 3)::text, g * 0.5 FROM s

query
SELECT ts, host FROM ke_metrics WHERE ts >= 13 AND ts < 19 ORDER BY ts
----
13  h1
14  h2
15  h0
16  h1
17  h2
18  h0

query
SELECT ts FROM ke_metrics WHERE ts > 50 ORDER BY ts DESC LIMIT 3
----
60
59
58

query
SELECT count(*), sum(v) FROM ke_metrics WHERE ts BETWEEN 21 AND 24
----
4  45

query
SELECT v FROM ke_metrics WHERE ts = 7 AND host = 'h1'
----
3.5

query
SELECT count(*) FROM ke_metrics WHERE ts < 0
----
0

statement error 42P17 IMMUTABLE
CREATE TABLE ke_bad (a TEXT, PRIMARY KEY ((md5(a || now()::text))))

statement error 42703
CREATE TABLE ke_bad (a TEXT, PRIMARY KEY ((md5(nosuch))))
