// `pgload run tpcc`: the Workload the engine drives (docs/architecture.md): 10 terminals per
// warehouse bound to (W_ID, D_ID), the deck, pacing, the five transactions and the tpcc results.

import { PgloadError } from '../../lib/errors.js'
import { Prng } from '../../lib/random/prng.js'
import { DEFAULTS, TYPES } from './defaults.js'
import { Deck, STANDARD_DECK, weightedDraw } from './deck.js'
import { parseMix } from './mix.js'
import { pacing } from './pacing.js'
import { checkServerVersion, readMeta } from './meta.js'
import { runConstants } from './nurand.js'
import * as newOrder from './transactions/new-order.js'
import * as payment from './transactions/payment.js'
import * as orderStatus from './transactions/order-status.js'
import * as delivery from './transactions/delivery.js'
import * as stockLevel from './transactions/stock-level.js'
import { BEGIN, BEGIN_READ_ONLY, COMMIT, ROLLBACK } from './transactions/common.js'
import { DeliveryQueue } from './deferred-queue.js'
import { openConnection } from '../../lib/db/connection.js'

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
  if (opts.warehouses !== undefined && (!Number.isInteger(opts.warehouses) || opts.warehouses < 1)) {
    throw new PgloadError(`--warehouses must be an integer >= 1, got ${opts.warehouses}`, { code: 'BAD_OPTION' })
  }
  if (opts.delivery !== undefined && opts.delivery !== 'deferred' && opts.delivery !== 'inline') {
    throw new PgloadError(`--delivery must be deferred or inline, got ${JSON.stringify(opts.delivery)}`, { code: 'BAD_OPTION' })
  }
  const { mix, standard } = parseMix(opts.mix, { allowNonstandard: Boolean(opts.allowNonstandardMix) })
  return { mix, standard, pace: pacing(opts) }
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
  const warehouses = opts.warehouses ?? meta.warehouses
  if (warehouses > meta.warehouses) {
    throw new PgloadError(`--warehouses ${warehouses} is more than the ${meta.warehouses} loaded: run with --warehouses ${meta.warehouses} or fewer, or reload with \`pgload init tpcc --warehouses ${warehouses} --force\``, { code: 'BAD_OPTION' })
  }
  // The run-time NURand constants, shared by all terminals, from the run's seed.
  const constRandom = Prng.fromSeed(BigInt(opts.randomSeed ?? Date.now()) ^ 0x7c3a9e5bn)
  const shared = { warehouses, c: runConstants(constRandom, meta.cLoad) }
  const terminals = warehouses * DEFAULTS.terminalsPerWarehouse
  const cumulative = new Float64Array(TYPES.length)
  TYPES.reduce((s, t, i) => { cumulative[i] = s + mix[t]; return cumulative[i] }, 0)
  let startSumNextOId = null
  let warmupS = 0 // NOPM is read before the warm-up: its window includes it

  // Deferring needs connections of its own: without a way to open them, deliver inline.
  const canDefer = Boolean(ctx.openConnection || ctx.target)
  const deliveryMode = opts.delivery ?? (pace.paced && canDefer ? 'deferred' : 'inline')
  let queue = null
  const runners = { ...RUNNERS }
  if (deliveryMode === 'deferred') {
    const open = ctx.openConnection
      ? () => ctx.openConnection({ applicationName: 'pgload tpcc delivery' })
      : () => openConnection(ctx.target, { applicationName: 'pgload tpcc delivery' })
    queue = new DeliveryQueue({
      open,
      workers: Math.min(DEFAULTS.deliveryWorkersMax, Math.ceil(warehouses / DEFAULTS.deliveryWarehousesPerWorker)),
      nowUs: () => performance.now() * 1000,
      log: ctx.log
    })
    runners.delivery = async (tctx) => {
      const inp = delivery.deliveryInput(tctx.random, tctx.state)
      queue.enqueue(inp.w, inp.carrier)
      return undefined
    }
  }

  const transactions = TYPES.map(name => {
    const runner = runners[name]
    return {
      name,
      weight: mix[name],
      ...pace.byType[name],
      run: (tctx) => runner(tctx, shared)
    }
  })

  return {
    name: 'tpcc',
    transactions,
    terminals,
    defaultConnections: defaultConnections(terminals, pace.paced, warehouses),
    statements: STATEMENTS,
    paced: pace.paced,
    shared,
    deliveryQueue: queue,
    choose (tctx) {
      return standard ? tctx.state.deck.draw(tctx.random) : weightedDraw(tctx.random, cumulative)
    },
    createTerminalState (terminalId) {
      const home = terminalHome(terminalId)
      return { w: home.w, d: home.d, deck: new Deck() }
    },
    async prepare (db, runOptions) {
      warmupS = runOptions?.warmupS ?? 0
      startSumNextOId = await sumNextOId(db, warehouses)
    },
    async afterRun (db, runInfo) {
      const endSum = await sumNextOId(db, warehouses)
      let deferred = null
      if (queue) {
        await queue.drain(DEFAULTS.deliveryDrainMs)
        deferred = queue.summary()
      }
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
        nopmWindowS: runInfo.durationS + warmupS
      })
    }
  }
}

