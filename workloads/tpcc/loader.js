// `pgload init tpcc`: create the nine tables, stream the generated population over J parallel
// COPY connections (units of work pulled from a shared queue), then keys, indexes, VACUUM ANALYZE,
// the metadata row and the consistency checks.

import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import { PgloadError } from '../../lib/errors.js'
import { parseInteger } from '../../lib/options/parse.js'
import { rangeOf } from '../../lib/options/ranges.js'
import { DEFAULTS } from './defaults.js'
import { FastRandom } from './fast-random.js'
import { TextPool, generateUnit, loadPhases, expectedRows } from './generator.js'
import { CREATE_META, TPCC_TABLES, ALL_TABLES, SCHEMA_SQL, checkServerVersion, tpccShapes, writeMeta } from './meta.js'
import { findTables, refuseForeignTables, dropOwnTables, markTablesSql } from '../own-tables.js'
import { NURAND_A } from './nurand.js'
import { runChecks } from './checks.js'

const sqlFile = name => readFileSync(new URL(name, import.meta.url), 'utf8')
const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version
const noProgress = { start () {}, update () {}, end () {} }

/**
 * Split a .sql file into statements (no semicolons inside our statements).
 * @param {string} text
 */
export function splitStatements (text) {
  const code = text.split('\n').filter(l => !l.trim().startsWith('--')).join('\n')
  return code.split(';').map(s => s.trim()).filter(Boolean)
}

/**
 * Validate init options.
 * @param {object} opts
 * @returns {{ warehouses: number, jobs: number, seed: bigint, force: boolean, foreignKeys: boolean, check: boolean, vacuum: boolean }}
 */
export function initOptionsFrom (opts) {
  const warehouses = parseInteger(opts.warehouses ?? DEFAULTS.warehouses, '--warehouses', rangeOf('--warehouses'))
  const jobs = parseInteger(opts.jobs ?? DEFAULTS.jobs, '--jobs', rangeOf('--init-jobs'))
  let seed
  if (opts.seed === undefined || opts.seed === null) {
    seed = randomBytes(6).readUIntBE(0, 6)
  } else if (/^\d+$/.test(String(opts.seed))) {
    seed = BigInt(opts.seed)
  } else {
    throw new PgloadError(`--seed must be a non-negative integer, got ${opts.seed}`, { code: 'BAD_OPTION' })
  }
  return {
    warehouses,
    jobs,
    seed: BigInt(seed),
    force: Boolean(opts.force),
    foreignKeys: Boolean(opts.foreignKeys),
    check: opts.check !== false && !opts.noCheck,
    vacuum: opts.vacuum !== false && !opts.noVacuum
  }
}

/**
 * One load phase: its units shared out to the connections, each unit's rows sent by COPY.
 * @param {any[]} conns
 * @param {{ name: string, units: any[] }} phase
 * @param {any} load generator state (seed, cLoad, text pool, timestamp)
 * @param {any} progress
 * @returns {Promise<number>} rows loaded
 */
async function loadPhase (conns, phase, load, progress) {
  let next = 0
  const perPhase = { rows: 0, bytes: 0 }
  const worker = async (c) => {
    while (next < phase.units.length) {
      const unit = phase.units[next++]
      const out = generateUnit(unit, load)
      for (const [table, chunks] of out.tables) perPhase.bytes += await copyChunks(c, table, chunks)
      perPhase.rows += out.count
      progress.update(perPhase.rows, perPhase.bytes)
    }
  }
  await Promise.all(conns.slice(0, Math.min(conns.length, phase.units.length)).map(worker))
  return perPhase.rows
}

/**
 * After the rows: primary keys and indexes, foreign keys if asked, then VACUUM ANALYZE (or ANALYZE).
 * @param {any[]} conns the first one is the main connection
 * @param {{ foreignKeys: boolean, vacuum: boolean }} opts
 * @param {{ name: string, seconds: number }[]} steps
 * @param {((name: string) => void) | undefined} onStep
 */
