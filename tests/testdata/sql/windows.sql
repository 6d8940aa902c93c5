# Window functions: ranking, offsets, frame values and aggregates over
# windows, with PARTITION BY, ORDER BY, named windows and frames, as
# PostgreSQL 15 computes them. Rows tied in a window's ORDER BY are peers:
# they share rank, cume_dist and the default frame's end.

statement ok
CREATE TABLE w_emp (id INT PRIMARY KEY, dept TEXT, salary INT, bonus NUMERIC, hired DATE)

statement count 9
INSERT INTO w_emp VALUES
  (1, 'eng', 120, 10.5, '2020-01-10'),
  (2, 'eng', 100, NULL, '2021-03-01'),
  (3, 'eng', 120, 2, '2019-07-15'),
  (4, 'ops', 90, 1, '2022-02-02'),
  (5, 'ops', NULL, 3, '2018-05-05'),
  (6, 'ops', 90, 4, '2020-12-31'),
  (7, NULL, 70, NULL, '2023-01-01'),
  (8, NULL, 80, 5, '2017-06-30'),
  (9, 'sales', 60, 0, '2016-01-01')

# Ranking over ties: rank leaves gaps, dense_rank does not.
query colnames
SELECT id, row_number() OVER (ORDER BY salary DESC, id), rank() OVER (ORDER BY salary DESC),
  dense_rank() OVER (ORDER BY salary DESC) FROM w_emp ORDER BY id
----
id  row_number  rank  dense_rank
1   2           2     2
2   4           4     3
3   3           2     2
4   5           5     4
5   1           1     1
6   6           5     4
7   8           8     6
8   7           7     5
9   9           9     7

# NULLs sort last ascending (first descending) and NULLs FIRST/LAST move them.
query
SELECT id, rank() OVER (ORDER BY salary), rank() OVER (ORDER BY salary NULLS FIRST),
  rank() OVER (ORDER BY salary DESC NULLS LAST) FROM w_emp ORDER BY id
----
1  7  8  1
2  6  7  3
3  7  8  1
4  4  5  4
5  9  1  9
6  4  5  4
7  2  3  7
8  3  4  6
9  1  2  8

# PARTITION BY: NULL keys form one partition.
query
SELECT id, dept, row_number() OVER (PARTITION BY dept ORDER BY id DESC),
  rank() OVER (PARTITION BY dept ORDER BY salary), count(*) OVER (PARTITION BY dept)
FROM w_emp ORDER BY id
----
1  eng    3  2  3
2  eng    2  1  3
3  eng    1  2  3
4  ops    3  1  3
5  ops    2  3  3
6  ops    1  1  3
7  NULL   2  1  2
8  NULL   1  2  2
9  sales  1  1  1

query
SELECT id, percent_rank() OVER (ORDER BY salary), cume_dist() OVER (ORDER BY salary),
  percent_rank() OVER (PARTITION BY dept ORDER BY salary), cume_dist() OVER (PARTITION BY dept ORDER BY salary)
FROM w_emp ORDER BY id
----
1  0.75   0.8888888888888888  0.5  1
2  0.625  0.6666666666666666  0    0.3333333333333333
3  0.75   0.8888888888888888  0.5  1
4  0.375  0.5555555555555556  0    0.6666666666666666
5  1      1                   1    1
6  0.375  0.5555555555555556  0    0.6666666666666666
7  0.125  0.2222222222222222  0    0.5
8  0.25   0.3333333333333333  1    1
9  0      0.1111111111111111  0    1

# ntile: the first count % buckets buckets get one row more; NULL gives NULL.
query
SELECT id, ntile(4) OVER (ORDER BY id), ntile(2) OVER (PARTITION BY dept ORDER BY id),
  ntile(20) OVER (ORDER BY id), ntile(NULL) OVER (ORDER BY id) FROM w_emp ORDER BY id
----
1  1  1  1  NULL
2  1  1  2  NULL
3  1  2  3  NULL
4  2  1  4  NULL
5  2  1  5  NULL
6  3  2  6  NULL
7  3  1  7  NULL
8  4  2  8  NULL
9  4  1  9  NULL

