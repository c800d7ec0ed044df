// The compare verdict: per metric the median and interval of each side, the relative change B vs
// A with its interval, and better / worse / "~" (no significant difference beyond the noise band).

import { PgloadError } from '../errors.js'
import { medianInterval, mannWhitneyU, minimumPValue, relativeShift } from './statistics/distribution-free.js'
import { bootstrapRuns, bootstrapInterval } from './statistics/bootstrap.js'
import { measuredIntervals } from './statistics/interval-series.js'
import { runDifferences, settingsDifferences } from './comparable.js'
import { label } from './input.js'
import { steadyStateOf } from '../metrics/steady-state.js'
import { stagePlan, stageMetrics, stageViews } from './stages.js'
import { plural } from '../format/plural.js'
import { explainWaits } from './explain-waits.js'
import { planChanges } from './plan-changes.js'
import { scenarioPlan, scenarioDifferences, scenarioMetrics, scenarioViews } from './scenarios.js'
import { answerChanges } from './answers.js'

/** Defaults of `pgload compare` (one table, units in the names). */
export const COMPARE_DEFAULTS = {
  noise: 0.02, // relative half-width of the band inside which a change is never called (2 %)
  alpha: 0.05, // significance level of the U test / bootstrap interval
  confidence: 0.95, // intervals shown per side and for the change
  iterations: 1000, // bootstrap resamples (single-run mode)
  seed: 1, // bootstrap seed: the same inputs give the same verdict
  minExecutions: 4 // single-run mode: a type run fewer times on a side gets no interval (an analytic query run once)
}

const LATENCY_STATS = ['p50', 'p95', 'p99', 'max']

const typesOf = (d) => Object.keys(d.transactions ?? {})

/** The TPC-C New-Order transaction type of a run, if any. */
function newOrderType (d) {
  return typesOf(d).find(t => /^new[-_ ]?order$/i.test(t)) ?? null
}

function metricList (docs, warnings) {
  const list = [{ id: 'tps', metric: 'tps', txn: null, unit: 'tps', better: 'higher', get: d => d.summary.tps }]
  if (docs.every(d => typeof d.tpcc?.tpmC === 'number')) {
    list.push({ id: 'tpmC', metric: 'tpmC', txn: null, unit: 'tpmC', better: 'higher', get: d => d.tpcc.tpmC })
  }
  // Lower is better; runs that never settled have no value (their count is noted in the row).
  list.push({ id: 'steady-state', metric: 'steady-state', txn: null, unit: 's', better: 'lower', get: d => steadyStateOf(d).timeS })
  const sets = docs.map(d => new Set(typesOf(d)))
  const all = [...new Set(docs.flatMap(typesOf))]
  const common = all.filter(t => sets.every(s => s.has(t)))
  const missing = all.filter(t => !common.includes(t))
  if (missing.length) warnings.push(`transaction types not in every run are left out: ${missing.join(', ')}`)
  if (common.length > 1) {
    for (const stat of LATENCY_STATS) {
      list.push({ id: `all:${stat}`, metric: stat, txn: null, unit: 'ms', better: 'lower', get: d => d.summary.latencyMs?.[stat] })
    }
  }
  for (const t of common) {
    for (const stat of LATENCY_STATS) {
      list.push({ id: `${t}:${stat}`, metric: stat, txn: t, unit: 'ms', better: 'lower', get: d => d.transactions[t].latencyMs?.[stat] })
    }
  }
  return list
}

function decide (row, noise, alpha) {
  const c = row.change
  if (!c || row.p === null) return { significant: false, beyondNoise: false, verdict: '~' }
  const significant = row.p < alpha
  const up = c.lo > noise
  const down = c.hi < -noise
  const beyondNoise = up || down
  if (!significant || !beyondNoise) return { significant, beyondNoise, verdict: '~' }
  const better = (row.better === 'higher') === up
  return { significant, beyondNoise, verdict: better ? 'better' : 'worse' }
}

const num = (v) => typeof v === 'number' && Number.isFinite(v)

