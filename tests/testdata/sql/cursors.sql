# Server-side cursors: DECLARE / FETCH / MOVE / CLOSE, as psycopg's named
# cursors and SQLAlchemy's stream_results use them.

statement ok
CREATE TABLE cur_t (k int PRIMARY KEY, v text)

statement ok
INSERT INTO cur_t SELECT g, 'v' || g FROM generate_series(1, 10) g

# Outside a transaction block only WITH HOLD is allowed.
statement error 25P01 DECLARE CURSOR can only be used in transaction blocks
DECLARE c CURSOR FOR SELECT * FROM cur_t

statement ok
BEGIN

statement ok
DECLARE c NO SCROLL CURSOR WITHOUT HOLD FOR SELECT k, v FROM cur_t WHERE k > 2 ORDER BY k

query
FETCH FORWARD 3 FROM c
----
3  v3
4  v4
5  v5

query
FETCH c
----
6  v6

statement ok
MOVE 2 IN c

query
FETCH ALL FROM c
----
9  v9
10  v10

query
FETCH NEXT FROM c
----

statement error 55000 cursor can only scan forward
FETCH PRIOR FROM c

statement ok
ROLLBACK

statement ok
BEGIN

statement ok
DECLARE c CURSOR FOR SELECT k FROM cur_t ORDER BY k

statement error 42P03 cursor "c" already exists
DECLARE c CURSOR FOR SELECT k FROM cur_t

statement ok
ROLLBACK

statement ok
BEGIN

statement ok
DECLARE c CURSOR FOR SELECT k FROM cur_t ORDER BY k

statement ok
CLOSE c

statement error 34000 cursor "c" does not exist
FETCH c

statement ok
ROLLBACK

# A cursor without HOLD ends with its transaction.
statement ok
BEGIN

statement ok
DECLARE c CURSOR FOR SELECT k FROM cur_t ORDER BY k

statement ok
COMMIT

statement error 34000 cursor "c" does not exist
FETCH c

# WITH HOLD survives COMMIT and sees the rows as of its DECLARE.
statement ok
BEGIN

statement ok
DECLARE h CURSOR WITH HOLD FOR SELECT k FROM cur_t WHERE k <= 3 ORDER BY k

statement ok
COMMIT

statement ok
DELETE FROM cur_t WHERE k = 2

query
FETCH 5 FROM h
----
1
2
3

statement ok
CLOSE ALL

statement error 34000 cursor "h" does not exist
CLOSE h

statement error 42601
DECLARE x CURSOR WITH HOLD FOR EXPLAIN SELECT 1

statement ok
DROP TABLE cur_t
