# PostgreSQL's aggregates beyond count/sum/avg/min/max: string_agg,
# array_agg, bool_and/bool_or/every, the variance family, ordered-set
# aggregates (percentile_cont, percentile_disc, mode), DISTINCT, ORDER BY
# inside the call and FILTER with all of them; result types, NULL
# handling and empty input as in PostgreSQL 15.

statement ok
CREATE TABLE m (id INTEGER PRIMARY KEY, g TEXT, i INTEGER, b BIGINT, s SMALLINT, n NUMERIC, f DOUBLE PRECISION, r REAL, x TEXT, c CHAR(3), ok BOOLEAN, iv INTERVAL, d DATE)

statement count 7
INSERT INTO m VALUES
  (1, 'a', 1, 10, 1, 1.5, 0.5, 0.25, 'p', 'x', true, '1 day', '2026-01-03'),
  (2, 'a', 2, 20, 2, 2.25, 1.5, 1.5, 'q', 'yy', false, '2 days', '2026-01-01'),
  (3, 'a', 4, NULL, 4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 'b', 7, 70, 7, 7.125, 7, 7, 'r', 'z', true, '1 hour', '2026-01-02'),
  (5, 'c', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (6, 'b', 7, 7, 7, -3, -1e10, 3.5, 'p', 'x', true, '-1 day', '2025-12-31'),
  (7, 'a', 2, -4, 2, 0.001, 2.5, 0.5, 's', 'ab', true, '3 days', '2026-01-01')

# The variance family: numeric for integers and numeric (PostgreSQL's
# scale rules), float8 for real and double precision.
query colnames
SELECT g, stddev(i), stddev_samp(i), stddev_pop(i), variance(i), var_samp(i), var_pop(i) FROM m GROUP BY g ORDER BY g
----
g  stddev              stddev_samp         stddev_pop          variance            var_samp            var_pop
a  1.2583057392117916  1.2583057392117916  1.0897247358851684  1.5833333333333333  1.5833333333333333  1.1875000000000000
b  0                   0                   0                   0                   0                   0
c  NULL                NULL                NULL                NULL                NULL                NULL

query colnames
SELECT stddev(b), variance(b), stddev(s), var_pop(s), stddev(n), var_samp(n), stddev_pop(n), var_pop(n) FROM m
----
stddev               variance              stddev              var_pop             stddev              var_samp             stddev_pop          var_pop
28.9102058104054320  835.8000000000000000  2.6394443859772205  5.8055555555555556  3.6970207870662561  13.6679627000000000  3.3067159176439696  10.9343701600000000

query
SELECT stddev(f), variance(f), stddev_pop(f), var_pop(f), stddev(r), var_samp(r), stddev_pop(r), var_pop(r) FROM m
----
4472135956.285318  2.00000000115e+19  4000000001.15  1.6000000009199999e+19  2.797320146139873  7.825  2.5019992006393608  6.26

query
SELECT stddev(i), variance(i), stddev_pop(i), var_pop(i), stddev(f), var_pop(f) FROM m WHERE id = 1
----
NULL  NULL  0  0  NULL  0

query
SELECT stddev(i), variance(n), stddev_pop(f), var_pop(r) FROM m WHERE id > 100
----
NULL  NULL  NULL  NULL

statement error 42883
SELECT stddev(x) FROM m

statement error 42883
SELECT variance(ok) FROM m

# string_agg: NULL values skipped, the delimiter taken from each row (NULL
# means none); ORDER BY inside the call, DISTINCT sorted by the argument.
query colnames
SELECT string_agg(x, ',' ORDER BY id), string_agg(x, '-' ORDER BY id DESC), string_agg(DISTINCT x, ''), string_agg(x, NULL ORDER BY x) FROM m
----
string_agg  string_agg  string_agg  string_agg
p,q,r,p,s   s-p-r-q-p   pqrs        ppqrs

query
SELECT g, string_agg(x, ', ' ORDER BY x DESC NULLS FIRST) FROM m GROUP BY g ORDER BY g
----
a  s, q, p
b  r, p
c  NULL

query
SELECT string_agg(c, '|' ORDER BY c), string_agg(x || c, ';' ORDER BY id) FROM m
----
ab|x|x|yy|z  px;qyy;rz;px;sab

query
SELECT string_agg(x, ',') FROM m WHERE id > 100
----
NULL

statement error 42883
SELECT string_agg(i, ',') FROM m

statement error 42P10
SELECT string_agg(DISTINCT x, ',' ORDER BY id) FROM m

# array_agg keeps NULLs.
query colnames
SELECT array_agg(i ORDER BY id), array_agg(x ORDER BY x NULLS FIRST, id DESC), array_agg(DISTINCT i), array_agg(DISTINCT s ORDER BY s DESC) FROM m
----
array_agg           array_agg              array_agg       array_agg
{1,2,4,7,NULL,7,2}  {NULL,NULL,p,p,q,r,s}  {1,2,4,7,NULL}  {NULL,7,4,2,1}

query
SELECT g, array_agg(n ORDER BY n), array_agg(d ORDER BY d, id), array_agg(iv ORDER BY iv DESC) FROM m GROUP BY g ORDER BY g
----
a  {0.001,1.5,2.25,NULL}  {2026-01-01,2026-01-01,2026-01-03,NULL}  {NULL,"3 days","2 days","1 day"}
b  {-3,7.125}             {2025-12-31,2026-01-02}                  {01:00:00,"-1 days"}
c  {NULL}                 {NULL}                                   {NULL}

query
SELECT array_agg(ok ORDER BY id), array_agg(f ORDER BY f) FROM m
----
{t,f,NULL,t,NULL,t,t}  {-10000000000,0.5,1.5,2.5,7,NULL,NULL}

query
SELECT array_agg(i) IS NULL FROM m WHERE id > 100
----
t

# bool_and, bool_or, every.
query colnames
SELECT g, bool_and(ok), bool_or(ok), every(ok), bool_and(i > 1), bool_or(i > 5) FROM m GROUP BY g ORDER BY g
----
g  bool_and  bool_or  every  bool_and  bool_or
a  f         t        f      f         f
b  t         t        t      t         t
c  NULL      NULL     NULL   NULL      NULL

query
SELECT bool_and(ok), bool_or(ok), every(NOT ok) FROM m WHERE id > 100
----
NULL  NULL  NULL

statement error 42883
SELECT bool_and(i) FROM m

# count, sum, avg with DISTINCT and ORDER BY.
query colnames
SELECT count(DISTINCT g), count(DISTINCT i), sum(DISTINCT i), avg(DISTINCT s), sum(DISTINCT n), count(DISTINCT c), min(DISTINCT x), sum(i ORDER BY id DESC) FROM m
----
count  count  sum  avg                 sum    count  min  sum
3      4      14   3.5000000000000000  7.876  4      p    23

query
SELECT g, count(DISTINCT i), sum(DISTINCT b), avg(DISTINCT f) FROM m GROUP BY g ORDER BY g
----
a  3  26    1.5
b  1  77    -4999999996.5
c  0  NULL  NULL

# Ordered-set aggregates.
query colnames
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i), percentile_disc(0.5) WITHIN GROUP (ORDER BY i), mode() WITHIN GROUP (ORDER BY x) FROM m
----
percentile_cont  percentile_disc  mode
3                2                p

