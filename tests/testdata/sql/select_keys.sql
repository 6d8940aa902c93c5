# WHERE clauses on key columns: points, IN, ORs, prefix ranges, LIKE, DESC keys.

statement ok
CREATE TABLE ev (tenant TEXT, seq INT, kind TEXT, PRIMARY KEY (tenant, seq))

statement count 9
INSERT INTO ev VALUES
  ('acme', 1, 'a'), ('acme', 2, 'b'), ('acme', 3, 'c'), ('acme', 4, 'a'), ('acme', 5, 'b'),
  ('abc', 1, 'z'), ('abcd', 7, 'z'), ('ab', 2, 'y'), ('b', 1, 'x')

query
SELECT tenant, seq, kind FROM ev WHERE tenant = 'acme' AND seq = 3
----
acme  3  c

query
SELECT tenant, seq FROM ev WHERE tenant = 'acme' AND seq = 99
----

# Key prefix only, in key order.
query
SELECT seq FROM ev WHERE tenant = 'acme' ORDER BY seq
----
1
2
3
4
5

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq < 3 ORDER BY seq
----
1
2

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq <= 3 ORDER BY seq
----
1
2
3

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq > 3 ORDER BY seq
----
4
5

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq >= 3 ORDER BY seq
----
3
4
5

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq BETWEEN 2 AND 4 ORDER BY seq
----
2
3
4

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq > 2 AND seq < 5 ORDER BY seq
----
3
4

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq BETWEEN 4 AND 2
----

query
SELECT seq FROM ev WHERE tenant = 'acme' AND seq > 3 AND seq < 3
----

# IN lists and ORs of equalities.
query rowsort
SELECT tenant, seq FROM ev WHERE tenant IN ('abc', 'b', 'nobody')
----
abc  1
b    1

query rowsort
SELECT tenant, seq FROM ev WHERE tenant = 'acme' AND seq IN (5, 1, 3, 1)
----
acme  1
acme  3
acme  5

query rowsort
SELECT tenant, seq FROM ev WHERE (tenant = 'acme' AND seq = 2) OR (tenant = 'b' AND seq = 1) OR tenant = 'ab'
----
ab    2
acme  2
b     1

query rowsort
SELECT tenant, seq FROM ev WHERE tenant = 'abc' OR tenant = 'abcd'
----
abc   1
abcd  7

# Ranges on the first key column; string keys compare bytewise here (C collation
# would be needed for PostgreSQL to agree on non-ASCII text).
query
SELECT tenant, seq FROM ev WHERE tenant >= 'abc' AND tenant < 'acme' ORDER BY tenant, seq
----
abc   1
abcd  7

query
SELECT tenant, seq FROM ev WHERE tenant > 'acme' ORDER BY tenant, seq
----
b  1

# LIKE with a literal prefix.
query
SELECT tenant, seq FROM ev WHERE tenant LIKE 'abc%' ORDER BY tenant, seq
----
abc   1
abcd  7

query
SELECT tenant, seq FROM ev WHERE tenant LIKE 'a%' AND kind = 'y' ORDER BY tenant
----
ab  2

query
SELECT tenant FROM ev WHERE tenant LIKE 'ab_' ORDER BY tenant
----
abc

query
SELECT tenant FROM ev WHERE tenant NOT LIKE 'a%'
----
b

# A key predicate combined with a non-key filter.
query
SELECT seq FROM ev WHERE tenant = 'acme' AND kind = 'b' ORDER BY seq DESC
----
5
2

# DESC key columns: the natural order is newest first.
# widesql-only
statement ok
CREATE TABLE posts (author TEXT, at TIMESTAMP, title TEXT, PRIMARY KEY (author, at DESC))

# postgres-only: PostgreSQL has no DESC in PRIMARY KEY
statement ok
CREATE TABLE posts (author TEXT, at TIMESTAMP, title TEXT, PRIMARY KEY (author, at))

statement count 5
INSERT INTO posts VALUES
  ('ann', '2026-01-01 10:00:00', 'first'),
  ('ann', '2026-01-03 10:00:00', 'third'),
  ('ann', '2026-01-02 10:00:00', 'second'),
  ('ann', '2026-01-04 10:00:00', 'fourth'),
  ('bob', '2026-01-02 09:00:00', 'hello')

query
SELECT title FROM posts WHERE author = 'ann' ORDER BY at DESC
----
fourth
third
second
first

query
SELECT title FROM posts WHERE author = 'ann' ORDER BY at
----
first
second
third
fourth

query
SELECT title FROM posts WHERE author = 'ann' ORDER BY at DESC LIMIT 2
----
fourth
third

query
SELECT title FROM posts WHERE author = 'ann' AND at > '2026-01-02 10:00:00' ORDER BY at DESC
----
fourth
third

query
SELECT title FROM posts WHERE author = 'ann' AND at >= '2026-01-02 10:00:00' ORDER BY at
----
second
third
fourth

query
SELECT title FROM posts WHERE author = 'ann' AND at < '2026-01-03 10:00:00' ORDER BY at DESC
----
second
first

query
SELECT title FROM posts WHERE author = 'ann' AND at BETWEEN '2026-01-02 00:00:00' AND '2026-01-03 23:59:59' ORDER BY at DESC
----
third
second

query
SELECT author, at, title FROM posts WHERE author = 'ann' AND at = '2026-01-03 10:00:00'
----
ann  2026-01-03 10:00:00  third

query
SELECT author, title FROM posts ORDER BY author DESC, at DESC
----
bob  hello
ann  fourth
ann  third
ann  second
ann  first

# A DESC integer key.
# widesql-only
statement ok
CREATE TABLE scores (game INT, score INT, player TEXT, PRIMARY KEY (game, score DESC, player))

# postgres-only: PostgreSQL has no DESC in PRIMARY KEY
statement ok
CREATE TABLE scores (game INT, score INT, player TEXT, PRIMARY KEY (game, score, player))

statement count 6
INSERT INTO scores VALUES (1, 10, 'a'), (1, 30, 'b'), (1, 20, 'c'), (1, 30, 'a'), (2, 5, 'z'), (1, -5, 'd')

query
SELECT score, player FROM scores WHERE game = 1 ORDER BY score DESC, player
----
30   a
30   b
20   c
10   a
-5   d

query
SELECT score, player FROM scores WHERE game = 1 AND score <= 20 AND score > -10 ORDER BY score DESC
----
20  c
10  a
-5  d

query
SELECT player FROM scores WHERE game = 1 AND score = 30 ORDER BY player DESC
----
b
a

statement ok
DROP TABLE ev

statement ok
DROP TABLE posts

statement ok
DROP TABLE scores
