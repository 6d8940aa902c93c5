# UNION, INTERSECT and EXCEPT (issue 5): bag semantics with ALL, PostgreSQL's
# precedence and type resolution, ORDER BY and LIMIT on the result.

statement ok
CREATE TABLE so_l (id INT, v INT, t TEXT, n NUMERIC, PRIMARY KEY (id))

statement ok
CREATE TABLE so_r (id INT, v BIGINT, t TEXT, PRIMARY KEY (id))

statement count 8
INSERT INTO so_l VALUES (1, 1, 'a', 1.0), (2, 1, 'a', 1.50), (3, 2, 'b', 2), (4, 2, 'b', NULL),
  (5, 2, 'b', 3.25), (6, 3, NULL, 1.00), (7, NULL, NULL, 2.0), (8, NULL, 'z', 4)

statement count 7
INSERT INTO so_r VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 2, 'b'), (4, 2, 'b'), (5, 4, 'd'), (6, NULL, NULL), (7, 5, NULL)

# UNION removes duplicates, NULLs being equal; UNION ALL keeps every row.
query rowsort
SELECT v FROM so_l UNION SELECT v FROM so_r
----
1
2
3
4
5
NULL

query rowsort
SELECT v FROM so_l UNION ALL SELECT v FROM so_r
----
1
1
1
2
2
2
2
2
2
3
4
5
NULL
NULL
NULL

query rowsort
SELECT v, t FROM so_l UNION SELECT v, t FROM so_r
----
1     a
2     b
3     NULL
4     d
5     NULL
NULL  NULL
NULL  z

# INTERSECT keeps rows on both sides once; INTERSECT ALL min(m, n) copies.
query rowsort
SELECT v FROM so_l INTERSECT SELECT v FROM so_r
----
1
2
NULL

query rowsort
SELECT v FROM so_l INTERSECT ALL SELECT v FROM so_r
----
1
2
2
2
NULL

# EXCEPT keeps left rows absent on the right; EXCEPT ALL max(m - n, 0) copies.
query rowsort
SELECT v FROM so_l EXCEPT SELECT v FROM so_r
----
3

query rowsort
SELECT v FROM so_l EXCEPT ALL SELECT v FROM so_r
----
1
3
NULL

query rowsort
SELECT v FROM so_r EXCEPT ALL SELECT v FROM so_l
----
4
5

query rowsort
SELECT v, t FROM so_r EXCEPT SELECT v, t FROM so_l
----
4  d
5  NULL

# Numeric values equal in value are duplicates whatever their scale.
query rowsort
SELECT n FROM so_l WHERE id IN (1, 6) UNION SELECT n FROM so_l WHERE id = 6
----
1.0

query rowsort
SELECT n FROM so_l WHERE id IN (1, 3) EXCEPT SELECT n FROM so_l WHERE id = 6
----
2

# INTERSECT binds tighter than UNION and EXCEPT; parentheses group.
query rowsort
SELECT 1 UNION SELECT 2 INTERSECT SELECT 3
----
1

