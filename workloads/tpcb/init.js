// `pgload init tpcb`: pgbench's tables and rows, loaded as `pgbench -i` does (steps dtgvp[f]):
// drop, create, client-side COPY in one transaction with FREEZE, vacuum analyze, primary keys.

import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { PgloadError, formatServerError } from '../../lib/errors.js'
import { findTables, refuseForeignTables, dropOwnTables, markTablesSql } from '../own-tables.js'

export const TABLES = ['pgbench_accounts', 'pgbench_branches', 'pgbench_history', 'pgbench_tellers']

// pgbench's columns as format_type() spells them; aid is bigint from scale 20000 on. pgbench
// -i --partitions makes pgbench_accounts a partitioned table of the same columns: it is pgbench's
// too, and DROP TABLE removes its partitions with it (they are part of it, not dependants).
const AID_TYPES = ['integer', 'bigint']
const PGBENCH_SHAPES = {
  pgbench_accounts: AID_TYPES.map(t => [`aid ${t}`, 'bid integer', 'abalance integer', 'filler character(84)']),
  pgbench_branches: [['bid integer', 'bbalance integer', 'filler character(88)']],
  pgbench_history: AID_TYPES.map(t => ['tid integer', 'bid integer', `aid ${t}`, 'delta integer', 'mtime timestamp without time zone', 'filler character(22)']),
  pgbench_tellers: [['tid integer', 'bid integer', 'tbalance integer', 'filler character(84)']]
}
/** What `init --force` may replace: see workloads/own-tables.js. */
export const OWN_TABLES = { workload: 'tpcb', shapes: PGBENCH_SHAPES, label: 'a pgbench table', owners: 'pgload\'s and pgbench\'s own tables' }

const DEFAULTS = {
  scale: 1, // pgbench -s: 1 branch, 10 tellers, 100,000 accounts per unit
  fillfactor: 100, // percent, 10..100 (pgbench -F)
  unlogged: false,
  foreignKeys: false,
  noVacuum: false,
  force: false
}

const ACCOUNTS_PER_BRANCH = 100000
const TELLERS_PER_BRANCH = 10
const SCALE_32BIT_THRESHOLD = 20000 // from here on aid is bigint (pgbench)
const ROWS_PER_CHUNK = 2000 // COPY data is sent in ~30 KB strings

const SECTIONS = parseSections(readFileSync(new URL('./schema.sql', import.meta.url), 'utf8'))

/**
 * Create and load pgbench's tables.
 * @param {{ conn: import('../../lib/db/connection.js').PgConnection, progress?: import('../../lib/output/progress.js').Progress, log?: any,
 *   onStep?: (name: string) => void }} ctx onStep: told each step's name as it starts
 * @param {{ scale?: number, fillfactor?: number, force?: boolean, unlogged?: boolean, foreignKeys?: boolean, noVacuum?: boolean }} [options]
 * @returns {Promise<{ steps: { name: string, seconds: number }[], rows: number }>}
 */
