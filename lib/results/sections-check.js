// The workload's and command's sections held to the run they describe: TPC-C's tpmC to the
// committed New-Orders over the window and its efficiency to tpmC per warehouse; capacity's
// steps to their counts, windows and arrivals, and its answer to the steps it names.

import { FieldProblem, mismatch, describe } from './rules.js'
import { checkRate, isNumber } from './window-check.js'
import { DEFAULTS as TPCC } from '../../workloads/tpcc/defaults.js'
import { round3 } from '../format/round.js'

// tpmC, tpmTotal and efficiency are written with two decimals
const CENTS = 0.005 + 1e-9

/**
 * @param {any} tpcc results `tpcc`, checked by the field rules
 * @param {Record<string, any>} transactions the run's, per type
 * @param {number|null|undefined} durationS
 */
export function checkTpcc (tpcc, transactions, durationS) {
  const no = transactions['new-order']
  if (no && isNumber(no.count)) {
    checkRate('tpcc.tpmC', tpcc.tpmC, no.count - (no.rollbacks ?? 0), durationS, { what: 'committed New-Orders', from: 'transactions.new-order.count - transactions.new-order.rollbacks', per: 60, digits: 2 })
  }
  // TPC-C's own types (those of its mix): CH-benCHmark's queries run beside them
  const types = isObject(tpcc.mix) ? Object.keys(tpcc.mix) : Object.keys(transactions)
  const counts = types.map((t) => transactions[t]?.count ?? 0)
  if (counts.every(isNumber)) checkRate('tpcc.tpmTotal', tpcc.tpmTotal, counts.reduce((a, n) => a + n, 0), durationS, { from: 'the TPC-C types\' transactions.*.count', per: 60, digits: 2 })
  const { tpmC, efficiency, warehouses } = tpcc
  if (!isNumber(tpmC) || !isNumber(efficiency) || !(warehouses > 0)) return
  const perTpmC = 100 / (TPCC.maxTpmCPerWarehouse * warehouses)
  if (efficiency < (tpmC - CENTS) * perTpmC - CENTS || efficiency > (tpmC + CENTS) * perTpmC + CENTS) {
    throw mismatch('tpcc.efficiency', efficiency, `tpmC ${tpmC} over ${warehouses} warehouse${warehouses === 1 ? '' : 's'} (${TPCC.maxTpmCPerWarehouse} each) gives ${round3(tpmC * perTpmC)} %`)
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * @param {any} capacity results `capacity` (pgload capacity)
 * @param {any[]|undefined|null} stages the run's stages
 */
export function checkCapacity (capacity, stages) {
  if (!isObject(capacity)) throw new FieldProblem('capacity', `expected an object, got ${describe(capacity)}`)
  const steps = capacity.steps ?? []
  if (!Array.isArray(steps)) throw new FieldProblem('capacity.steps', `expected an array, got ${describe(steps)}`)
  steps.forEach((s, i) => {
    if (!isObject(s)) throw new FieldProblem(`capacity.steps[${i}]`, `expected an object, got ${describe(s)}`)
    checkStep(s, `capacity.steps[${i}]`, stages)
  })
  const a = capacity.answer
  if (!isObject(a)) return
  const named = (key, index) => {
    if (index === null || index === undefined) return
    const step = steps.find((s) => s.index === index)
    if (!step) throw new FieldProblem(`capacity.answer.${key}`, `names step ${describe(index)}, which is not in capacity.steps`)
    return step
  }
  const held = named('heldStep', a.heldStep)
  const next = named('nextStep', a.nextStep)
  if (held && a.rate !== held.offeredRate) throw mismatch('capacity.answer.rate', a.rate, `step ${held.index} offered ${held.offeredRate}`)
  if (held && a.achievedRate !== held.achievedRate) throw mismatch('capacity.answer.achievedRate', a.achievedRate, `step ${held.index} achieved ${held.achievedRate}`)
  if (next && a.nextRate !== next.offeredRate) throw mismatch('capacity.answer.nextRate', a.nextRate, `step ${next.index} offered ${next.offeredRate}`)
}

function checkStep (s, path, stages) {
  for (const key of ['transactions', 'failed', 'dropped']) {
    if (s[key] !== undefined && !(Number.isInteger(s[key]) && s[key] >= 0)) throw new FieldProblem(`${path}.${key}`, `expected an integer >= 0, got ${describe(s[key])}`)
  }
  if (isNumber(s.fromS) && isNumber(s.toS)) {
    if (s.toS < s.fromS) throw mismatch(`${path}.toS`, s.toS, `the step's measured part starts at ${s.fromS} s`)
    checkRate(`${path}.achievedRate`, s.achievedRate, s.transactions, round3(s.toS - s.fromS), { digits: 2, over: `${path}.fromS to toS` })
  }
  if (isNumber(s.behind) && isNumber(s.scheduled) && s.scheduled > 0 && isNumber(s.transactions)) {
    // behind is taken from the arrivals before they are rounded to the whole number written
    const lo = 1 - s.transactions / (s.scheduled - 0.5) - 0.00005
    const hi = 1 - s.transactions / (s.scheduled + 0.5) + 0.00005
    if (s.behind < lo - 1e-9 || s.behind > hi + 1e-9) {
      throw mismatch(`${path}.behind`, s.behind, `${s.transactions} transactions of ${s.scheduled} arrivals give ${round3(1 - s.transactions / s.scheduled)}`)
    }
  }
  if (Number.isInteger(s.stage) && Array.isArray(stages) && !stages[s.stage]) {
    throw new FieldProblem(`${path}.stage`, `names stage ${s.stage}, but the run has ${stages.length} stage${stages.length === 1 ? '' : 's'}`)
  }
  const l = s.latencyMs
  if (isObject(l) && [l.p50, l.p90, l.p99, l.max].every(isNumber) && !(l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.max)) {
    throw mismatch(`${path}.latencyMs.p99`, l.p99, `percentiles cannot decrease: p50 ${l.p50}, p90 ${l.p90}, p99 ${l.p99}, max ${l.max} ms`)
  }
}