query error 22014 argument of ntile must be greater than zero
SELECT ntile(0) OVER () FROM w_emp

# lag and lead: offset and default, per partition.
query
SELECT id, lag(salary) OVER (ORDER BY id), lead(salary) OVER (ORDER BY id),
  lag(salary, 2, -1) OVER (ORDER BY id), lead(id, 1, 0) OVER (PARTITION BY dept ORDER BY id),
  lead(id, 0) OVER (ORDER BY id), lag(id, 3, id * 10) OVER (ORDER BY id)
FROM w_emp ORDER BY id
----
1  NULL  100   -1    2  1  10
2  120   120   -1    3  2  20
3  100   90    120   0  3  30
4  120   NULL  100   5  4  1
5  90    90    120   6  5  2
6  NULL  70    90    0  6  3
7  90    80    NULL  8  7  4
8  70    60    90    0  8  5
9  80    NULL  70    0  9  6

# A negative offset looks the other way; a NULL offset gives NULL.
# postgres-only: TiDB's grammar takes only a number or a parameter as the offset
query
SELECT id, lag(id, -1) OVER (ORDER BY id), lead(id, NULL) OVER (ORDER BY id), lag(id, 1 + 1) OVER (ORDER BY id)
FROM w_emp ORDER BY id
----
1  2     NULL  NULL
2  3     NULL  NULL
3  4     NULL  1
4  5     NULL  2
5  6     NULL  3
6  7     NULL  4
7  8     NULL  5
8  9     NULL  6
9  NULL  NULL  7

# The default takes the common type of the value and the default.
query colnames
SELECT id, lag(bonus, 1, 0) OVER (ORDER BY id), lead(dept, 3, 'none') OVER (ORDER BY id) AS nxt
FROM w_emp ORDER BY id
----
id  lag   nxt
1   0     ops
2   10.5  ops
3   NULL  ops
4   2     NULL
5   1     NULL
6   3     sales
7   4     none
8   NULL  none
9   5     none

query error 22P02
SELECT lag(id, 1, 'x') OVER () FROM w_emp

query error 42883 function lag(integer, integer, text) does not exist
SELECT lag(id, 1, 'x'::text) OVER () FROM w_emp

# Aggregates over the default frame: peers share the running value.
query
SELECT id, salary, sum(salary) OVER (ORDER BY salary), count(*) OVER (ORDER BY salary),
  count(salary) OVER (ORDER BY salary), max(id) OVER (ORDER BY salary), min(id) OVER (ORDER BY salary DESC)
FROM w_emp ORDER BY salary, id
----
9  60    60   1  1  9  1
7  70    130  2  2  9  1
8  80    210  3  3  9  1
4  90    390  5  5  9  1
6  90    390  5  5  9  1
2  100   490  6  6  9  1
1  120   730  8  8  9  1
3  120   730  8  8  9  1
5  NULL  730  9  8  9  5

# Without ORDER BY the frame is the whole partition.
query
SELECT id, sum(salary) OVER (PARTITION BY dept), avg(salary) OVER (PARTITION BY dept),
  avg(bonus) OVER (), min(hired) OVER (PARTITION BY dept), max(dept) OVER ()
FROM w_emp ORDER BY id
----
1  340  113.3333333333333333  3.6428571428571429  2019-07-15  sales
2  340  113.3333333333333333  3.6428571428571429  2019-07-15  sales
3  340  113.3333333333333333  3.6428571428571429  2019-07-15  sales
4  180  90.0000000000000000   3.6428571428571429  2018-05-05  sales
5  180  90.0000000000000000   3.6428571428571429  2018-05-05  sales
6  180  90.0000000000000000   3.6428571428571429  2018-05-05  sales
7  150  75.0000000000000000   3.6428571428571429  2017-06-30  sales
8  150  75.0000000000000000   3.6428571428571429  2017-06-30  sales
9  60   60.0000000000000000   3.6428571428571429  2016-01-01  sales

# ROWS frames.
query
SELECT id,
  sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
  sum(id) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING),
  sum(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
  sum(id) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING),
  count(*) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING),
  max(salary) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)
