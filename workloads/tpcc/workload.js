// `pgload run tpcc`: the Workload the engine drives (docs/architecture.md): 10 terminals per
// warehouse bound to (W_ID, D_ID), the deck, pacing, the five transactions and the tpcc results.

import { PgloadError } from '../../lib/errors.js'
import { parseInteger, parseNumber } from '../../lib/options/parse.js'
import { rangeOf } from '../../lib/options/ranges.js'
import { Prng } from '../../lib/random/prng.js'
import { DEFAULTS, TYPES } from './defaults.js'
import { Deck, weightedDraw } from './deck.js'
import { parseMix } from './mix.js'
import { pacing } from './pacing.js'
import { checkServerVersion, readMeta } from './meta.js'
import { runConstants } from './nurand.js'
import * as newOrder from './transactions/new-order.js'
import * as payment from './transactions/payment.js'
import * as orderStatus from './transactions/order-status.js'
import * as delivery from './transactions/delivery.js'
import * as stockLevel from './transactions/stock-level.js'
import { BEGIN, BEGIN_READ_ONLY, COMMIT, ROLLBACK, numberStatements } from './transactions/common.js'
import { DeliveryQueue, deliverySummary } from './deferred-queue.js'
import { firstWait } from './ramp-up.js'
import { RollingCount } from './rolling-count.js'
import { tpccResults } from './results.js'
import { openConnection } from '../../lib/db/connection.js'
import { OrderLog } from './order-log.js'
import { captureTransaction, replayTransaction } from './replay.js'

export { tpccResults }

const RUNNERS = {
  'new-order': newOrder.runNewOrder,
  payment: payment.runPayment,
  'order-status': orderStatus.runOrderStatus,
  delivery: delivery.runDelivery,
  'stock-level': stockLevel.runStockLevel
}

/** Every statement, prepared on each pool connection before the run. */
export const STATEMENTS = [BEGIN, BEGIN_READ_ONLY, COMMIT, ROLLBACK, ...newOrder.statements, ...payment.statements,
  ...orderStatus.statements, ...delivery.statements, ...stockLevel.statements]
numberStatements(STATEMENTS)
/** The statements by their number (the wait sampler's names): each one's first line. */
const STATEMENT_NAMES = STATEMENTS.map((s) => s.text.trim().split('\n')[0].replace(/\s+/g, ' '))

/**
 * Pool size: paced terminals are idle almost all the time, so a few connections serve many.
 * @param {number} terminals @param {boolean} paced @param {number} warehouses
 */
export function defaultConnections (terminals, paced, warehouses) {
  if (!paced) return Math.min(terminals, DEFAULTS.unpacedConnectionsMax)
  const n = Math.ceil(warehouses * DEFAULTS.pacedConnectionsPerWarehouse)
  return Math.min(terminals, Math.max(DEFAULTS.pacedConnectionsMin, Math.min(DEFAULTS.pacedConnectionsMax, n)))
}

/**
 * The terminal's fixed (W_ID, D_ID) (clause 4.2.2): terminals 0..9 serve warehouse 1, districts 1..10.
 * @param {number} terminalId 0-based
 */
export function terminalHome (terminalId) {
  return { w: Math.floor(terminalId / DEFAULTS.terminalsPerWarehouse) + 1, d: (terminalId % DEFAULTS.terminalsPerWarehouse) + 1 }
}

/**
 * Check the run options that need no server (called before connecting, and by createTpccWorkload).
 * @param {{ warehouses?: number, wait?: boolean, noWait?: boolean, waitScale?: number, mix?: string,
 *   allowNonstandardMix?: boolean, delivery?: string }} opts
 */
export function validateRunOptions (opts) {
  // numbers as typed on a command line become numbers, in place (the plan records them so)
  if (opts.warehouses !== undefined) {
    const n = parseInteger(opts.warehouses, '--warehouses', rangeOf('--warehouses'))
    if (opts.warehouses !== n) opts.warehouses = n
  }
  if (opts.waitScale !== undefined && opts.waitScale !== null) {
    const n = parseNumber(opts.waitScale, '--wait-scale', rangeOf('--wait-scale'))
    if (opts.waitScale !== n) opts.waitScale = n
  }
  if (opts.delivery !== undefined && opts.delivery !== 'deferred' && opts.delivery !== 'inline') {
    throw new PgloadError(`--delivery must be deferred or inline, got ${JSON.stringify(opts.delivery)}`, { code: 'BAD_OPTION' })
  }
  const { mix, standard } = parseMix(opts.mix, { allowNonstandard: Boolean(opts.allowNonstandardMix) })
  return { mix, standard, pace: pacing(opts) }
}

