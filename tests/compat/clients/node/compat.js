// The compat scenario through node-postgres (npm pg 8.x): parameterized
// queries (pg sends Parse without parameter types and no Describe for them,
// so the server infers every $n), a transaction, and a pg.Pool with several
// clients running concurrently. Prints a transcript: "## step" headers, then
// lines; "error SQLSTATE message" on failure. Environment: COMPAT_HOST,
// COMPAT_PORT, COMPAT_DB, COMPAT_USER, COMPAT_DDL, COMPAT_SCENARIO.
'use strict';

const fs = require('fs');
const pg = require('pg');

const env = process.env;
const config = {
  host: env.COMPAT_HOST,
  port: Number(env.COMPAT_PORT),
  database: env.COMPAT_DB,
  user: env.COMPAT_USER,
  application_name: 'compat',
};
const scenario = JSON.parse(fs.readFileSync(env.COMPAT_SCENARIO, 'utf8'));

function out(line) {
  process.stdout.write(line + '\n');
}

// value keeps the JavaScript type visible; Dates print in UTC ISO form
// (node-pg reads timestamp without time zone as local time, and the test
// runs node with TZ=UTC).
function value(v) {
  if (v === null) return 'null';
  if (v instanceof Date) return 'Date:' + v.toISOString();
  if (Buffer.isBuffer(v)) return 'Buffer:' + v.toString('hex');
  return typeof v + ':' + JSON.stringify(v);
}

function printResult(res) {
  out('command ' + res.command + ' rowCount ' + res.rowCount);
  if (res.fields && res.fields.length) {
    out('columns ' + res.fields.map((f) => f.name + ':' + f.dataTypeID).join(' '));
  }
  for (const r of res.rows) {
    out('row ' + res.fields.map((f, i) => value(Array.isArray(r) ? r[i] : r[f.name])).join(' '));
  }
}

async function step(name, body, client) {
  out('## ' + name);
  try {
    await body();
  } catch (e) {
    out('error ' + (e.code || e.name) + ' ' + String(e.message).split('\n')[0]);
    if (client) {
      try {
        await client.query('ROLLBACK');
      } catch (e2) {
        // not in a transaction: nothing to roll back
      }
    }
  }
}

async function main() {
  const client = new pg.Client(config);
  out('## connect');
  await client.connect();
  out('ok');
  const q = async (sql, params) => printResult(await client.query(sql, params));

  await step('create', () => q(env.COMPAT_DDL));
  await step('load', async () => {
    let n = 0;
    for (const r of scenario.rows) {
      const res = await client.query(
        'INSERT INTO events (tenant, seq, kind, amount, at, note, score, flag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', r);
      n += res.rowCount;
    }
    out('inserted ' + n);
  });
  await step('by_key', () => q('SELECT * FROM events WHERE tenant = $1 AND seq = $2', ['acme', 2]));
  await step('by_range', () => q('SELECT tenant, seq, kind, amount FROM events WHERE tenant = $1 AND seq >= $2 ORDER BY seq DESC', ['acme', 2]));
  await step('by_prefix', () => q('SELECT tenant, seq FROM events WHERE tenant >= $1 AND tenant < $2 ORDER BY tenant, seq', ['acme', 'h']));
  // A named prepared statement: pg parses it once per connection.
  await step('named_statement', async () => {
    for (const seq of [1, 2, 3]) {
      await q({name: 'by_key', text: 'SELECT seq, note FROM events WHERE tenant = $1 AND seq = $2', values: ['acme', seq]});
    }
  });
  await step('rows_as_arrays', () => q({
    text: 'SELECT tenant, count(*) AS n, sum(amount) AS total FROM events GROUP BY tenant ORDER BY tenant',
    rowMode: 'array',
  }));
  await step('update', async () => {
    await q('UPDATE events SET note = $1, score = score + 1 WHERE tenant = $2 AND seq = $3', ['updated', 'acme', 1]);
    await q('SELECT note, score FROM events WHERE tenant = $1 AND seq = $2', ['acme', 1]);
  });
  await step('delete', async () => {
    await q('DELETE FROM events WHERE tenant = $1', ['globex']);
    await q('SELECT tenant, seq FROM events ORDER BY tenant, seq');
  });
  await step('transaction', async () => {
    await q('BEGIN');
    await q('UPDATE events SET kind = $1 WHERE tenant = $2', ['tx', 'initech']);
    await q('COMMIT');
    await q('BEGIN');
    await q('DELETE FROM events');
    await q('ROLLBACK');
    await q('SELECT tenant, seq, kind FROM events ORDER BY tenant, seq');
  }, client);
  await client.end();

  // Eight lookups on a pool of four clients, all in flight at once;
  // Promise.all keeps the results in request order.
  await step('pool', async () => {
    const pool = new pg.Pool({...config, max: 4});
    try {
      const keys = [['acme', 1], ['acme', 2], ['acme', 3], ['initech', 1], ['acme', 9], ['acme', 1], ['initech', 1], ['acme', 2]];
      const results = await Promise.all(keys.map((k) => pool.query('SELECT tenant, seq, kind FROM events WHERE tenant = $1 AND seq = $2', k)));
      results.forEach((res, i) => {
        out('lookup ' + keys[i].join('/'));
        printResult(res);
      });
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const r = await c.query('INSERT INTO events (tenant, seq, kind) VALUES ($1, $2, $3)', ['pooled', 1, 'p']);
        await c.query('COMMIT');
        printResult(r);
      } finally {
        c.release();
      }
      printResult(await pool.query('SELECT count(*) FROM events'));
      out('pool totalCount<=4 ' + (pool.totalCount <= 4));
    } finally {
      await pool.end();
    }
  });
  out('## done');
}

main().catch((e) => {
  out('fatal ' + (e.code || e.name) + ' ' + String(e.message).split('\n')[0]);
  process.exitCode = 1;
});