FROM w_emp ORDER BY id
----
1  3   1   45  7     0  120
2  6   3   44  9     0  120
3  9   6   42  11    1  120
4  12  10  39  13    2  120
5  15  15  35  15    3  120
6  18  21  30  17    4  90
7  21  28  24  9     5  90
8  24  36  17  NULL  6  90
9  17  45  9   NULL  7  80

# RANGE frames without offsets: CURRENT ROW means the first or last peer.
query
SELECT id, salary,
  sum(id) OVER (ORDER BY salary RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
  count(*) OVER (ORDER BY salary RANGE BETWEEN CURRENT ROW AND CURRENT ROW),
  sum(id) OVER (ORDER BY salary RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
FROM w_emp ORDER BY salary, id
----
9  60    45  1  45
7  70    36  1  45
8  80    29  1  45
4  90    21  2  45
6  90    21  2  45
2  100   11  1  45
1  120   9   2  45
3  120   9   2  45
5  NULL  5   1  45

# first_value, last_value and nth_value read the frame.
query
SELECT id, first_value(id) OVER w, last_value(id) OVER w, nth_value(id, 2) OVER w,
  last_value(id) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
  nth_value(id, 3) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)
FROM w_emp WINDOW w AS (PARTITION BY dept ORDER BY salary, id) ORDER BY id
----
1  2  1  1     3  NULL
2  2  2  NULL  3  3
3  2  3  1     3  4
4  4  4  NULL  6  5
5  4  5  6     6  6
6  4  6  6     6  7
7  7  7  NULL  8  8
8  7  8  8     8  9
9  9  9  NULL  9  NULL

query error 22016 argument of nth_value must be greater than zero
SELECT nth_value(id, 0) OVER () FROM w_emp

# Named windows: OVER w copies it; OVER (w ...) adds an ORDER BY or a
# frame to a window that has none.
query
SELECT id, sum(salary) OVER w, sum(salary) OVER (w ORDER BY id),
  sum(salary) OVER (w2 ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), row_number() OVER w2
FROM w_emp WINDOW w AS (PARTITION BY dept), w2 AS (w ORDER BY id DESC) ORDER BY id
----
1  340  120  220  3
2  340  220  220  2
3  340  340  120  1
4  180  90   90   3
5  180  90   90   2
6  180  180  90   1
7  150  70   150  2
8  150  150  80   1
9  60   60   60   1

query error 42704 window "nosuch" does not exist
SELECT sum(id) OVER nosuch FROM w_emp

query error 42P20 cannot override ORDER BY clause of window "w"
SELECT sum(id) OVER (w ORDER BY id) FROM w_emp WINDOW w AS (ORDER BY salary)

query error 42P20 cannot override PARTITION BY clause of window "w"
SELECT sum(id) OVER (w PARTITION BY id) FROM w_emp WINDOW w AS (ORDER BY salary)

query error 42P20 cannot copy window "w" because it has a frame clause
SELECT sum(id) OVER (w) FROM w_emp WINDOW w AS (ORDER BY salary ROWS UNBOUNDED PRECEDING)

query error 42P20 window "w" is already defined
SELECT sum(id) OVER w FROM w_emp WINDOW w AS (ORDER BY id), w AS (ORDER BY salary)

# Window functions over an aggregation read the groups.
query
SELECT dept, sum(salary), sum(sum(salary)) OVER (), rank() OVER (ORDER BY count(*) DESC, dept),
  sum(count(*)) OVER (ORDER BY dept NULLS FIRST)
FROM w_emp GROUP BY dept ORDER BY dept
----
eng    340  730  1  5
ops    180  730  2  8
sales  60   730  4  9
NULL   150  730  3  2

query
SELECT dept, avg(salary) FILTER (WHERE salary > 70), lag(max(id)) OVER (ORDER BY dept)
FROM w_emp GROUP BY dept HAVING count(*) > 1 ORDER BY dept
----
eng   113.3333333333333333  NULL
ops   90.0000000000000000   3
NULL  80.0000000000000000   6

# ORDER BY a window result, by alias, by position and by the call.
query
SELECT id, sum(salary) OVER (PARTITION BY dept) AS total FROM w_emp ORDER BY total DESC, id
----
1  340
2  340
3  340
4  180
5  180
6  180
7  150
8  150
9  60

query
SELECT id FROM w_emp ORDER BY row_number() OVER (ORDER BY hired DESC) LIMIT 4
----
7
4
2
6

query
SELECT id, rank() OVER (ORDER BY salary) FROM w_emp ORDER BY 2 DESC, 1 LIMIT 3
----
5  9
1  7
3  7

# Window functions see the rows WHERE kept; an expression over a call.
query
SELECT id, 100 * row_number() OVER (ORDER BY id) + count(*) OVER () FROM w_emp WHERE dept = 'eng' ORDER BY id
----
1  103
2  203
3  303

# Without FROM, over no rows, and over a constant window.
query
SELECT row_number() OVER (), sum(3) OVER (), lag(1) OVER ()
----
1  3  NULL

query
SELECT id, row_number() OVER () FROM w_emp WHERE id > 100
----

# Errors as PostgreSQL reports them.
query error 42P20 window functions are not allowed
SELECT id FROM w_emp WHERE row_number() OVER () > 1

query error 42P20 window functions are not allowed
SELECT count(*) FROM w_emp GROUP BY row_number() OVER ()

query error 42P20 window functions are not allowed
SELECT count(*) FROM w_emp HAVING rank() OVER () > 0

query error 42P20 window function calls cannot be nested
SELECT sum(row_number() OVER ()) OVER () FROM w_emp

query error 42P20 window functions are not allowed in window definitions
SELECT sum(id) OVER (PARTITION BY rank() OVER ()) FROM w_emp

query error 42P20 frame start cannot be UNBOUNDED FOLLOWING
SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM w_emp

query error 42P20 frame end cannot be UNBOUNDED PRECEDING
SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED PRECEDING) FROM w_emp