/**
 * The warehouses a run uses: --warehouses, at most as many as were loaded (all of them by default).
 * @param {number | undefined} asked
 * @param {number} loaded
 */
function runWarehouses (asked, loaded) {
  const warehouses = asked ?? loaded
  if (warehouses > loaded) {
    throw new PgloadError(`--warehouses ${warehouses} is more than the ${loaded} loaded: run with --warehouses ${loaded} or fewer, or reload with \`pgload init tpcc --warehouses ${warehouses} --force\``, { code: 'BAD_OPTION' })
  }
  return warehouses
}

/**
 * Cumulative mix weights in TYPES order, for one weighted draw per transaction.
 * @param {Record<string, number>} mix
 */
function cumulativeMix (mix) {
  const cumulative = new Float64Array(TYPES.length)
  TYPES.reduce((s, t, i) => { cumulative[i] = s + mix[t]; return cumulative[i] }, 0)
  return cumulative
}

/**
 * The queue of deferred deliveries, on connections of its own.
 * @param {{ target?: any, openConnection?: (opts?: object) => Promise<any>, log?: any }} ctx
 * @param {number} warehouses
 */
function deliveryQueue (ctx, warehouses) {
  const open = ctx.openConnection
    ? () => ctx.openConnection({ applicationName: 'pgload tpcc delivery' })
    : () => openConnection(ctx.target, { applicationName: 'pgload tpcc delivery' })
  return new DeliveryQueue({
    open,
    workers: Math.min(DEFAULTS.deliveryWorkersMax, Math.ceil(warehouses / DEFAULTS.deliveryWarehousesPerWorker)),
    nowUs: () => performance.now() * 1000,
    log: ctx.log
  })
}

/**
 * The Delivery transaction when deferred: the terminal only queues the request.
 * @param {DeliveryQueue} queue
 */
function deferDelivery (queue) {
  return async (tctx) => {
    const inp = delivery.deliveryInput(tctx.random, tctx.state)
    queue.enqueue(inp.w, inp.carrier)
    return undefined
  }
}

/**
 * A terminal's own state: its home warehouse and district, and its deck of transaction types.
 * @param {number} terminalId
 * @param {any} random the terminal's generator
 * @param {boolean} paced
 */
function terminalState (terminalId, random, paced) {
  const home = terminalHome(terminalId)
  const deck = new Deck()
  // paced: terminals do not all start on a fresh deck (see Deck#startAtRandomCard)
  if (paced && random) deck.startAtRandomCard(random)
  return { w: home.w, d: home.d, deck }
}

/**
 * What every terminal's transactions share: the warehouses, the run-time NURand constants (from
 * the run's seed), and with --failover each committed New-Order's key (the RPO check's list).
 * @returns {import('./transactions/common.js').Shared}
 */
function sharedValues (opts, warehouses, meta) {
  const constRandom = Prng.fromSeed(BigInt(opts.randomSeed ?? Date.now()) ^ 0x7c3a9e5bn)
  return { warehouses, c: runConstants(constRandom, meta.cLoad), orders: opts.recordCommits ? new OrderLog() : null }
}

/**
 * What reads the run's shared values after it. --explain-slowest: a transaction is kept as its
 * generator's state at its start and its terminal's warehouse and district, and replayed by its
 * type's own function (replay.js).
 */
function sharedHooks (shared) {
  return {
    // --failover: the committed New-Orders' keys, for the RPO check's list
    acknowledgedCommits: () => shared.orders,
    captureParameters: captureTransaction,
    replayTransaction: (type, kept, conn, options) => replayTransaction(RUNNERS[TYPES[type]], kept, conn, options, shared)
  }
}

/**
 * Build the run-time workload.
 * @param {{ conn: any, target?: any, openConnection?: (opts?: object) => Promise<any>, log?: any }} ctx
 * @param {{ warehouses?: number, wait?: boolean, noWait?: boolean, waitScale?: number, mix?: string,
 *   allowNonstandardMix?: boolean, delivery?: 'deferred'|'inline', randomSeed?: bigint|number }} opts
 */
