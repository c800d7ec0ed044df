// `pgload run chbench`: TPC-C's terminals as `run tpcc` drives them (spec-paced, or --no-wait)
// and K analytic streams beside them, one terminal each, running the 22 queries without pause.
// Each query is a transaction type of its own (q1 ... q22): its latency histogram, count and
// failures come with every other type's; the rows it returned and each stream's complete sets
// are counted here.

import { PgloadError } from '../../lib/errors.js'
import { defineStatement } from '../../lib/db/connection.js'
import { parseInteger } from '../../lib/options/parse.js'
import { rangeOf } from '../../lib/options/ranges.js'
import { loadState } from '../own-tables.js'
import { replayWith } from '../tpcc/replay.js'
import { createTpccWorkload } from '../tpcc/workload.js'
import { CH_QUERIES } from './queries.js'
import { CH_TABLES } from './loader.js'
import { streamState, nextQuery, queryEnded, analyticFigures } from './streams.js'
import { answerChecksum, AnswerTally } from './answers.js'

/** Analytic streams when --streams is not given. */
export const DEFAULT_STREAMS = 1

/**
 * --streams, checked.
 * @param {{ streams?: string|number }} opts
 * @returns {number}
 */
export function streamsOf (opts) {
  const streams = opts.streams === undefined ? DEFAULT_STREAMS : parseInteger(opts.streams, '--streams', rangeOf('--streams'))
  if (streams === 0 && opts.tpcc === false) {
    throw new PgloadError('--no-tpcc with --streams 0 leaves nothing to run', { code: 'BAD_OPTION', hint: 'give --streams 1 or more' })
  }
  return streams
}

/**
 * --queries, checked: the indexes into CH_QUERIES of the queries a stream's set holds.
 * @param {{ queries?: string }} opts
 * @returns {number[]}
 */
export function queriesOf (opts) {
  if (opts.queries === undefined) return CH_QUERIES.map((_, i) => i)
  const names = String(opts.queries).split(',').map((n) => n.trim().toLowerCase()).filter(Boolean)
  const indexes = names.map((n) => CH_QUERIES.findIndex((q) => q.name === n || q.name === `q${n}`))
  const bad = names.find((_, i) => indexes[i] < 0)
  if (bad !== undefined || names.length === 0) {
    throw new PgloadError(`--queries must be a list of q1 ... q22, got ${JSON.stringify(String(opts.queries))}`, { code: 'BAD_OPTION', hint: 'e.g. --queries q16,q19' })
  }
  return [...new Set(indexes)]
}

/**
 * The CH-benCHmark workload.
 * @param {{ conn: any, target?: any, log?: any, openConnection?: Function }} ctx
 * @param {Record<string, any>} opts the run's workload options
 */
export async function createChbenchWorkload (ctx, opts) {
  const streams = streamsOf(opts)
  const chosen = queriesOf(opts)
  await requireTables(ctx.conn)
  const tp = await createTpccWorkload(ctx, opts)
  // --no-tpcc: the streams alone, on data that holds still
  const tpTerminals = opts.tpcc === false ? 0 : tp.terminals
  const first = tp.transactions.length
  const queries = CH_QUERIES.map((q) => ({ ...q, statement: defineStatement(q.sql) }))
  const rows = new Map()
  const answers = new AnswerTally()
  const states = []
  let measuring = false
  let windowEpochUs = null
  const analytic = queries.map((q) => ({
    name: q.name,
    weight: 0, // chosen by the streams, never by TPC-C's terminals
    async run (tctx) {
      const r = await tctx.conn.execute(q.statement)
      rows.set(q.name, (rows.get(q.name) ?? 0) + (r.rows?.length ?? 0))
      answers.record(q.name, answerChecksum(r.rows ?? [], q.ordered))
      return undefined
    }
  }))
  return {
    ...tp,
    name: 'chbench',
    transactions: [...tp.transactions, ...analytic],
    terminals: tpTerminals + streams,
    // the streams hold a connection each for as long as a query runs
    defaultConnections: (tpTerminals ? tp.defaultConnections : 0) + streams,
    statements: [...tp.statements, ...queries.map((q) => q.statement)],
    terminalGroup: undefined,
    firstWaitUs: tpTerminals ? tp.firstWaitUs : () => 0,
    choose (tctx) {
      const s = tctx.state
      return s.order ? first + nextQuery(s) : tp.choose(tctx)
    },
    createTerminalState (terminalId, random) {
      if (terminalId < tpTerminals) return tp.createTerminalState(terminalId, random)
      const s = streamState(terminalId - tpTerminals, random, chosen)
      states.push(s)
      return s
    },
    onTransactionEnd (tctx, info) {
      if (tctx.state.order) queryEnded(tctx.state, info, measuring, windowEpochUs)
      else tp.onTransactionEnd(tctx, info)
    },
    measuringStarted () {
      measuring = true
      // the intervals' time counts from here (the same clock as a transaction's endEpochUs)
      windowEpochUs = (performance.timeOrigin + performance.now()) * 1000
      tp.measuringStarted()
    },
    // --explain-slowest: TPC-C's types as TPC-C replays them, a query by its one statement
    replayTransaction: (type, kept, conn, options) => type < first
      ? tp.replayTransaction(type, kept, conn, options)
      : replayWith(conn, options, (ex) => ex.execute(queries[type - first].statement, [])),
    async afterRun (conn, runInfo) {
      const tpcc = await tp.afterRun(conn, runInfo)
      // an answer is checked where the data held still under every execution of the query
      const answerOf = (name) => answers.answer(name, tpTerminals === 0 || CH_QUERIES.find((q) => q.name === name).staticData)
      return { tpcc, chbench: { ...analyticFigures(runInfo, states, rows, answerOf, chosen), tpcc: tpTerminals > 0 } }
    }
  }
}

/** The three tables must be there and complete (the TPC-C ones are checked by TPC-C's own reading). */
async function requireTables (conn) {
  const found = await conn.query(`select count(*) from unnest(array['${CH_TABLES.join("','")}']) t where to_regclass(t) is not null`)
  if (Number(found.rows[0][0]) < CH_TABLES.length) {
    throw new PgloadError('no CH-benCHmark tables are loaded: run `pgload init chbench --warehouses N` first', { code: 'NO_SCHEMA' })
  }
  const state = await loadState(conn, 'chbench', CH_TABLES)
  if (state.state === 'incomplete') {
    throw new PgloadError(`the CH-benCHmark load did not finish (${state.tables.join(', ')}): run \`pgload init chbench --force\``, { code: 'INCOMPLETE_LOAD' })
  }
}