async function buildIndexesAndAnalyze (conns, opts, steps, onStep) {
  await timed(steps, 'primary keys, indexes', () =>
    parallel(conns, splitStatements(sqlFile('indexes.sql')).sort(bySize), async (c, sql) => {
      await c.query(`SET maintenance_work_mem = '${DEFAULTS.maintenanceWorkMem}'`)
      await c.query(sql)
    }), onStep)
  if (opts.foreignKeys) {
    // Foreign keys take SHARE ROW EXCLUSIVE locks on both tables: one at a time.
    await timed(steps, 'foreign keys', () => parallel([conns[0]], splitStatements(sqlFile('foreign-keys.sql')), (c, sql) => c.query(sql)), onStep)
  }
  // VACUUM sets hint bits and the visibility map once, here: otherwise the first minutes of a
  // run do it page by page (a 100-warehouse run stalled for two minutes after an ANALYZE-only load).
  const vacuum = opts.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'
  await timed(steps, opts.vacuum ? 'vacuum analyze' : 'analyze', () => parallel(conns, TPCC_TABLES.slice().sort(bySize), async (c, t) => {
    await c.query(`SET maintenance_work_mem = '${DEFAULTS.maintenanceWorkMem}'`)
    await c.query(`${vacuum} ${t}`)
  }), onStep)
}

/**
 * Load the TPC-C database.
 * @param {{ conn: any, target: any, openConnection: Function, progress?: any, log?: any, onStep?: (name: string) => void }} ctx
 *   onStep: told each step's name as it starts
 * @param {object} rawOpts init options (warehouses, jobs, force, foreignKeys, check/noCheck, seed)
 * @returns {Promise<{ steps: { name: string, seconds: number, rows?: number }[], rows: number, seconds: number, rowsPerS: number, warehouses: number, cLoad: number, seed: string, checks?: object[] }>}
 */
export async function loadTpcc (ctx, rawOpts) {
  const opts = initOptionsFrom(rawOpts)
  const { conn } = ctx
  const progress = ctx.progress ?? noProgress
  const log = ctx.log
  const t0 = performance.now()
  await checkServerVersion(conn)

  const steps = []
  // Every table is checked before anything is dropped: a same-named table of the user's stops it all.
  const existing = await findTables(conn, ALL_TABLES)
  if (existing.length > 0) {
    refuseForeignTables(existing, { workload: 'tpcc', shapes: await tpccShapes(conn), label: 'a TPC-C table', owners: 'pgload\'s own TPC-C tables' })
    const names = existing.map(t => t.qualified).join(', ')
    if (!opts.force) {
      throw new PgloadError(`TPC-C tables already exist (${names}): use --force to drop and reload them`, { code: 'TABLES_EXIST' })
    }
    log?.info?.({ tables: names }, `--force: dropping ${names}`)
    await timed(steps, 'drop tables', () => dropOwnTables(conn, existing), ctx.onStep)
  }
  // Created marked incomplete, in the same implicit transaction: an interrupted load is recognised.
  await conn.query(`${SCHEMA_SQL}\n${CREATE_META};\n${markTablesSql('tpcc', ALL_TABLES, 'incomplete')}`)

  const cLoad = FastRandom.fromKeys(opts.seed, 0).int(0, NURAND_A.cLast)
  const load = {
    seed: opts.seed,
    cLoad,
    pool: new TextPool(opts.seed),
    timestamp: new Date().toISOString().replace('T', ' ').replace('Z', '')
  }

  const conns = [conn]
  let rows = 0
  try {
    for (let j = 1; j < opts.jobs; j++) conns.push(await ctx.openConnection(ctx.target, { applicationName: 'pgload init tpcc' }))
    const total = expectedRows(opts.warehouses)
    for (const phase of loadPhases(opts.warehouses)) {
      const ts = performance.now()
      const before = rows
      ctx.onStep?.(`loading ${phase.name}`)
      progress.start(phase.name, phaseRows(phase), 'rows')
      rows += await loadPhase(conns, phase, load, progress)
      progress.end()
      const seconds = (performance.now() - ts) / 1000
      steps.push({ name: phase.name, seconds, rows: rows - before })
      log?.debug?.({ step: phase.name, seconds, rows: rows - before, total }, 'tpcc load step done')
    }

    await buildIndexesAndAnalyze(conns, opts, steps, ctx.onStep)
  } finally {
    for (const c of conns.slice(1)) await c.close()
  }

  const dataSeconds = steps.filter(s => s.rows !== undefined).reduce((a, s) => a + s.seconds, 0)
  let checks
  if (opts.check) {
    await timed(steps, 'consistency checks', async () => { checks = await runChecks(conn, { fresh: true }) }, ctx.onStep)
    const failed = checks.filter(c => !c.pass)
    if (failed.length > 0) {
      throw new PgloadError(`consistency check failed after load: ${failed.map(c => `${c.name} (${c.violations} violations)`).join(', ')}`, { code: 'CHECK_FAILED' })
    }
  }
  const seconds = (performance.now() - t0) / 1000
  await conn.query('BEGIN')
  try {
    await writeMeta(conn, { warehouses: opts.warehouses, cLoad, seed: String(opts.seed), foreignKeys: opts.foreignKeys, seconds, rows, steps, version: VERSION })
    await conn.query(markTablesSql('tpcc', ALL_TABLES, 'complete'))
    await conn.query('COMMIT')
  } catch (err) {
    await conn.query('ROLLBACK').catch(() => {})
    throw err
  }
  return {
    steps,
    rows,
    seconds,
    rowsPerS: rows / dataSeconds,
    warehouses: opts.warehouses,
    jobs: opts.jobs,
    cLoad,
    seed: String(opts.seed),
    checks
  }
}

