// `pgload init chbench`: the TPC-C tables (loaded first when they are missing, as `init tpcc`
// would load them) and CH-benCHmark's supplier, nation and region beside them, generated from
// the TPC-C load's seed. On TPC-C tables already loaded the three are added; --force reloads all twelve.

import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import { readFileSync } from 'node:fs'
import { PgloadError } from '../../lib/errors.js'
import { findTables, refuseForeignTables, dropOwnTables, markTablesSql, loadState, shapesOfDdl } from '../own-tables.js'
import { loadTpcc, timed } from '../tpcc/loader.js'
import { withLoadLock } from '../load-lock.js'
import { parseInteger } from '../../lib/options/parse.js'
import { rangeOf } from '../../lib/options/ranges.js'
import { readMeta, TPCC_TABLES } from '../tpcc/meta.js'
import { chbenchRows } from './generator.js'

/** CH-benCHmark's own tables (the TPC-C nine are tpcc's). */
export const CH_TABLES = Object.freeze(['region', 'nation', 'supplier'])

const SCHEMA_SQL = readFileSync(new URL('./schema.sql', import.meta.url), 'utf8')
const KEYS_SQL = `ALTER TABLE region ADD PRIMARY KEY (r_regionkey);
ALTER TABLE nation ADD PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD PRIMARY KEY (su_suppkey);
CREATE INDEX supplier_nation ON supplier (su_nationkey)`

/**
 * Load what CH-benCHmark needs.
 * @param {{ conn: any, target: any, openConnection: Function, progress?: any, log?: any, onStep?: (name: string) => void }} ctx
 * @param {{ warehouses?: number|string, jobs?: number|string, force?: boolean, foreignKeys?: boolean, check?: boolean, vacuum?: boolean, seed?: string }} opts
 * @returns {Promise<{ steps: { name: string, seconds: number, rows?: number }[], rows: number, seconds: number, warehouses: number, seed: string, tpccLoaded: boolean }>}
 */
export async function loadChbench (ctx, opts) {
  const { conn } = ctx
  const t0 = performance.now()
  // Every table is checked before anything is dropped or loaded: a same-named table of the
  // user's (a "supplier" of another shape) stops it all.
  const existing = await findTables(conn, CH_TABLES)
  refuseForeignTables(existing, { workload: 'chbench', shapes: await shapesOfDdl(conn, SCHEMA_SQL), label: 'a CH-benCHmark table', owners: 'pgload\'s own CH-benCHmark tables (supplier, nation, region)' })
  const tpcc = await tpccState(conn)
  let steps = []
  let rows = 0
  if (tpcc.loaded && !opts.force) {
    if (existing.length > 0) {
      throw new PgloadError(`CH-benCHmark tables already exist (${existing.map((t) => t.qualified).join(', ')}): use --force to drop and reload them with the TPC-C tables`, { code: 'TABLES_EXIST' })
    }
    await checkWarehouses(conn, opts.warehouses)
  } else {
    // the TPC-C load under its own lock, as `init tpcc` takes it: never two loads of its tables at once
    const loaded = await withLoadLock(conn, 'tpcc', () => loadTpcc(ctx, opts))
    steps = loaded.steps
    rows = loaded.rows
  }
  const meta = await readMeta(conn)
  if (existing.length > 0) await timed(steps, 'drop CH-benCHmark tables', () => dropOwnTables(conn, existing), ctx.onStep)
  await conn.query(`${SCHEMA_SQL}\n${markTablesSql('chbench', CH_TABLES, 'incomplete')}`)
  const data = chbenchRows(meta.seed)
  const before = performance.now()
  ctx.onStep?.('loading supplier, nation, region')
  for (const table of CH_TABLES) await copyText(conn, table, data[table])
  const chRows = CH_TABLES.reduce((n, t) => n + data[t].split('\n').length - 1, 0)
  steps.push({ name: 'supplier, nation, region', seconds: (performance.now() - before) / 1000, rows: chRows })
  await timed(steps, 'CH-benCHmark keys', () => conn.query(KEYS_SQL), ctx.onStep)
  await timed(steps, 'CH-benCHmark analyze', () => conn.query(`ANALYZE ${CH_TABLES.join(', ')}`), ctx.onStep)
  await conn.query(markTablesSql('chbench', CH_TABLES, 'complete'))
  return {
    steps,
    rows: rows + chRows,
    seconds: (performance.now() - t0) / 1000,
    warehouses: meta.warehouses,
    seed: String(meta.seed),
    tpccLoaded: !tpcc.loaded || Boolean(opts.force)
  }
}

/**
 * On TPC-C tables already loaded, the three are added to them as they are: a --warehouses that
 * asks for another size is refused rather than ignored.
 */
async function checkWarehouses (conn, asked) {
  if (asked === undefined) return
  const { warehouses } = await readMeta(conn)
  const n = parseInteger(asked, '--warehouses', rangeOf('--warehouses'))
  if (n !== warehouses) {
    throw new PgloadError(`the TPC-C tables are loaded with ${warehouses} warehouse${warehouses === 1 ? '' : 's'}, not ${n}: leave out --warehouses to add CH-benCHmark's tables to them, or give --force to reload everything with ${n}`, { code: 'BAD_OPTION' })
  }
}

/** Whether complete TPC-C tables are there to add CH-benCHmark's three to. */
async function tpccState (conn) {
  const found = await findTables(conn, TPCC_TABLES)
  if (found.length < TPCC_TABLES.length) return { loaded: false }
  const state = await loadState(conn, 'tpcc', TPCC_TABLES)
  return { loaded: state.state === 'ok' }
}

/** COPY tab-separated text into a table. */
async function copyText (conn, table, text) {
  const stream = conn.copyFrom(`COPY ${table} FROM STDIN`)
  const done = finished(stream)
  done.catch(() => {})
  if (!stream.write(text)) await Promise.race([once(stream, 'drain'), done])
  stream.end()
  await done
}
