// The slowest transactions replayed under EXPLAIN after the run (--explain-slowest): each kept
// transaction's statements, with the values they ran with, on one connection inside BEGIN ...
// ROLLBACK, each as EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON). Nothing is committed: the
// transaction is rolled back always, also on error; a statement that fails is rolled back to a
// savepoint, so that the next is still replayed.

import { planFigures } from './plan-shape.js'

/**
 * @typedef {object} ReplayedStatement
 * @property {number} command the script's command index
 * @property {number} line
 * @property {string} sql with $1, $2... for its parameters
 * @property {(string|null)[]} parameters
 * @property {any} [plan] EXPLAIN's JSON (its one element), when replayed
 * @property {number|null} [totalMs] the plan's execution time
 * @property {string} [topNode] the plan's top node, one line
 * @property {string} [reason] why it was not replayed
 */

/** EXPLAIN's options of the replay (WAL from PostgreSQL 13). */
export function explainOptions (serverVersionNum) {
  return `ANALYZE, BUFFERS${serverVersionNum >= 130000 ? ', WAL' : ''}, FORMAT JSON`
}

/**
 * Replay every kept transaction of every type.
 * @param {{ query: (text: string, values?: any[]) => Promise<{ rows: any[][] }>, simpleQuery: (text: string) => Promise<any> }} conn
 *   a connection of pgload's own, between transactions
 * @param {object} p
 * @param {import('../engine/slowest-keeper.js').SlowTransaction[][]} p.slowest by type index
 * @param {{ transactions: { name: string }[], replayStatements?: (type: number, ran: any) => import('../script/replay-parameters.js').ReplayStatement[],
 *   replayTransaction?: (type: number, kept: any, conn: any, options: string) => Promise<ReplayedStatement[]> }} p.workload
 * @param {number} p.serverVersionNum
 * @param {() => boolean} [p.stopped] true once the replay must stop (the after-run bound passed)
 * @param {ReturnType<import('../waits/run-waits.js').WaitSampling['slowTags']>} [p.tags] what the
 *   wait sampler saw of the slowest transactions; null: nothing sampled
 * @returns {Promise<Record<string, { latencyMs: number, waits?: TransactionWaits, statements: ReplayedStatement[] }[]>>}
 */
export async function replaySlowest (conn, { slowest, workload, serverVersionNum, stopped = () => false, tags = null }) {
  const options = explainOptions(serverVersionNum)
  const types = {}
  for (let type = 0; type < slowest.length; type++) {
    if (slowest[type].length === 0) continue
    const list = types[workload.transactions[type].name] = []
    for (const kept of slowest[type]) {
      if (stopped()) return types
      const waits = transactionWaits(tags, kept)
      // a workload whose transactions are functions (TPC-C) replays them itself; a script's are its statements
      const statements = workload.replayTransaction
        ? await workload.replayTransaction(type, kept.parameters, conn, options)
        : await replayTransaction(conn, workload.replayStatements(type, kept.parameters), options)
      list.push({ latencyMs: Math.round(kept.latencyUs) / 1000, ...(waits ? { waits } : {}), statements })
    }
  }
  return types
}

/**
 * What the wait sampler saw of one transaction: its samples by event, most first, and the time
 * they stand for.
 * @typedef {{ samples: number, sampledMs: number, events: { event: string, samples: number }[] }} TransactionWaits
 * @returns {TransactionWaits|null}
 */
function transactionWaits (tags, kept) {
  const tagged = tags !== null && kept.slot >= 0 ? tags.find(kept.slot, kept.seq) : null
  if (tagged === null) return null
  const events = Object.entries(tagged.events).map(([event, samples]) => ({ event, samples })).sort((a, b) => b.samples - a.samples)
  const samples = events.reduce((n, e) => n + e.samples, 0)
  return { samples, sampledMs: Math.round(samples * tags.intervalMs * 1000) / 1000, events }
}

/**
 * One transaction's statements, in one transaction that is rolled back.
 * @returns {Promise<ReplayedStatement[]>}
 */
async function replayTransaction (conn, statements, options) {
  const out = []
  await conn.simpleQuery('BEGIN')
  try {
    for (const s of statements) {
      const entry = { command: s.command, line: s.line, sql: s.sql, parameters: s.values }
      out.push(entry)
      if (s.reason !== null) { entry.reason = s.reason; continue }
      await conn.simpleQuery('SAVEPOINT pgload_explain')
      try {
        const r = await conn.query(`EXPLAIN (${options}) ${s.sql}`, s.values)
        const plan = JSON.parse(r.rows[0][0])[0]
        Object.assign(entry, { plan }, planFigures(plan))
        await conn.simpleQuery('RELEASE SAVEPOINT pgload_explain')
      } catch (err) {
        entry.reason = `it failed again: ${err.message}`
        await conn.simpleQuery('ROLLBACK TO SAVEPOINT pgload_explain')
      }
    }
  } finally {
    await conn.simpleQuery('ROLLBACK')
  }
  return out
}