function phaseRows (phase) {
  const perUnit = { item: 10000, warehouse: 11, stock: 10000, customer: 6000, orders: 3000 + 900 + 30000 }
  return phase.units.reduce((a, u) => a + perUnit[u.kind], 0)
}

// Biggest tables first, so that parallel connections finish together.
const SIZE_ORDER = ['order_line', 'stock', 'customer', 'orders', 'history', 'new_order', 'item', 'district', 'warehouse']
function bySize (a, b) {
  const rank = s => { const i = SIZE_ORDER.findIndex(t => new RegExp(`\\b${t}\\b`).test(s)); return i < 0 ? 99 : i }
  return rank(a) - rank(b)
}

/**
 * Run a load step, timed into `steps`, saying its name first.
 * @param {{ name: string, seconds: number }[]} steps @param {string} name @param {() => Promise<any>} fn @param {(name: string) => void} [onStep]
 */
export async function timed (steps, name, fn, onStep) {
  onStep?.(name)
  const t = performance.now()
  await fn()
  steps.push({ name, seconds: (performance.now() - t) / 1000 })
}

/** Run items over connections, each connection taking the next item when free. */
async function parallel (conns, items, fn) {
  let next = 0
  await Promise.all(conns.map(async c => {
    while (next < items.length) await fn(c, items[next++])
  }))
}

/**
 * COPY chunks of text into a table, respecting the stream's backpressure.
 * @param {any} conn @param {string} table @param {Buffer[]} chunks
 * @returns {Promise<number>} bytes sent
 */
async function copyChunks (conn, table, chunks) {
  const stream = conn.copyFrom(`COPY ${table} FROM STDIN`)
  const done = finished(stream)
  done.catch(() => {}) // handled below; avoids an unhandled rejection between writes
  let bytes = 0
  try {
    for (const chunk of chunks) {
      bytes += chunk.length
      if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), done])
    }
    stream.end()
    await done
  } catch (err) {
    stream.destroy()
    await done.catch(() => {})
    throw err
  }
  return bytes
}