query error 42P20 frame starting from current row cannot have preceding rows
SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM w_emp

query error 42P20 frame starting from following row cannot have preceding rows
SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM w_emp

# postgres-only: TiDB's grammar takes only a number or a parameter as a frame offset
query error 22013 frame ending offset must not be negative
SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND -1 FOLLOWING) FROM w_emp

# postgres-only: TiDB's grammar takes only a number or a parameter as a frame offset
query error 22004 frame starting offset must not be null
SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN NULL PRECEDING AND CURRENT ROW) FROM w_emp

query error 42P20 RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column
SELECT sum(id) OVER (RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w_emp

# postgres-only: TiDB's grammar has no DISTINCT in a windowed aggregate
query error 0A000 DISTINCT is not implemented for window functions
SELECT count(DISTINCT dept) OVER () FROM w_emp

query error 42883 function ntile(bigint) does not exist
SELECT ntile(2::bigint) OVER () FROM w_emp

# postgres-only: TiDB's grammar has no arguments for row_number
query error 42883 function row_number(integer) does not exist
SELECT row_number(id) OVER () FROM w_emp

# widesql does not implement these yet.
# widesql-only
query error 0A000 RANGE with offset
SELECT sum(id) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w_emp

# widesql-only
query error 0A000 GROUPS
SELECT sum(id) OVER (ORDER BY id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w_emp

# widesql-only
query error 0A000 EXCLUDE
SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM w_emp

# Over work_mem (PostgreSQL's minimum, 64kB) the sorts spill: results are
# the same; with spilling off they fail.
statement ok
CREATE TABLE w_big (id INT PRIMARY KEY, g INT, v INT)

statement ok
INSERT INTO w_big VALUES (1, 1, 37)

statement count 1
INSERT INTO w_big SELECT id + 1, (id + 1) % 7, ((id + 1) * 37) % 101 FROM w_big

statement count 2
INSERT INTO w_big SELECT id + 2, (id + 2) % 7, ((id + 2) * 37) % 101 FROM w_big

statement count 4
INSERT INTO w_big SELECT id + 4, (id + 4) % 7, ((id + 4) * 37) % 101 FROM w_big

statement count 8
INSERT INTO w_big SELECT id + 8, (id + 8) % 7, ((id + 8) * 37) % 101 FROM w_big

statement count 16
INSERT INTO w_big SELECT id + 16, (id + 16) % 7, ((id + 16) * 37) % 101 FROM w_big

statement count 32
INSERT INTO w_big SELECT id + 32, (id + 32) % 7, ((id + 32) * 37) % 101 FROM w_big

statement count 64
INSERT INTO w_big SELECT id + 64, (id + 64) % 7, ((id + 64) * 37) % 101 FROM w_big

statement count 128
INSERT INTO w_big SELECT id + 128, (id + 128) % 7, ((id + 128) * 37) % 101 FROM w_big

statement count 256
INSERT INTO w_big SELECT id + 256, (id + 256) % 7, ((id + 256) * 37) % 101 FROM w_big

statement count 512
INSERT INTO w_big SELECT id + 512, (id + 512) % 7, ((id + 512) * 37) % 101 FROM w_big

statement count 1024
INSERT INTO w_big SELECT id + 1024, (id + 1024) % 7, ((id + 1024) * 37) % 101 FROM w_big

statement count 2048
INSERT INTO w_big SELECT id + 2048, (id + 2048) % 7, ((id + 2048) * 37) % 101 FROM w_big

statement ok
SET work_mem = '64kB'

query
SELECT id, row_number() OVER (PARTITION BY g ORDER BY v DESC, id), sum(v) OVER (PARTITION BY g ORDER BY id),
  rank() OVER (ORDER BY v), count(*) OVER (PARTITION BY g), sum(v) OVER (), lag(v, 3) OVER (ORDER BY id)
FROM w_big ORDER BY id DESC LIMIT 5
----
4096  284  29309  2110  586  204795  42
4095  498  29241  609   585  204795  5
4094  127  29210  3205  585  204795  69
4093  342  29280  1704  585  204795  32
4092  556  29249  203   585  204795  96

query
SELECT id, v, dense_rank() OVER (ORDER BY v DESC), max(id) OVER (ORDER BY v DESC, id ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING)
FROM w_big ORDER BY 3, id LIMIT 5
----
30   100  1  535
131  100  1  636
232  100  1  737
333  100  1  838
434  100  1  939

statement ok
SET widesql.spill = off

# widesql-only
query error 53200
SELECT id, row_number() OVER (ORDER BY v) FROM w_big

statement ok
RESET widesql.spill

statement ok
RESET work_mem

# Aggregate result types over a sliding frame; text, interval and
# DISTINCT; huge offsets; output column names.
statement ok
CREATE TABLE w_t (id INT PRIMARY KEY, g TEXT, f DOUBLE PRECISION, n NUMERIC, iv INTERVAL, r REAL, b BIGINT)

statement ok
INSERT INTO w_t VALUES (1, 'a', 1.5, 1.25, '1 day', 1.5, 9223372036854775807), (2, 'a', NULL, 2, '2 hours', 2.25, 9223372036854775807), (3, 'b', 3, NULL, NULL, NULL, 1), (4, NULL, -1, -0.5, '-1 day', 3, -5), (5, 'b', 2, 7, '1 mon', 1, NULL)

query
SELECT id, sum(f) OVER w, avg(f) OVER w, sum(n) OVER w, avg(n) OVER w, sum(iv) OVER w, avg(iv) OVER w, sum(r) OVER w, sum(b) OVER w, avg(b) OVER w FROM w_t WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY id
----
1  1.5  1.5                 3.25  1.6250000000000000      1 day 02:00:00     13:00:00           3.75  18446744073709551614  9223372036854775807
2  4.5  2.25                3.25  1.6250000000000000      1 day 02:00:00     13:00:00           3.75  18446744073709551615  6148914691236517205
3  2    1                   1.5   0.75000000000000000000  -1 days +02:00:00  -11:00:00          5.25  9223372036854775803   3074457345618258601
4  4    1.3333333333333333  6.5   3.2500000000000000      1 mon -1 days      15 days -12:00:00  4     -4                    -2.0000000000000000
5  1    0.5                 6.5   3.2500000000000000      1 mon -1 days      15 days -12:00:00  4     -5                    -5.0000000000000000

query
SELECT id, min(g) OVER (ORDER BY id DESC), max(g) OVER (PARTITION BY g), first_value(g) OVER (ORDER BY g NULLS FIRST, id), last_value(g) OVER (ORDER BY g), nth_value(iv, 2) OVER (ORDER BY id) FROM w_t ORDER BY id
----
1  a  a     NULL  a     NULL
2  a  a     NULL  a     02:00:00
3  b  b     NULL  b     02:00:00
4  b  NULL  NULL  NULL  02:00:00
5  b  b     NULL  b     02:00:00

query
SELECT DISTINCT g, count(*) OVER (PARTITION BY g) FROM w_t ORDER BY 1
----
a     2
b     2
NULL  1

query
SELECT count(*), sum(count(*)) OVER (), avg(sum(f)) OVER () FROM w_t
----
5  5  5.5

query
SELECT g, lead(g) OVER (PARTITION BY g ORDER BY id), first_value(id) OVER (PARTITION BY g ORDER BY id DESC) FROM w_t ORDER BY id
----
a     a     2
a     NULL  2
b     b     5
NULL  NULL  4
b     NULL  5

query
SELECT id, sum(id) OVER (ORDER BY g RANGE BETWEEN CURRENT ROW AND CURRENT ROW), count(*) OVER (ORDER BY g DESC NULLS LAST), percent_rank() OVER (PARTITION BY g ORDER BY id) FROM w_t ORDER BY id
----
1  3  4  0
2  3  4  1
3  8  2  0
4  4  5  0
5  8  2  1

query
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 10 PRECEDING AND 100 FOLLOWING), sum(id) OVER (ORDER BY id ROWS BETWEEN 9223372036854775807 PRECEDING AND 9223372036854775807 FOLLOWING), sum(id) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND UNBOUNDED FOLLOWING), sum(id) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 3 PRECEDING) FROM w_t ORDER BY id
----
1  15  15  9     NULL
2  15  15  5     NULL
3  15  15  NULL  NULL
4  15  15  NULL  1
5  15  15  NULL  3

