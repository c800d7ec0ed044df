// A results document with stages in the format of docs/results-format.md ("stages[]"), made from
// a recorded run's intervals cut at the given bounds: what a run with --stages writes, until
// such a recording is among the fixtures.

import { readFileSync } from 'node:fs'
import { intervalsWithin, windowDocument } from '../../lib/compare/thresholds/window-view.js'

const RECORDED = new URL('../fixtures/results/recorded-tpcb.json', import.meta.url)

/**
 * @param {{ bounds?: number[], targets?: number[] }} [opts] stage bounds in seconds of the
 *   measured window (the last stage runs to the run's end), and each stage's target rate
 * @returns {any}
 */
export function stagedResults ({ bounds = [0, 3, 6], targets = [100, 200, 300] } = {}) {
  const doc = JSON.parse(readFileSync(RECORDED, 'utf8'))
  const end = doc.run.durationS
  doc.stages = bounds.map((startS, i) => {
    const endS = bounds[i + 1] ?? end
    const view = windowDocument(doc, intervalsWithin(doc, startS, endS), { fromS: startS, toS: endS })
    const lengthS = Math.round((endS - startS) * 1000) / 1000
    return {
      index: i,
      kind: 'rate',
      startS,
      endS,
      lengthS,
      target: { from: targets[i - 1] ?? 0, to: targets[i] },
      ramp: true,
      offeredTps: ((targets[i - 1] ?? 0) + targets[i]) / 2,
      achievedTps: view.summary.tps,
      dropped: 0,
      summary: { ...view.summary, lagMs: view.summary.lagMs ?? {}, dropped: 0, arrivals: 0 },
      transactions: view.transactions
    }
  })
  return doc
}

/** A capacity document: the staged run's stages as its steps, the last over a 60 ms p(99) limit. */
export function capacityResults () {
  const doc = stagedResults({ bounds: [0, 3, 6], targets: [100, 200, 400] })
  const limitMs = 60
  const steps = doc.stages.map((s, i) => {
    const p99 = s.summary.latencyMs.p99
    const held = p99 < limitMs
    return {
      index: i + 1,
      stage: i,
      phase: 'geometric',
      offeredRate: s.target.to,
      achievedRate: s.summary.tps,
      latencyMs: { p50: s.summary.latencyMs.p50, p90: s.summary.latencyMs.p90, p99, max: s.summary.latencyMs.max },
      thresholds: [{ expr: `p(99) < ${limitMs}ms`, pass: held, actual: p99, limit: limitMs, unit: 'ms', kind: 'time' }],
      held
    }
  })
  const best = steps.filter(s => s.held).at(-1)
  doc.capacity = { until: [`p(99) < ${limitMs}ms`], steps, answer: { limit: 'server', rate: best?.offeredRate ?? null, line: 'capacity' } }
  return doc
}

/**
 * A capacity search whose first rate failed: geometric steps down from 500/s until one held at
 * 32/s, then a bisection between it and 63/s, eight steps in all (under p(99) < 20ms), with
 * autoanalyze and checkpoints during it, as a search from a high start on a small server runs.
 */
export function capacityStepDownResults () {
  const doc = stagedResults({ bounds: [0, 1, 2, 3, 4, 5, 6, 7], targets: [500, 250, 125, 63, 32, 45, 38, 41] })
  const limitMs = 20
  // offered rate, achieved rate, p50, p99, phase
  const figures = [[500, 160, 40, 300], [250, 155, 30, 120], [125, 121, 12, 64], [63, 62.4, 6, 25],
    [32, 31.8, 3.1, 15.1], [45, 44.6, 5, 22], [38, 37.9, 4, 18], [41, 40.7, 4.6, 21]]
  const steps = figures.map(([offeredRate, achievedRate, p50, p99], i) => {
    const held = p99 < limitMs
    return {
      index: i + 1,
      stage: i,
      phase: i < 5 ? 'geometric' : 'bisection',
      offeredRate,
      achievedRate,
      failed: 0,
      dropped: i === 0 ? 1250 : 0,
      latencyMs: { p50, p90: (p50 + p99) / 2, p99, max: p99 * 2 },
      thresholds: [{ expr: `p(99) < ${limitMs}ms`, pass: held, actual: p99, limit: limitMs, unit: 'ms', kind: 'time' }],
      held,
      why: held ? [] : [`p(99) < ${limitMs}ms: p(99) ${p99} ms`]
    }
  })
  doc.capacity = {
    until: [`p(99) < ${limitMs}ms`],
    steps,
    answer: { limit: 'server', rate: 38, achievedRate: 37.9, heldStep: 7, nextRate: 41, nextStep: 8, line: 'capacity: 38 tps sustained with p(99) 18 ms (next step 41 tps: p(99) 21 ms)' }
  }
  doc.serverStats ??= {}
  doc.serverStats.events = [0.9, 2.05, 4.1].map((t) => ({ kind: 'autovacuum', t, label: 'autoanalyze pgbench_accounts', table: 'pgbench_accounts' }))
  return doc
}