/**
 * Compare runs of side A (baseline) with runs of side B (candidate).
 * @param {object[]} as results documents of A
 * @param {object[]} bs results documents of B
 * @param {{ noise?: number, alpha?: number, confidence?: number, iterations?: number, seed?: number,
 *   blockLength?: number, force?: boolean }} [options]
 * @returns {object} the verdict (see docs/compare-and-check.md, "JSON output")
 */
export function compareRuns (as, bs, options = {}) {
  const o = { ...COMPARE_DEFAULTS }
  for (const [k, v] of Object.entries(options)) if (v !== undefined) o[k] = v
  if (as.length === 0 || bs.length === 0) throw new PgloadError('compare needs at least one results file on each side (A -- B)', { code: 'USAGE' })
  const scenarios = scenarioPlan(as, bs)
  if (scenarios.mixed && !o.force) throw new PgloadError(`runs are not comparable: ${scenarios.mixed}`, { code: 'NOT_COMPARABLE', hint: 'use --force to compare their totals anyway' })
  const diffs = runDifferences(as, bs, { scenarios: !scenarios.mixed && scenarios.names.length + scenarios.notes.length > 0 })
  for (const name of scenarios.names) diffs.blocking.push(...scenarioDifferences(as, bs, name))
  if (diffs.blocking.length && !o.force) {
    const what = diffs.blocking.map(d => `${d.name} ${d.a.join('/')} vs ${d.b.join('/')}`).join('; ')
    const scripts = diffs.blocking.some(d => d.name === 'transaction types')
      ? '; script transactions are named by the path given to pgload run: run both sides from the same relative path'
      : ''
    throw new PgloadError(`runs are not comparable: ${what}`, { code: 'NOT_COMPARABLE', hint: `use --force to compare them anyway${scripts}` })
  }
  const warnings = []
  if (diffs.blocking.length) warnings.push('compared with --force although the runs differ in ' + diffs.blocking.map(d => d.name).join(', '))
  // a scenario run's types are compared in their scenarios' rows, not twice
  const metrics = metricList([...as, ...bs], warnings).filter((m) => m.txn === null || !scenarios.names.length)
  const single = as.length === 1 && bs.length === 1
  const rows = single ? singleRunRows(as[0], bs[0], metrics, o, warnings) : multiRunRows(as, bs, metrics, o, warnings)
  const stages = stagePlan([...as, ...bs])
  if (stages.note) warnings.push(stages.note)
  for (let n = 1; n <= stages.count; n++) rows.push(...stageRows(as, bs, n, single, o, warnings))
  warnings.push(...scenarios.notes)
  for (const name of scenarios.names) rows.push(...scenarioRows(as, bs, name, single, o, warnings))
  for (const row of rows) Object.assign(row, decide(row, o.noise, o.alpha))
  return {
    mode: single ? 'single-run' : 'runs',
    method: single
      ? `single-run estimate: circular block bootstrap over per-interval histograms (${o.iterations} resamples, seed ${o.seed})`
      : 'one run = one sample: median per side, Mann-Whitney U test, Hodges-Lehmann change interval',
    a: { files: as.map(label), runs: as.length },
    b: { files: bs.map(label), runs: bs.length },
    noise: o.noise,
    alpha: o.alpha,
    confidence: o.confidence,
    forced: diffs.blocking.length > 0,
    stages: stages.count,
    scenarios: scenarios.names,
    differences: { blocking: diffs.blocking, informative: diffs.informative, settings: settingsDifferences(as, bs) },
    warnings,
    rows,
    regressions: rows.filter(r => r.verdict === 'worse').length,
    improvements: rows.filter(r => r.verdict === 'better').length,
    // CH-benCHmark: queries whose checked answer differs, reported apart from every timing
    answers: answerChanges(as, bs),
    // why a type got slower: the server's wait events that grew (null: a side has no wait samples)
    explanation: explainWaits(as, bs, rows),
    // statements whose replayed plan (--explain-slowest) changed shape from A to B
    plans: planChanges(as, bs)
  }
}

function baseRow (m) {
  return { id: m.id, metric: m.metric, txn: m.txn, ...(m.stage ? { stage: m.stage } : {}), ...(m.scenario ? { scenario: m.scenario } : {}), unit: m.unit, better: m.better }
}

/**
 * Stage n's rows: its tps and latency figures, with the same method as the whole runs (the
 * bootstrap over the stage's own intervals with one run per side); its warnings said once.
 */
