# SET, SET LOCAL, RESET and SHOW over the settings table, with the values
# normalized as PostgreSQL shows them.

query
SHOW work_mem
----
4MB

statement ok
SET work_mem = '64MB'

query
SHOW work_mem
----
64MB

statement ok
SET work_mem = 1000

query
SHOW work_mem
----
1000kB

statement ok
SET work_mem TO 65536

query
SHOW work_mem
----
64MB

statement ok
RESET work_mem

query
SHOW work_mem
----
4MB

statement ok
SET statement_timeout = 60000

query
SHOW statement_timeout
----
1min

statement ok
SET statement_timeout = '1500ms'

query
SHOW statement_timeout
----
1500ms

statement ok
SET statement_timeout TO DEFAULT

query
SHOW statement_timeout
----
0

statement ok
SET lock_timeout = '1min'

query
SHOW lock_timeout
----
1min

statement ok
SET idle_in_transaction_session_timeout = 3600000

query
SHOW idle_in_transaction_session_timeout
----
1h

statement error 22023
SET statement_timeout = 'abc'

statement error 22023
SET extra_float_digits = 'abc'

statement error 22023
SET extra_float_digits = 10

statement ok
SET extra_float_digits = 3

query
SHOW extra_float_digits
----
3

statement ok
SET client_min_messages = 'warning'

query
SHOW client_min_messages
----
warning

statement error 22023
SET client_min_messages = 'bogus'

statement ok
RESET client_min_messages

statement ok
SET bytea_output = 'escape'

query
SHOW bytea_output
----
escape

statement ok
SET bytea_output = hex

statement ok
SET enable_seqscan = off

query
SHOW enable_seqscan
----
off

statement ok
SET enable_seqscan = true

query
SHOW enable_seqscan
----
on

statement error 22023
SET enable_seqscan = maybe

statement ok
SET application_name = 'settings test'

query
SHOW application_name
----
settings test

statement ok
SET search_path TO public

query
SHOW search_path
----
public

statement ok
RESET search_path

query
SHOW search_path
----
"$user", public

statement ok
SET TIME ZONE 'UTC'

query
SHOW TimeZone
----
UTC

query
SHOW max_identifier_length
----
63

query
SHOW server_encoding
----
UTF8

statement error 55P02
SET max_identifier_length = 10

statement error 42704
SET nosuch = 1

statement error 42704
SHOW nosuch

statement error 42704
RESET nosuch

query
SHOW default_transaction_isolation
----
read committed

query
SHOW transaction_read_only
----
off

# SET LOCAL lasts until the end of the block; outside a block it only
# warns.
statement ok
SET LOCAL work_mem = '8MB'

query
SHOW work_mem
----
4MB

statement ok
BEGIN

statement ok
SET LOCAL work_mem = '8MB'

query
SHOW work_mem
----
8MB

statement ok
COMMIT

query
SHOW work_mem
----
4MB

# SET in a block survives COMMIT, not ROLLBACK; a later SET LOCAL is undone
# at COMMIT, back to the block's SET.
statement ok
BEGIN

statement ok
SET work_mem = '16MB'

statement ok
SET LOCAL work_mem = '32MB'

query
SHOW work_mem
----
32MB

statement ok
COMMIT

query
SHOW work_mem
----
16MB

statement ok
BEGIN

statement ok
SET work_mem = '2MB'

statement ok
ROLLBACK

query
SHOW work_mem
----
16MB

# ROLLBACK TO SAVEPOINT undoes the settings changed since the savepoint.
statement ok
BEGIN

statement ok
SAVEPOINT a

statement ok
SET work_mem = '1MB'

statement ok
ROLLBACK TO a

query
SHOW work_mem
----
16MB

statement ok
COMMIT

statement ok
RESET ALL

query
SHOW work_mem
----
4MB

# SET SESSION CHARACTERISTICS sets the defaults of later blocks.
statement ok
SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE

query
SHOW default_transaction_isolation
----
serializable

statement ok
BEGIN

query
SHOW transaction_isolation
----
serializable

statement ok
COMMIT

statement ok
SET default_transaction_isolation = 'read committed'

statement ok
SET default_transaction_read_only = on

statement ok
BEGIN

query
SHOW transaction_read_only
----
on

statement ok
COMMIT

statement ok
SET default_transaction_read_only = off