query
SELECT g, percentile_cont(0.25) WITHIN GROUP (ORDER BY f), percentile_disc(0.75) WITHIN GROUP (ORDER BY n), mode() WITHIN GROUP (ORDER BY i DESC) FROM m GROUP BY g ORDER BY g
----
a  1               2.25   2
b  -7499999998.25  7.125  7
c  NULL            NULL   NULL

query
SELECT percentile_cont(ARRAY[0, 0.1, 0.5, 1]) WITHIN GROUP (ORDER BY i), percentile_disc(ARRAY[0.1, NULL, 0.9]) WITHIN GROUP (ORDER BY x DESC) FROM m
----
{1,1.5,3,7}  {s,NULL,p}

query
SELECT percentile_cont(0.4) WITHIN GROUP (ORDER BY iv), percentile_disc(0.4) WITHIN GROUP (ORDER BY d), percentile_cont(0.5) WITHIN GROUP (ORDER BY n), percentile_cont(0.5) WITHIN GROUP (ORDER BY i DESC) FROM m
----
14:48:00  2026-01-01  1.5  3

query
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i), mode() WITHIN GROUP (ORDER BY x), percentile_disc(NULL) WITHIN GROUP (ORDER BY i) FROM m WHERE id > 100
----
NULL  NULL  NULL

query
SELECT percentile_disc(0) WITHIN GROUP (ORDER BY i), percentile_disc(1) WITHIN GROUP (ORDER BY i), percentile_cont(1) WITHIN GROUP (ORDER BY s) FROM m
----
1  7  7

statement error 22003 percentile value 2 is not between 0 and 1
SELECT percentile_cont(2) WITHIN GROUP (ORDER BY i) FROM m

statement error 42803
SELECT percentile_cont(i) WITHIN GROUP (ORDER BY i) FROM m

statement error 42883
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM m

statement error 42601 cannot use DISTINCT with WITHIN GROUP
SELECT percentile_cont(DISTINCT 0.5) WITHIN GROUP (ORDER BY i) FROM m

statement error 42601
SELECT percentile_cont(0.5 ORDER BY i) WITHIN GROUP (ORDER BY i) FROM m

statement error 42883
SELECT mode(i) WITHIN GROUP (ORDER BY i) FROM m

statement error 42883
SELECT string_agg(x, ',') WITHIN GROUP (ORDER BY i) FROM m

statement error 42883
SELECT group_concat(x) FROM m

# FILTER with every aggregate, including those that keep NULLs.
query colnames
SELECT array_agg(i ORDER BY id) FILTER (WHERE i > 1), string_agg(x, ',') FILTER (WHERE id < 3), count(*) FILTER (WHERE ok), stddev(i) FILTER (WHERE g = 'a'), bool_and(ok) FILTER (WHERE id <> 2) FROM m
----
array_agg    string_agg  count  stddev              bool_and
{2,4,7,7,2}  p,q         4      1.2583057392117916  t

query
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY i) FILTER (WHERE id > 1), array_agg(DISTINCT x) FILTER (WHERE x IS NOT NULL), mode() WITHIN GROUP (ORDER BY s) FILTER (WHERE s < 7) FROM m GROUP BY g ORDER BY g
----
a  2     {p,q,s}  2
b  7     {p,r}    NULL
c  NULL  NULL     NULL

query
SELECT array_agg(x) FILTER (WHERE id IN (3, 5)) FROM m
----
{NULL,NULL}

# Aggregates in expressions, HAVING and ORDER BY.
query
SELECT g, string_agg(x, ',' ORDER BY id) || '!' FROM m GROUP BY g HAVING count(x) > 0 ORDER BY string_agg(x, ',' ORDER BY id) DESC
----
b  r,p!
a  p,q,s!

query
SELECT g FROM m GROUP BY g HAVING bool_or(ok) AND stddev(i) IS NULL ORDER BY g
----
