"""Shared helpers for the Python compat clients: the scenario, the transcript
format ("## step" headers, then lines; "error SQLSTATE message" on failure),
and value rendering that keeps the Python type visible."""

import datetime
import decimal
import json
import os
import sys


def env():
    return {k: os.environ[k] for k in
            ("COMPAT_HOST", "COMPAT_PORT", "COMPAT_DB", "COMPAT_USER", "COMPAT_DDL", "COMPAT_SCENARIO")}


def scenario_rows():
    """The scenario rows as Python values: amount a Decimal, at a datetime."""
    with open(os.environ["COMPAT_SCENARIO"]) as f:
        rows = json.load(f)["rows"]
    out = []
    for r in rows:
        r = list(r)
        r[3] = decimal.Decimal(r[3])
        r[4] = datetime.datetime.fromisoformat(r[4])
        out.append(tuple(r))
    return out


def out(line):
    print(line)
    sys.stdout.flush()


def value(v):
    """repr keeps the type (Decimal('1.50'), datetime.datetime(...))."""
    if isinstance(v, memoryview):  # its repr is an address
        return "memoryview(%r)" % bytes(v)
    return repr(v)


def row(r):
    return "row " + " ".join(value(v) for v in r)


def columns(description):
    if description is None:
        return "columns none"
    return "columns " + " ".join(d[0] for d in description)


def sqlstate(e):
    """The SQLSTATE of a psycopg2 or psycopg error, or the class name."""
    code = getattr(e, "pgcode", None) or getattr(e, "sqlstate", None)
    orig = getattr(e, "orig", None)  # SQLAlchemy wraps the driver's error
    if code is None and orig is not None:
        code = getattr(orig, "pgcode", None) or getattr(orig, "sqlstate", None)
    return code or type(e).__name__


def step(name, body, on_error=None):
    out("## " + name)
    try:
        body()
    except Exception as e:  # noqa: BLE001 - every failure goes to the transcript
        msg = str(e).strip().split("\n")[0]
        out("error %s %s" % (sqlstate(e), msg))
        if on_error is not None:
            try:
                on_error()
            except Exception as e2:  # noqa: BLE001
                out("error during rollback: %s" % type(e2).__name__)