export async function createTpccWorkload (ctx, opts) {
  const { mix, standard, pace } = validateRunOptions(opts)
  await checkServerVersion(ctx.conn)
  const meta = await readMeta(ctx.conn)
  const shared = sharedValues(opts, runWarehouses(opts.warehouses, meta.warehouses), meta)
  const warehouses = shared.warehouses
  const terminals = warehouses * DEFAULTS.terminalsPerWarehouse
  const cumulative = cumulativeMix(mix)
  // NOPM: sum(d_next_o_id) read when the measured window opens (before the run without a warm-up)
  let startSumNextOId = null
  let startRead = null
  let warmupS = 0
  let rampUp = false
  let db = null
  // The progress line's rolling tpmC, from every New-Order commit, ramp-up included.
  const newOrderCommits = new RollingCount(DEFAULTS.progressTpmWindowS)
  // Deferring needs connections of its own: without a way to open them, deliver inline.
  const canDefer = Boolean(ctx.openConnection || ctx.target)
  const deliveryMode = opts.delivery ?? (pace.paced && canDefer ? 'deferred' : 'inline')
  const queue = deliveryMode === 'deferred' ? deliveryQueue(ctx, warehouses) : null
  const runners = queue ? { ...RUNNERS, delivery: deferDelivery(queue) } : RUNNERS
  const transactions = TYPES.map(name => {
    const runner = runners[name]
    return { name, weight: mix[name], ...pace.byType[name], run: (tctx) => runner(tctx, shared) }
  })

  return {
    name: 'tpcc',
    transactions,
    terminals,
    // worker threads and shards split the terminals by whole warehouses
    terminalGroup: DEFAULTS.terminalsPerWarehouse,
    terminalGroupName: 'warehouses',
    defaultConnections: defaultConnections(terminals, pace.paced, warehouses),
    statements: STATEMENTS,
    // every type numbers its statements by the workload's numbering
    statementNames: transactions.map(() => STATEMENT_NAMES),
    paced: pace.paced,
    shared,
    ...sharedHooks(shared),
    deliveryQueue: queue,
    // Paced: the first transactions are spread over one mean cycle (see ramp-up.js).
    firstWaitUs: pace.paced ? firstWait({ mix, standard, scale: pace.scale }) : undefined,
    choose (tctx) {
      return standard ? tctx.state.deck.draw(tctx.random) : weightedDraw(tctx.random, cumulative)
    },
    createTerminalState (terminalId, random) {
      return terminalState(terminalId, random, pace.paced)
    },
    onTransactionEnd (tctx, info) {
      if (info.status === 'ok' && info.type === 'new-order') newOrderCommits.add(info.endEpochUs / 1e6)
    },
    /**
     * The progress line's TPC-C part: New-Order commits per minute over the last minute.
     * @param {number} sinceStartS seconds since the run started (the window is shorter before a minute)
     */
    progressText (sinceStartS) {
      const nowS = (performance.timeOrigin + performance.now()) / 1000
      const r = newOrderCommits.perMinute(nowS, nowS - sinceStartS)
      return r.windowS > 0 ? `tpmC ${r.perMinute.toFixed(1)} (last ${r.windowS} s)` : null
    },
    async prepare (conn, runOptions) {
      db = conn
      warmupS = runOptions?.warmupS ?? 0
      rampUp = Boolean(runOptions?.rampUp)
      startSumNextOId = await sumNextOId(conn, warehouses)
    },
    // a worker thread's own deferred deliveries, once drained (afterRun merges them)
    partSections: queue ? () => drainedPart(queue) : undefined,
    /** The measured window opens: after a warm-up, read the districts' order counters again. */
    measuringStarted () {
      if (warmupS > 0 && db) startRead = sumNextOId(db, warehouses)
    },
    async afterRun (conn, runInfo) {
      if (startRead) startSumNextOId = await startRead.catch(() => null)
      const endSum = await sumNextOId(conn, warehouses)
      const deferred = queue ? await deferredFigures(queue, runInfo) : null
      return tpccResults({
        deferred,
        runInfo,
        warehouses,
        paced: pace.paced,
        waitScale: pace.scale,
        mix,
        standardMix: standard,
        constants: { cLoad: meta.cLoad, ...shared.c },
        newOrdersByDistrict: startSumNextOId === null ? null : endSum - startSumNextOId,
        warmupS,
        rampUp
      })
    }
  }
}

/** @param {DeliveryQueue} queue */
async function drainedPart (queue) {
  await queue.drain(DEFAULTS.deliveryDrainMs)
  return { delivery: queue.partFigures() }
}

/**
 * The deferred Delivery figures: this queue's, or with worker threads (-j) theirs merged (this
 * one had nothing to deliver).
 * @param {DeliveryQueue} queue @param {any} runInfo
 */
async function deferredFigures (queue, runInfo) {
  await queue.drain(DEFAULTS.deliveryDrainMs)
  const parts = runInfo.partSections?.map((p) => p?.delivery).filter(Boolean)
  return parts?.length ? deliverySummary(parts) : queue.summary()
}

async function sumNextOId (db, warehouses) {
  const r = await db.query(`SELECT sum(d_next_o_id) FROM district WHERE d_w_id <= ${Number(warehouses)}`)
  return Number(r.rows[0][0])
}