function stageRows (as, bs, n, single, o, warnings) {
  const quiet = []
  const va = stageViews(as, n)
  const vb = stageViews(bs, n)
  const rows = single ? singleRunRows(va[0], vb[0], stageMetrics(n), o, quiet) : multiRunRows(va, vb, stageMetrics(n), o, quiet)
  const few = quiet.find(w => w.startsWith('too few intervals'))
  if (few) warnings.push(`stage ${n}: ${few}`)
  return rows
}

/**
 * A scenario's rows: its tps and each type's latency, from each run's scenario as a run of its
 * own, with the same method as the whole runs; its warnings said once, naming it.
 */
function scenarioRows (as, bs, name, single, o, warnings) {
  const quiet = []
  const va = scenarioViews(as, name)
  const vb = scenarioViews(bs, name)
  const types = Object.keys(va[0].transactions ?? {}).filter((t) => [...va, ...vb].every((d) => d.transactions?.[t]))
  const metrics = scenarioMetrics(name, types)
  const rows = single ? singleRunRows(va[0], vb[0], metrics, o, quiet) : multiRunRows(va, vb, metrics, o, quiet)
  const few = quiet.find(w => w.startsWith('too few intervals'))
  if (few) warnings.push(`scenario ${name}: ${few}`)
  return rows
}

/**
 * Why runs this many per side can never reach significance (the Mann-Whitney test's smallest
 * possible p is not below alpha), or null when they can: the verdict's warning, and what ab says
 * before it runs anything. One run per side is the bootstrap's estimate, not this test.
 * @param {number} n runs of A
 * @param {number} m runs of B
 * @param {number} [alpha]
 * @returns {string|null}
 */
export function significanceOutOfReach (n, m, alpha = COMPARE_DEFAULTS.alpha) {
  if (n === 1 && m === 1) return null
  const minP = minimumPValue(n, m)
  if (minP < alpha) return null
  return `too few runs to ever reach significance: with ${plural(n, 'run')} of A and ${plural(m, 'run')} of B the smallest possible p is ${minP.toFixed(3)} >= ${alpha}; use at least 4 runs per side (5 or more is better)`
}

function multiRunRows (as, bs, metrics, o, warnings) {
  const outOfReach = significanceOutOfReach(as.length, bs.length, o.alpha)
  if (outOfReach) warnings.push(outOfReach)
  return metrics.map((m) => {
    const va = as.map(m.get).filter(num)
    const vb = bs.map(m.get).filter(num)
    const row = baseRow(m)
    const unsettled = m.id === 'steady-state' ? as.length - va.length + bs.length - vb.length : 0
    if (unsettled) row.note = `${unsettled} run${unsettled === 1 ? '' : 's'} never steady, left out`
    if (va.length === 0 || vb.length === 0) {
      return { ...row, a: null, b: null, change: null, p: null, note: unsettled ? `${row.note}: no data` : 'no data' }
    }
    const ia = medianInterval(va, o.confidence)
    const ib = medianInterval(vb, o.confidence)
    const test = mannWhitneyU(va, vb)
    const shift = relativeShift(va, vb, o.confidence)
    // A time of 0 s (steady at once) has no relative change: the p-value alone is shown.
    if (!shift && m.id === 'steady-state' && vb.some(v => v !== 0)) row.note = [row.note, 'A median 0 s: no relative change'].filter(Boolean).join('; ')
    return {
      ...row,
      a: { median: ia.median, lo: ia.lo, hi: ia.hi, n: ia.n, confidence: ia.confidence },
      b: { median: ib.median, lo: ib.lo, hi: ib.hi, n: ib.n, confidence: ib.confidence },
      change: shift && { estimate: shift.estimate, lo: shift.lo, hi: shift.hi, confidence: shift.confidence },
      p: test.p
    }
  })
}

