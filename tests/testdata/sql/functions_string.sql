# String functions as PostgreSQL 15 computes them: names, result types,
# NULL behaviour and errors. Expected rows come from PostgreSQL.

statement ok
CREATE TABLE strs (id INTEGER PRIMARY KEY, s TEXT, v VARCHAR(10), c CHAR(5), b BYTEA)

statement count 4
INSERT INTO strs VALUES
  (1, 'Hello World', 'abc', 'ab', '\x0102'),
  (2, ' padded ', 'xyz', 'x', NULL),
  (3, 'héllo wörld', '', '', '\x'),
  (4, NULL, NULL, NULL, NULL)

query colnames
SELECT id, '[' || lower(s) || ']', '[' || upper(s) || ']', length(s), char_length(v), octet_length(s), length(c), octet_length(c), length(b) FROM strs ORDER BY id
----
id  ?column?         ?column?         length  char_length  octet_length  length  octet_length  length
1   [hello world]    [HELLO WORLD]    11      3            11            2       5             2
2   [ padded ]       [ PADDED ]       8       3            8             1       5             NULL
3   [héllo wörld]  [HÉLLO WÖRLD]  11      0            13            0       5             0
4   NULL             NULL             NULL    NULL         NULL          NULL    NULL          NULL

query colnames
SELECT substring('hello' from 2 for 3), substring('hello' for 2), substring('hello' from 3), substring('hello', 2), substr('hello', 2, 2), substring('hello', 0, 3), substring('hello', -5, 3)
----
substring  substring  substring  substring  substr  substring  substring
ell        he         llo        ello       el      he         (empty)

query
SELECT id, '[' || substring(s from 2 for 4) || ']', '[' || substring(s, 7) || ']' FROM strs ORDER BY id
----
1  [ello]   [World]
2  [padd]   [d ]
3  [éllo]  [wörld]
4  NULL     NULL

query error 22011 negative substring length not allowed
SELECT substring('abc', 2, -1)

query
SELECT substring('abcdef' from 'c(.)e'), substring('abc' from 'x') IS NULL, substring('abcdef' from 'b.d')
----
d  t  bcd

query colnames
SELECT position('l' in 'hello'), position('z' in 'hello'), strpos('hello', 'lo'), strpos('héllo', 'l'), position('' in 'abc')
----
position  position  strpos  strpos  position
3         0         4       3       1

query
SELECT id, position('o' in s), strpos(s, 'ö') FROM strs ORDER BY id
----
1  5     0
2  0     0
3  5     8
4  NULL  NULL

query colnames
SELECT replace('abcabc', 'b', 'XY'), replace('abc', '', 'x'), split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 4), split_part('a,b,c', ',', -1), split_part('', ',', 1)
----
replace   replace  split_part  split_part  split_part  split_part
aXYcaXYc  abc      b           (empty)     c           (empty)

query error 22023 field position must not be zero
SELECT split_part('a,b', ',', 0)

# concat is not strict: NULL arguments are skipped.
query
SELECT concat('a', NULL, 1, true, 2.50, date '2020-01-02'), concat_ws('-', 'x', NULL, 3), concat_ws(NULL, 'a'), concat(NULL), 'a' || NULL
----
a1t2.502020-01-02  x-3  NULL  (empty)  NULL

query
SELECT id, concat('[', s, '|', v, ']'), concat_ws(',', id, v, '[' || c || ']') FROM strs ORDER BY id
----
1  [Hello World|abc]  1,abc,[ab]
2  [ padded |xyz]     2,xyz,[x]
3  [héllo wörld|]   3,,[]
4  [|]                4

query colnames
SELECT trim('  a  ') || '|', trim(both 'x' from 'xxaxx'), trim(leading 'x' from 'xxaxx'), trim(trailing 'x' from 'xxaxx'), trim(from '  a') , btrim('xyaxy', 'xy'), ltrim('  a'), rtrim('a  ') || '|', ltrim('xxa', 'x'), rtrim('axx', 'x')
----
?column?  btrim  ltrim  rtrim  btrim  btrim  ltrim  ?column?  ltrim  rtrim
a|        a      axx    xxa    a      a      a      a|        a      a

query colnames
SELECT left('hello', 2), right('hello', 2), left('hello', -2), right('hello', -2), left('hé', 10), replace(lpad('hi', 5), ' ', '_'), lpad('hi', 7, 'xy'), rpad('hi', 5, '*'), lpad('hello', 2), rpad('hello', 2), lpad('hi', 5, '')
----
left  right  left  right  left  replace  lpad     rpad   lpad  rpad  lpad
he    lo     hel   llo    hé   ___hi    xyxyxhi  hi***  he    he    hi

query colnames
SELECT initcap('hELLO wORLD-foo bar_baz 1a'), repeat('ab', 3), repeat('x', 0), reverse('héllo'), md5('abc'), starts_with('hello', 'he'), starts_with('hello', 'lo'), ascii('A'), ascii('é'), ascii(''), chr(65), chr(233), translate('12345', '143', 'ax')
----
initcap                     repeat  repeat   reverse  md5                               starts_with  starts_with  ascii  ascii  ascii  chr  chr  translate
Hello World-Foo Bar_Baz 1a  ababab  (empty)  olléh   900150983cd24fb0d6963f7d28e17f72  t            f            65     233    0      A    é   a2x5

query error 54000 null character not permitted
SELECT chr(0)

query error 22023 character number must be positive
SELECT chr(-1)

query error 54000 requested length too large
SELECT repeat('x', 2000000000)

# Strict functions give NULL for a NULL argument, typed from the others.
query
SELECT lower(NULL), length(NULL), left(NULL, 2), left('ab', NULL), lpad('a', NULL), replace('a', NULL, 'b'), md5(NULL) IS NULL
----
NULL  NULL  NULL  NULL  NULL  NULL  t

# Wrong argument types: no implicit cast from integer to text.
query error 42883 function lower(integer) does not exist
SELECT lower(1)

query error 42883 function left(text, text) does not exist
SELECT left('abc'::text, 'x'::text)

query error 42883 function concat() does not exist
SELECT concat()

query error 42883 function repeat(integer, integer) does not exist
SELECT repeat(1, 2)

query error 22P02 invalid input syntax for type integer
SELECT left('abc', 'x')

# Parameters take the parameter type of the chosen overload.
query
SELECT upper(v), length(v), lower(c) || '|' FROM strs WHERE id = 1
----
ABC  3  ab|

# Keyword forms inside expressions and casts.
query
SELECT '[' || upper(substring(s from 1 for 5)) || ']', position('W' in upper(s))::text, trim(both ' ' from s) = 'padded' FROM strs ORDER BY id
----
[HELLO]   7     f
[ PADD]   0     t
[HÉLLO]  7     f
NULL      NULL  NULL

query error 42601 syntax error at or near ")"
SELECT trim(both 'x' from)
