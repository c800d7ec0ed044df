// sysbench's table for the point-select case: `sbtest1` in the shape sysbench's oltp_common
// prepares it (id serial key, k, c char(120), pad char(60), index on k), made here with SQL so
// that pgbench and pgload run against it whether or not sysbench is installed. A same-named
// table of another shape is never touched: the bench refuses it. A table the bench made itself
// (its comment says so) that is too small, as a --smoke run leaves it, is loaded again.

import { openConnection } from '../../lib/db/connection.js'
import { PgloadError } from '../../lib/errors.js'

const COLUMNS = 'id,k,c,pad'
const MARK = 'made by the pgload bench'

/**
 * Make sure sbtest1 exists with at least `rows` rows; reuse it when it has the right shape.
 * @param {{ target: any }} server
 * @param {{ rows: number, log: (s: string) => void }} opts
 * @returns {Promise<number>} the rows of the table (its largest id)
 */
export async function ensureSbtest (server, { rows, log }) {
  const conn = await openConnection(server.target, { protocol: 'simple', applicationName: 'pgload-bench' })
  try {
    const shape = await conn.simpleQuery(`SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute
      WHERE attrelid = to_regclass('sbtest1') AND attnum > 0 AND NOT attisdropped`)
    const columns = shape.rows[0][0]
    if (columns !== null && columns !== COLUMNS) {
      throw new PgloadError(`sbtest1 exists with columns ${columns}, not sysbench's (${COLUMNS}); the bench leaves it alone`, { hint: 'run the bench against another database (--url)' })
    }
    if (columns !== null) {
      const n = Number((await conn.simpleQuery('SELECT coalesce(max(id), 0) FROM sbtest1')).rows[0][0])
      if (n >= rows) return n
      const comment = (await conn.simpleQuery("SELECT obj_description('sbtest1'::regclass, 'pg_class')")).rows[0][0]
      if (comment !== MARK) throw new PgloadError(`sbtest1 has ${n} rows, the bench needs ${rows}`, { hint: 'drop sbtest1 to let the bench load it again' })
      log(`bench: sbtest1 (the bench's own) has ${n} rows, loading it again\n`)
      await conn.simpleQuery('DROP TABLE sbtest1')
    }
    log(`bench: loading sbtest1 with ${rows} rows\n`)
    await conn.simpleQuery(`CREATE TABLE sbtest1 (id serial PRIMARY KEY, k integer NOT NULL DEFAULT 0,
      c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '')`)
    // sysbench's values: k random in [1, rows], c and pad groups of digits
    await conn.simpleQuery(`INSERT INTO sbtest1 (k, c, pad)
      SELECT 1 + floor(random() * ${rows})::int,
             substr(repeat(md5(i::text) || '-', 4), 1, 119), substr(repeat(md5((-i)::text), 2), 1, 59)
      FROM generate_series(1, ${rows}) AS i`)
    await conn.simpleQuery('CREATE INDEX k_1 ON sbtest1 (k)')
    await conn.simpleQuery(`COMMENT ON TABLE sbtest1 IS '${MARK}'`)
    await conn.simpleQuery('VACUUM ANALYZE sbtest1')
    return rows
  } finally {
    await conn.close()
  }
}

/**
 * The point-select script for pgbench and pgload: the statement sysbench's oltp_point_select runs.
 * @param {number} rows
 * @returns {string}
 */
export function pointSelectScript (rows) {
  return `\\set id random(1, ${rows})\nSELECT c FROM sbtest1 WHERE id = :id;\n`
}