async function sumNextOId (db, warehouses) {
  const r = await db.query(`SELECT sum(d_next_o_id) FROM district WHERE d_w_id <= ${Number(warehouses)}`)
  return Number(r.rows[0][0])
}

const round2 = x => Math.round(x * 100) / 100

/**
 * The `tpcc` object of the results document.
 * @param {{ runInfo: { durationS: number, transactions: Record<string, any> }, warehouses: number, paced: boolean,
 *   waitScale: number, mix: Record<string, number>, standardMix: boolean, constants: object, newOrdersByDistrict: number|null,
 *   nopmWindowS?: number, deferred?: object|null }} a deferred: DeliveryQueue.summary() when Delivery was
 *   deferred; nopmWindowS: seconds between the two reads of sum(d_next_o_id) (duration + warm-up)
 */
export function tpccResults ({ runInfo, warehouses, paced, waitScale, mix, standardMix, constants, newOrdersByDistrict, nopmWindowS, deferred = null }) {
  const minutes = runInfo.durationS / 60
  const nopmMinutes = (nopmWindowS ?? runInfo.durationS) / 60
  const tx = runInfo.transactions ?? {}
  const no = tx['new-order'] ?? { count: 0, rollbacks: 0 }
  const committedNewOrders = no.count - (no.rollbacks ?? 0)
  const total = TYPES.reduce((s, t) => s + (tx[t]?.count ?? 0), 0)
  const tpmC = minutes > 0 ? committedNewOrders / minutes : 0
  const perType = {}
  let compliant = true
  for (const t of TYPES) {
    const x = tx[t] ?? { count: 0 }
    const p90Ms = x.latencyMs?.p90 ?? null
    const limitS = DEFAULTS.responseLimitS[t]
    const pass = x.count === 0 ? null : p90Ms !== null && p90Ms < limitS * 1000
    if (pass === false) compliant = false
    perType[t] = {
      count: x.count,
      mixPct: total > 0 ? round2(100 * x.count / total) : 0,
      targetMixPct: standardMix ? round2(100 * DEFAULTS.deck[t] / STANDARD_DECK.length) : mix[t],
      rollbacks: x.rollbacks ?? 0,
      p90Ms,
      limitS,
      compliant: pass
    }
  }
  // Deferred Delivery: the terminal's response is the queuing; 90 % must complete within 80 s.
  if (deferred?.pass === false) compliant = false
  return {
    tpmC: round2(tpmC),
    // HammerDB's NOPM: the increase of sum(d_next_o_id) per minute, over the run including any warm-up.
    nopm: newOrdersByDistrict === null || nopmMinutes <= 0 ? null : round2(newOrdersByDistrict / nopmMinutes),
    tpmTotal: minutes > 0 ? round2(total / minutes) : 0,
    efficiency: round2(100 * tpmC / (DEFAULTS.maxTpmCPerWarehouse * warehouses)), // percent of 12.86 tpmC per warehouse
    warehouses,
    terminals: warehouses * DEFAULTS.terminalsPerWarehouse,
    paced,
    pacing: paced ? 'spec-paced' : 'unpaced',
    waitScale,
    standardMix,
    newOrderRollbackPct: no.count > 0 ? round2(100 * (no.rollbacks ?? 0) / no.count) : null,
    // Deferred: the delivery type's response time is the queuing; queueToCompletionMs is the work.
    delivery: deferred ? { mode: 'deferred', ...deferred } : { mode: 'inline' },
    constants,
    mix: Object.fromEntries(TYPES.map(t => [t, perType[t].mixPct])),
    // Clause 5.2.5.3: 90 % of each type under 5 s (Stock-Level 20 s); pass is null for a type that did not run.
    responseTime: Object.fromEntries(TYPES.map(t => [t, { p90Ms: perType[t].p90Ms, limitMs: perType[t].limitS * 1000, pass: perType[t].compliant }])),
    responseTimePass: compliant,
    byType: Object.fromEntries(TYPES.map(t => [t, { count: perType[t].count, mixPct: perType[t].mixPct, targetMixPct: perType[t].targetMixPct, rollbacks: perType[t].rollbacks }]))
  }
}
