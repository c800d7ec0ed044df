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
import { createTpccWorkload } from '../tpcc/workload.js'
import { CH_QUERIES } from './queries.js'
import { CH_TABLES } from './loader.js'
import { streamState, nextQuery, queryEnded, analyticFigures } from './streams.js'

/** Analytic streams when --streams is not given. */
export const DEFAULT_STREAMS = 1

/**
 * --streams, checked.
 * @param {{ streams?: string|number }} opts
 * @returns {number}
 */
export function streamsOf (opts) {
  return opts.streams === undefined ? DEFAULT_STREAMS : parseInteger(opts.streams, '--streams', rangeOf('--streams'))
}

/**
 * The CH-benCHmark workload.
 * @param {{ conn: any, target?: any, log?: any, openConnection?: Function }} ctx
 * @param {Record<string, any>} opts the run's workload options
 */
export async function createChbenchWorkload (ctx, opts) {
  const streams = streamsOf(opts)
  await requireTables(ctx.conn)
  const tp = await createTpccWorkload(ctx, opts)
  const first = tp.transactions.length
  const queries = CH_QUERIES.map((q) => ({ ...q, statement: defineStatement(q.sql) }))
  const rows = new Map()
  const states = []
  let measuring = false
  const analytic = queries.map((q) => ({
    name: q.name,
    weight: 0, // chosen by the streams, never by TPC-C's terminals
    async run (tctx) {
      const r = await tctx.conn.execute(q.statement)
      rows.set(q.name, (rows.get(q.name) ?? 0) + (r.rows?.length ?? 0))
      return undefined
    }
  }))
  return {
    ...tp,
    name: 'chbench',
    transactions: [...tp.transactions, ...analytic],
    terminals: tp.terminals + streams,
    // the streams hold a connection each for as long as a query runs
    defaultConnections: tp.defaultConnections + streams,
    statements: [...tp.statements, ...queries.map((q) => q.statement)],
    terminalGroup: undefined,
    firstWaitUs: tp.firstWaitUs,
    choose (tctx) {
      const s = tctx.state
      return s.order ? first + nextQuery(s) : tp.choose(tctx)
    },
    createTerminalState (terminalId, random) {
      if (terminalId < tp.terminals) return tp.createTerminalState(terminalId, random)
      const s = streamState(terminalId - tp.terminals, random)
      states.push(s)
      return s
    },
    onTransactionEnd (tctx, info) {
      if (tctx.state.order) queryEnded(tctx.state, info, measuring)
      else tp.onTransactionEnd(tctx, info)
    },
    measuringStarted () {
      measuring = true
      tp.measuringStarted()
    },
    async afterRun (conn, runInfo) {
      const tpcc = await tp.afterRun(conn, runInfo)
      return { tpcc, chbench: analyticFigures(runInfo, states, rows) }
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
