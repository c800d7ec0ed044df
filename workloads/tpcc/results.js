// The `tpcc` object of the results document: tpmC and NOPM over the measured window, efficiency,
// rollbacks, the measured mix against clause 5.2.3's minimums and the response-time checks.

import { DEFAULTS, TYPES } from './defaults.js'
import { STANDARD_DECK } from './deck.js'
import { meanCycleUs, rampUpS } from './ramp-up.js'

const round2 = x => Math.round(x * 100) / 100

/**
 * @typedef {object} TpccResultsInput
 * @property {{ durationS: number, transactions: Record<string, any> }} runInfo durationS: the measured window
 * @property {number} warehouses
 * @property {boolean} paced
 * @property {number} waitScale
 * @property {Record<string, number>} mix
 * @property {boolean} standardMix
 * @property {object} constants
 * @property {number|null} newOrdersByDistrict growth of sum(d_next_o_id) over the measured window
 * @property {number} [warmupS] seconds run before the measured window
 * @property {boolean} [rampUp] whether that was the default ramp-up of a paced run
 * @property {object|null} [deferred] DeliveryQueue.summary() when Delivery was deferred
 */

/**
 * @param {TpccResultsInput} a
 */
export function tpccResults ({ runInfo, warehouses, paced, waitScale, mix, standardMix, constants, newOrdersByDistrict, warmupS = 0, rampUp = false, deferred = null }) {
  const minutes = runInfo.durationS / 60
  const tx = runInfo.transactions ?? {}
  const no = tx['new-order'] ?? { count: 0, rollbacks: 0 }
  const committedNewOrders = no.count - (no.rollbacks ?? 0)
  const total = TYPES.reduce((s, t) => s + (tx[t]?.count ?? 0), 0)
  const tpmC = minutes > 0 ? committedNewOrders / minutes : 0
  const terminals = warehouses * DEFAULTS.terminalsPerWarehouse
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
    // tpmC: the New-Orders the driver saw commit in the measured window, per minute of it.
    tpmC: round2(tpmC),
    // NOPM (HammerDB's count): the growth of sum(d_next_o_id), read when the measured window
    // opened and after it closed, per minute of the same window.
    nopm: newOrdersByDistrict === null || minutes <= 0 ? null : round2(newOrdersByDistrict / minutes),
    tpmTotal: minutes > 0 ? round2(total / minutes) : 0,
    efficiency: round2(100 * tpmC / (DEFAULTS.maxTpmCPerWarehouse * warehouses)), // percent of 12.86 tpmC per warehouse
    // The most these waits and this mix allow (response times aside): the deck deals 43.5 % New-Orders, not 45 %.
    efficiencyCeiling: paced ? round2(100 * maxTpmC(mix, standardMix, waitScale, terminals) / (DEFAULTS.maxTpmCPerWarehouse * warehouses)) : null,
    measuredS: runInfo.durationS,
    warmupS,
    rampUp: Boolean(rampUp && warmupS > 0),
    // paced: the ramp-up after which every terminal has finished its first transaction
    rampUpNeededS: paced ? rampUpS({ mix, standard: standardMix, scale: waitScale }) : null,
    warehouses,
    terminals,
    paced,
    pacing: paced ? 'spec-paced' : 'unpaced',
    waitScale,
    standardMix,
    newOrderRollbackPct: no.count > 0 ? round2(100 * (no.rollbacks ?? 0) / no.count) : null,
    rollbacks: rollbackFigures(tx, no),
    // Delivery deferred: the delivery type's response time is the queuing; queueToCompletionMs is the work.
    delivery: deferred ? { mode: 'deferred', ...deferred } : { mode: 'inline' },
    constants,
    mix: Object.fromEntries(TYPES.map(t => [t, perType[t].mixPct])),
    mixCheck: mixCheck(perType, tx, total, terminals, standardMix, mix),
    // Clause 5.2.5.3: 90 % of each type under 5 s (Stock-Level 20 s); pass is null for a type that did not run.
    responseTime: Object.fromEntries(TYPES.map(t => [t, { p90Ms: perType[t].p90Ms, limitMs: perType[t].limitS * 1000, pass: perType[t].compliant }])),
    responseTimePass: compliant,
    byType: Object.fromEntries(TYPES.map(t => [t, { count: perType[t].count, mixPct: perType[t].mixPct, targetMixPct: perType[t].targetMixPct, rollbacks: perType[t].rollbacks }]))
  }
}

// New-Orders per minute that paced terminals can reach: their New-Order share over the mean cycle.
function maxTpmC (mix, standard, scale, terminals) {
  const share = standard ? DEFAULTS.deck['new-order'] / STANDARD_DECK.length : mix['new-order'] / 100
  const cycleUs = meanCycleUs(mix, standard, scale)
  return cycleUs > 0 ? terminals * share * 60e6 / cycleUs : 0
}

// Rollbacks as a share of New-Orders (the spec's about 1 %) and of every transaction, labelled apart.
function rollbackFigures (tx, no) {
  let all = 0
  let rolledBack = 0
  for (const t of TYPES) {
    all += (tx[t]?.count ?? 0) + (tx[t]?.failed ?? 0)
    rolledBack += tx[t]?.rollbacks ?? 0
  }
  return {
    newOrders: no.rollbacks ?? 0,
    newOrderPct: no.count > 0 ? round2(100 * (no.rollbacks ?? 0) / no.count) : null,
    all: rolledBack,
    allPct: all > 0 ? round2(100 * rolledBack / all) : null
  }
}

/**
 * Clause 5.2.3: the measured share of each type against its minimum. A type short of it is
 * listed with whether chance explains it: with n transactions a share q varies by about
 * sqrt(q (1 - q) / n), and a short run deals few whole decks (the deck is exact per deck).
 */
function mixCheck (perType, tx, total, terminals, standard, mix) {
  const decks = Math.floor(total / STANDARD_DECK.length)
  const below = []
  for (const [t, minimumPct] of Object.entries(DEFAULTS.minimumMix)) {
    const configured = standard ? 100 * DEFAULTS.deck[t] / STANDARD_DECK.length : mix[t]
    if (configured < minimumPct || total === 0) continue // --allow-nonstandard-mix asked for it
    const pct = perType[t].mixPct
    if (pct >= minimumPct) continue
    const q = configured / 100
    const chanceExplains = (q - pct / 100) <= 3 * Math.sqrt(q * (1 - q) / total)
    below.push({ type: t, pct, minimumPct, targetPct: round2(configured), failed: tx[t]?.failed ?? 0, chanceExplains })
  }
  return { transactions: total, decks: standard ? decks : null, decksPerTerminal: standard ? round2(decks / terminals) : null, below }
}
