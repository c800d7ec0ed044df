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