query rowsort
(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3
----

query rowsort
SELECT 1 UNION ALL SELECT 1 EXCEPT SELECT 1
----

query rowsort
SELECT 1 UNION ALL (SELECT 1 EXCEPT SELECT 1)
----
1

query rowsort
SELECT v FROM so_l EXCEPT SELECT 1 INTERSECT SELECT v FROM so_r
----
2
3
NULL

query rowsort
SELECT 3 INTERSECT (SELECT 1 UNION SELECT 3)
----
3

query rowsort
SELECT 1 EXCEPT SELECT 2 EXCEPT SELECT 1
----

query rowsort
SELECT 1 INTERSECT SELECT 1 UNION ALL SELECT 1
----
1
1

# ORDER BY names or numbers output columns; LIMIT and OFFSET apply to the result.
query
SELECT v, t FROM so_l UNION SELECT v, t FROM so_r ORDER BY v DESC, t
----
NULL  z
NULL  NULL
5     NULL
4     d
3     NULL
2     b
1     a

query
SELECT v, t FROM so_l UNION SELECT v, t FROM so_r ORDER BY 2 NULLS FIRST, 1 LIMIT 3
----
3     NULL
5     NULL
NULL  NULL

query
SELECT v FROM so_l UNION ALL SELECT v FROM so_r ORDER BY v LIMIT 4 OFFSET 2
----
1
2
2
2

query
SELECT v AS x FROM so_l INTERSECT ALL SELECT v FROM so_r ORDER BY x NULLS FIRST
----
NULL
1
2
2
2

query
SELECT 2 AS k UNION SELECT 1 ORDER BY k OFFSET 1
----
2

# The output column names come from the first branch.
query colnames
SELECT v AS first, t FROM so_l WHERE id = 1 UNION SELECT v AS second, t AS other FROM so_r WHERE id = 1
----
first  t
1      a

query colnames
SELECT 1 UNION SELECT 2 ORDER BY 1
----
?column?
1
2

# A parenthesized branch may have its own ORDER BY and LIMIT.
query
(SELECT id FROM so_l ORDER BY id DESC LIMIT 2) UNION ALL SELECT id FROM so_r WHERE id = 1
----
8
7
1

query rowsort
(SELECT v FROM so_l UNION SELECT v FROM so_r ORDER BY v LIMIT 2) EXCEPT SELECT 1
----
2

# Column types: integer and bigint give bigint, integer and numeric numeric,
# untyped literals take the other side's type, or text.
query colnames
SELECT v FROM so_l WHERE id = 1 UNION SELECT v FROM so_r WHERE id = 5 ORDER BY 1
----
v
1
4

query
SELECT 1 UNION SELECT 2.5 ORDER BY 1
----
1
2.5

query
SELECT 1 UNION ALL SELECT '2' UNION ALL SELECT NULL ORDER BY 1
----
1
2
NULL

query
SELECT NULL UNION SELECT 'x' ORDER BY 1
----
x
NULL

query
SELECT 'b' UNION SELECT 'a' ORDER BY 1
----
a
b

query
SELECT 1.5::float4 UNION SELECT 2::numeric ORDER BY 1
----
1.5
2

query
SELECT 'a'::char(3) UNION SELECT 'a'::text
----
a  

query rowsort
SELECT '2020-01-02'::date UNION SELECT '2020-01-02 10:00'::timestamp
----
2020-01-02 00:00:00
2020-01-02 10:00:00

# 9999999999 exceeds integer: the bigint side decides the type.
query
SELECT v FROM so_l WHERE id = 1 UNION ALL SELECT 9999999999 ORDER BY 1
----
1
9999999999

query error 42804 UNION types integer and text cannot be matched
SELECT 1 UNION SELECT 'x'::text

query error 42804 INTERSECT types integer and text cannot be matched
SELECT v FROM so_l INTERSECT SELECT t FROM so_r

query error 42804 EXCEPT types boolean and integer cannot be matched
SELECT true EXCEPT SELECT 1

# A nested set operation has resolved its untyped columns to text.
query error 42804 UNION types text and integer cannot be matched
SELECT NULL UNION SELECT NULL UNION SELECT 1

query error 22P02
SELECT 1 UNION SELECT 'x'

query error 42846 UNION could not convert type time without time zone to date
SELECT '2020-01-01'::date UNION SELECT '10:00'::time

query error 42601 each UNION query must have the same number of columns
SELECT 1, 2 UNION SELECT 3

query error 42601 each INTERSECT query must have the same number of columns
SELECT v FROM so_l INTERSECT SELECT v, t FROM so_r

query error 42883 could not identify an equality operator for type json
SELECT '{}'::json UNION SELECT '{}'::json

query
SELECT '{"a": 1}'::json UNION ALL SELECT '{}'::json
----
{"a": 1}
{}

# ORDER BY on a set operation takes output columns only.
query error 0A000 invalid UNION/INTERSECT/EXCEPT ORDER BY clause
SELECT v FROM so_l UNION SELECT v FROM so_r ORDER BY v + 1

query error 42703 column "w" does not exist
SELECT v FROM so_l UNION SELECT v AS w FROM so_r ORDER BY w

query error 42P10 ORDER BY position 2 is not in select list
SELECT v FROM so_l UNION SELECT v FROM so_r ORDER BY 2

query error 42702 ORDER BY "v" is ambiguous
SELECT v, v FROM so_l UNION SELECT 1, 2 ORDER BY v

query error 42P01 missing FROM-clause entry for table "so_l"
SELECT v FROM so_l UNION SELECT v FROM so_r ORDER BY so_l.v

# Errors leave the session usable.
query
SELECT 1 INTERSECT SELECT 1
----
1

# widesql-only
query
EXPLAIN SELECT v FROM so_l UNION SELECT v FROM so_r ORDER BY 1 LIMIT 2
----
LIMIT 2
  SORT BY v
    UNION
      FULL SCAN ON so_l ROWKEY 4 BYTES FAMILIES (d) (full scan: no condition on rowkey column id)
      FULL SCAN ON so_r ROWKEY 4 BYTES FAMILIES (d) (full scan: no condition on rowkey column id)