function singleRunRows (a, b, metrics, o, warnings) {
  warnings.push('single-run estimate: resampling seconds within one run per side cannot see run-to-run variation; give several runs per side for a verdict across runs')
  const ta = measuredIntervals(a).length
  const tb = measuredIntervals(b).length
  const usable = ta >= 4 && tb >= 4
  if (!usable) warnings.push(`too few intervals for the bootstrap (${ta} and ${tb}, need 4 or more each): no intervals, no verdicts`)
  const specs = []
  for (const m of metrics) {
    if (m.metric === 'tps') specs.push({ id: m.id, kind: 'rate', txn: null })
    else if (m.metric === 'tpmC') {
      const na = newOrderType(a)
      const nb = newOrderType(b)
      const rate = (d, t) => (d.transactions[t]?.tps ?? 0)
      if (na && nb && rate(a, na) > 0 && rate(b, nb) > 0 && na === nb) {
        specs.push({ id: m.id, kind: 'rate', txn: na, scale: [a.tpcc.tpmC / rate(a, na), b.tpcc.tpmC / rate(b, nb)] })
      }
    } else if (m.metric !== 'max' && m.metric !== 'steady-state') specs.push({ id: m.id, kind: 'latency', txn: m.txn, stat: m.metric })
  }
  const boot = usable ? bootstrapRuns(a, b, specs, { iterations: o.iterations, seed: o.seed, blockLength: o.blockLength }) : null
  if (boot && boot.blockLength[0] <= 1) warnings.push('runs shorter than 4 intervals per block: the bootstrap treats seconds as independent')
  return metrics.map((m) => {
    const row = baseRow(m)
    const va = m.get(a)
    const vb = m.get(b)
    if (m.id === 'steady-state') return singleRunSteadyState(row, a, b)
    if (!num(va) || !num(vb)) return { ...row, a: null, b: null, change: null, p: null, note: 'no data' }
    const few = m.txn ? fewExecutions(a, b, m.txn, o.minExecutions) : null
    if (few) return { ...row, a: { median: va, lo: null, hi: null, n: 1, confidence: 0 }, b: { median: vb, lo: null, hi: null, n: 1, confidence: 0 }, change: null, p: null, note: few }
    const s = boot?.samples.get(m.id)
    const ci = s ? bootstrapInterval(s.a, s.b, o.confidence) : null
    const estimate = va === 0 ? null : vb / va - 1
    return {
      ...row,
      // A resample never exceeds the run's own maximum: the bootstrap cannot bound a max.
      ...(m.metric === 'max' ? { note: 'no interval for max from one run' } : {}),
      a: { median: va, lo: ci?.a[0] ?? null, hi: ci?.a[1] ?? null, n: 1, confidence: ci ? o.confidence : 0 },
      b: { median: vb, lo: ci?.b[0] ?? null, hi: ci?.b[1] ?? null, n: 1, confidence: ci ? o.confidence : 0 },
      change: ci && estimate !== null ? { estimate, lo: ci.change[0], hi: ci.change[1], confidence: o.confidence } : null,
      p: ci ? ci.p : null
    }
  })
}

/**
 * Why a type's latency from one run per side has no interval: too few executions to resample
 * (resampling the seconds of a query that ran once always finds the same time), or null.
 */
function fewExecutions (a, b, txn, min) {
  const na = a.transactions[txn]?.count ?? 0
  const nb = b.transactions[txn]?.count ?? 0
  return na < min || nb < min ? `${na} and ${nb} executions: too few for an interval from one run (${min} each); give several runs per side` : null
}

/**
 * Time to steady state from one run per side: both values, no interval and so no verdict
 * (resampling a run's seconds scrambles the order a ramp-up is made of).
 */
function singleRunSteadyState (row, a, b) {
  const sa = steadyStateOf(a)
  const sb = steadyStateOf(b)
  const side = (s) => (num(s.timeS) ? { median: s.timeS, lo: null, hi: null, n: 1, confidence: 0 } : null)
  const never = [['A', sa], ['B', sb]].filter(([, s]) => !num(s.timeS)).map(([x, s]) => `${x}: ${s.reason}`)
  const note = never.length ? `no steady state (${never.join('; ')})` : 'no interval from one run per side: give several runs'
  const change = num(sa.timeS) && num(sb.timeS) && sa.timeS > 0 ? { estimate: sb.timeS / sa.timeS - 1, lo: null, hi: null, confidence: 0 } : null
  return { ...row, a: side(sa), b: side(sb), change, p: null, note }
}
