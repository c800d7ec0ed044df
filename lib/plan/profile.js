// Load profiles of a run plan: --stages (arrival rates), --clients-stages (active terminals),
// --max-queue and --ramp, checked against the rest of the plan before anything connects, and
// turned into the engine's stage profile (lib/plan/engine-settings.js).

import { PgloadError } from '../errors.js'
import { parseDurationS, parseInteger } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { parseRateStages, parseClientStages } from '../options/stages.js'
import { shownValue } from '../options/shown.js'
import { DEFAULTS } from './defaults.js'

const bad = (message) => new PgloadError(message, { code: 'BAD_OPTION' })

/** Arrivals that may wait for a free terminal, for the whole run, when --max-queue is not given. */

/**
 * The stages, as given, and the run's length from them: the stages' sum, which a --duration the
 * caller gave must equal; -t is refused. Before the other checks: the run's length depends on it.
 * @param {(key: string) => any} opt the plan's precedence
 * @param {{ durationS?: number, transactionsPerClient?: number }} length from runLength
 * @param {unknown} givenDuration the --duration the caller (input or config) gave, not a workload's default
 * @returns {{ stages?: import('../options/stages.js').StageSpec[], clientsStages?: import('../options/stages.js').StageSpec[], durationS?: number }}
 */
export function profileLength (opt, length, givenDuration) {
  const rate = opt('stages') === undefined ? undefined : parseRateStages(opt('stages'))
  const clients = opt('clientsStages') === undefined ? undefined : parseClientStages(opt('clientsStages'))
  if (rate && clients) throw bad('--stages and --clients-stages cannot be combined: give arrival rates (open model) or clients (closed model)')
  const stages = rate ?? clients
  if (!stages) return {}
  const flag = rate ? '--stages' : '--clients-stages'
  if (length.transactionsPerClient !== undefined) throw bad(`${flag} sets the run's duration: it cannot be combined with --transactions`)
  const sumS = Math.round(stages.reduce((s, st) => s + st.durationS, 0) * 1e6) / 1e6
  if (givenDuration !== undefined && givenDuration !== null && Math.abs(length.durationS - sumS) > 1e-6) {
    throw bad(`--duration ${shownValue(givenDuration)} does not agree with ${flag}, which last ${sumS} s: leave --duration out`)
  }
  return { ...(rate ? { stages: rate } : { clientsStages: clients }), durationS: sumS }
}

/**
 * The profile's other rules, once rate, clients, warm-up and interval are known.
 * @param {(key: string) => any} opt
 * @param {{ stages?: any[], clientsStages?: any[], rate: number, warmupS: number, intervalS: number, thinkTime?: string }} plan
 * @param {boolean} clientsGiven --clients was given
 * @returns {{ maxQueue?: number, rampS?: number, clients?: number }}
 */
export function profileChecks (opt, plan, clientsGiven) {
  const out = {}
  const stages = plan.stages ?? plan.clientsStages
  if (stages) {
    const flag = plan.stages ? '--stages' : '--clients-stages'
    stages.forEach((s, i) => {
      const n = s.durationS / plan.intervalS
      if (Math.abs(n - Math.round(n)) > 1e-9) throw bad(`${flag}: stage ${i + 1} lasts ${s.durationS} s, not a whole number of --interval (${plan.intervalS} s): stage boundaries fall on interval edges`)
    })
  }
  if (plan.stages) {
    if (plan.thinkTime !== undefined) throw bad('--think-time and --stages cannot be combined: the stages already set when each transaction starts')
    if (plan.warmupS > 0 && !(plan.rate > 0)) throw bad('--warmup with --stages needs --rate: the rate the warm-up runs at (the first stage ramps from it)')
    out.maxQueue = opt('maxQueue') === undefined ? DEFAULTS.maxQueue : parseInteger(opt('maxQueue'), '--max-queue', rangeOf('--max-queue'))
  } else if (opt('maxQueue') !== undefined) {
    throw bad('--max-queue goes with --stages: it bounds the arrivals waiting for a free terminal')
  }
  if (plan.clientsStages) {
    if (plan.rate > 0) throw bad('--clients-stages and --rate cannot be combined: --clients-stages is the closed model (use --stages for arrival rates)')
    if (clientsGiven) throw bad('--clients-stages and --clients cannot be combined: the run has as many terminals as the largest stage')
    const most = Math.max(...plan.clientsStages.map((s) => s.target))
    if (most < 1) throw bad('--clients-stages needs a stage with at least one client')
    out.clients = most
  }
  if (opt('rampS') !== undefined) {
    out.rampS = parseDurationS(opt('rampS'), '--ramp', rangeOf('--ramp'))
    if (!(out.rampS > 0)) throw bad(`--ramp must be positive, got ${shownValue(opt('rampS'))}`)
    if (plan.rate > 0 || stages) throw bad(`--ramp starts closed-model terminals evenly: it cannot be combined with ${plan.rate > 0 ? '--rate' : plan.stages ? '--stages' : '--clients-stages'}`)
  }
  return out
}

/**
 * The engine's profile of a plan: the shape lib/metrics/stage-windows.js defines, made here.
 * @typedef {import('../metrics/stage-windows.js').StageProfile} StageProfile
 */

/**
 * @param {{ stages?: import('../options/stages.js').StageSpec[], clientsStages?: import('../options/stages.js').StageSpec[], rate?: number, maxQueue?: number }} plan
 * @returns {StageProfile|null}
 */
export function stageProfile (plan) {
  const list = plan.stages ?? plan.clientsStages
  if (!list) return null
  const kind = plan.stages ? 'rate' : 'clients'
  const out = []
  let atUs = 0
  let previous = kind === 'rate' ? (plan.rate ?? 0) : 0
  for (const s of list) {
    const endUs = atUs + Math.round(s.durationS * 1e6)
    out.push(Object.freeze({ startUs: atUs, endUs, from: previous, to: s.target, ramp: s.ramp }))
    previous = s.target
    atUs = endUs
  }
  const first = out[0]
  const before = kind === 'rate' ? first.from : (first.ramp ? first.from : first.to)
  return Object.freeze({ kind, stages: Object.freeze(out), before, maxQueue: kind === 'rate' ? plan.maxQueue ?? DEFAULTS.maxQueue : 0 })
}
