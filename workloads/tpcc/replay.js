// TPC-C's slowest transactions replayed under EXPLAIN (--explain-slowest). A transaction is kept
// as the state of its terminal's random generator when it began, with the terminal's warehouse
// and district: its own function, run again from them on a connection that explains each
// statement and commits nothing (explaining-connection.js), draws the same inputs and runs the
// same statements.

import { Prng } from '../../lib/random/prng.js'
import { explainingConnection } from './explaining-connection.js'

/**
 * What a TPC-C transaction is kept as (plain data: it crosses threads).
 * @param {number} type
 * @param {{ w: number, d: number }} state the terminal's
 * @param {number[]|undefined} randomState its generator's state when the transaction began
 * @returns {{ random: number[], w: number, d: number }}
 */
export function captureTransaction (type, state, randomState) {
  return { random: Array.from(randomState ?? []), w: state.w, d: state.d }
}

/**
 * Replay one kept transaction: its statements, each with its plan or why it has none. A failure
 * of the transaction itself ends it, said as the last entry; the replay is rolled back always.
 * @param {(ctx: any, shared: any) => Promise<any>} run the type's transaction function
 * @param {{ random: number[], w: number, d: number }} kept
 * @param {any} conn pgload's own connection, between transactions
 * @param {string} options EXPLAIN's options
 * @param {import('./transactions/common.js').Shared} shared the run's shared values
 * @returns {Promise<object[]>} statements in the results' `slowest` shape
 */
export function replayTransaction (run, kept, conn, options, shared) {
  const random = Prng.fromSeed(0n)
  random.setState(kept.random)
  // the replay's New-Order is no commit of the run: the RPO check's list is left as it was
  return replayWith(conn, options, (ex) => run({ conn: ex, random, state: { w: kept.w, d: kept.d } }, { ...shared, orders: null }))
}

/**
 * Run `body` on a connection that explains each statement (CH-benCHmark's queries use it too).
 * @param {any} conn
 * @param {string} options EXPLAIN's options
 * @param {(ex: ReturnType<typeof explainingConnection>) => Promise<any>} body
 * @returns {Promise<object[]>} statements in the results' `slowest` shape
 */
export async function replayWith (conn, options, body) {
  const ex = explainingConnection(conn, options)
  let failure = null
  try {
    await body(ex)
  } catch (err) {
    failure = err
  } finally {
    await ex.end()
  }
  const statements = ex.statements.map((e, i) => ({
    command: i,
    sql: e.sql,
    parameters: e.parameters.map((v) => v === null || v === undefined ? null : String(v)),
    ...(e.plan ? { plan: e.plan, totalMs: e.totalMs, topNode: e.topNode } : { reason: e.reason ?? 'the replay stopped before it was explained' })
  }))
  if (failure !== null) statements.push({ command: statements.length, sql: '(the rest of the transaction)', parameters: [], reason: `the transaction failed on replay: ${failure.message}` })
  if (ex.rolledBack) statements.push({ command: statements.length, sql: 'ROLLBACK', parameters: [], reason: 'the transaction rolls itself back here (an expected rollback): the replay ends' })
  return statements
}