query
SELECT id, ntile(3) OVER (ORDER BY id), ntile(5) OVER (ORDER BY id), ntile(2) OVER () FROM w_t ORDER BY id
----
1  1  1  1
2  1  2  1
3  2  3  1
4  2  4  2
5  3  5  2

query colnames
SELECT row_number() OVER () AS rn, rank() OVER (), ntile(2) OVER (), cume_dist() OVER (), lead(1) OVER (), sum(1) OVER () FROM w_t LIMIT 1
----
rn  rank  ntile  cume_dist  lead  sum
1   1     1      1          1     5

# EXPLAIN shows one WINDOW line with every call and its window.
# widesql-only
query
EXPLAIN SELECT id, row_number() OVER (PARTITION BY dept ORDER BY salary DESC NULLS LAST), sum(salary) OVER w,
  count(*) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w_emp WINDOW w AS (ORDER BY id) ORDER BY 2
----
SORT BY row_number
  WINDOW row_number() OVER (PARTITION BY dept ORDER BY salary DESC NULLS LAST), sum(salary) OVER (ORDER BY id), count(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
    FULL SCAN ON w_emp ROWKEY 4 BYTES FAMILIES (d) (full scan: no condition on rowkey column id)

# widesql-only
query
EXPLAIN SELECT dept, rank() OVER (ORDER BY count(*) DESC), lag(dept, 2, 'x') OVER () FROM w_emp GROUP BY dept
----
WINDOW rank() OVER (ORDER BY count DESC), lag(dept, 2, 'x') OVER ()
  AGGREGATE count(*) GROUP BY dept
    FULL SCAN ON w_emp ROWKEY 4 BYTES FAMILIES (d) (full scan: no condition on rowkey column id)

# The session goes on after the errors.
query
SELECT count(*) OVER () FROM w_emp LIMIT 1
----
9