export async function initTpcb (ctx, options = {}) {
  const opts = validate({ ...DEFAULTS, ...stripUndefined(options) })
  const { conn } = ctx
  const log = ctx.log ?? { info () {} }
  const progress = ctx.progress ?? { start () {}, update () {}, end () {} }

  // Every table is checked before anything is dropped: a same-named table of the user's stops it all.
  const existing = await findTables(conn, TABLES)
  refuseForeignTables(existing, OWN_TABLES)
  if (existing.length > 0 && !opts.force) {
    throw new PgloadError(`tables already exist: ${[...new Set(existing.map(t => t.name))].join(', ')}; pgload init tpcb will not touch them`, {
      code: 'TABLES_EXIST', hint: 'add --force to drop and re-create the pgbench_* tables (only those)'
    })
  }
  const versionNum = Number((await conn.simpleQuery("select current_setting('server_version_num')")).rows[0][0])

  const steps = []
  const step = async (name, message, fn) => {
    log.info(message)
    ctx.onStep?.(name)
    const t0 = performance.now()
    try {
      await fn()
    } catch (err) {
      if (err instanceof PgloadError) throw err
      await conn.simpleQuery('rollback').catch(() => {})
      throw new PgloadError(`init tpcb: ${name} failed: ${err.code && err.message ? formatServerError(err).split('\n')[0] : err.message}`, {
        code: 'INIT_FAILED', hint: err.hint ?? err.detail, cause: err
      })
    }
    steps.push({ name, seconds: (performance.now() - t0) / 1000 })
  }

  await step('drop tables', 'dropping old tables...', () => dropOwnTables(conn, existing))

  // Created marked incomplete, in the same implicit transaction: an interrupted load is recognised.
  await step('create tables', 'creating tables...', () =>
    conn.simpleQuery(fill(SECTIONS['create tables'], {
      unlogged: opts.unlogged ? 'unlogged ' : '',
      with: ` with (fillfactor=${opts.fillfactor})`,
      aid: opts.scale >= SCALE_32BIT_THRESHOLD ? 'bigint' : 'int'
    }) + markTablesSql('tpcb', TABLES, 'incomplete')))

  let rows = 0
  await step('client-side generate', 'generating data (client-side)...', async () => {
    await conn.simpleQuery('begin')
    await conn.simpleQuery(`truncate table ${TABLES.join(', ')}`)
    // FREEZE needs a table created or truncated in this transaction; servers >= 14 (pgbench)
    const freeze = versionNum >= 140000 ? ' with (freeze on)' : ''
    const s = opts.scale
    rows += await copyRows(conn, progress, 'pgbench_branches', s, freeze, branchRow)
    rows += await copyRows(conn, progress, 'pgbench_tellers', TELLERS_PER_BRANCH * s, freeze, tellerRow)
    rows += await copyRows(conn, progress, 'pgbench_accounts', ACCOUNTS_PER_BRANCH * s, freeze, accountRow)
    await conn.simpleQuery('commit')
  })

  if (!opts.noVacuum) {
    await step('vacuum', 'vacuuming...', async () => {
      for (const t of ['pgbench_branches', 'pgbench_tellers', 'pgbench_accounts', 'pgbench_history']) {
        await conn.simpleQuery(`vacuum analyze ${t}`)
      }
    })
  }

  await step('primary keys', 'creating primary keys...', () => runEach(conn, SECTIONS['primary keys']))

  if (opts.foreignKeys) {
    await step('foreign keys', 'creating foreign keys...', () => runEach(conn, SECTIONS['foreign keys']))
  }
  await conn.simpleQuery(markTablesSql('tpcb', TABLES, 'complete'))

  return { steps, rows }
}

function branchRow (i) { return `${i}\t0\t\\N\n` }
function tellerRow (i) { return `${i}\t${Math.floor((i - 1) / TELLERS_PER_BRANCH) + 1}\t0\t\\N\n` }
function accountRow (i) { return `${i}\t${Math.floor((i - 1) / ACCOUNTS_PER_BRANCH) + 1}\t0\t\n` }

// COPY rows 1..total of a table, in pgbench's text format, with progress.
async function copyRows (conn, progress, table, total, freeze, row) {
  progress.start(`generating ${table}`, total, 'rows')
  let bytes = 0
  function * chunks () {
    for (let first = 1; first <= total; first += ROWS_PER_CHUNK) {
      const last = Math.min(total, first + ROWS_PER_CHUNK - 1)
      let chunk = ''
      for (let i = first; i <= last; i++) chunk += row(i)
      bytes += chunk.length
      progress.update(last, bytes)
      yield chunk
    }
  }
  try {
    await pipeline(Readable.from(chunks(), { objectMode: false }), conn.copyFrom(`copy ${table} from stdin${freeze}`))
  } finally {
    progress.end()
  }
  return total
}

async function runEach (conn, sql) {
  for (const stmt of sql.split(';').map(s => s.trim()).filter(Boolean)) await conn.simpleQuery(stmt)
}

function validate (o) {
  if (!Number.isInteger(o.scale) || o.scale < 1) throw new PgloadError(`--scale must be an integer >= 1, got ${o.scale}`)
  if (!Number.isInteger(o.fillfactor) || o.fillfactor < 10 || o.fillfactor > 100) {
    throw new PgloadError(`--fillfactor must be an integer from 10 to 100, got ${o.fillfactor}`)
  }
  return o
}

function stripUndefined (o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
}

function fill (template, values) {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k) => values[k])
}

function parseSections (text) {
  const out = {}
  let name = null
  for (const line of text.split('\n')) {
    const m = /^-- name: (.+)$/.exec(line)
    if (m) { name = m[1].trim(); out[name] = ''; continue }
    if (name && !line.startsWith('--')) out[name] += line + '\n'
  }
  return out
}
