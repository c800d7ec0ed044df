// The overlay of several runs in one report (chart 7): throughput, p99 and the latency spectrum
// of each run, and each run's time to steady state.

import { spectrumRows } from './histogram-data.js'
import { intervalSeconds, lengthOf, timeIntervals, latencyRows } from './datasets.js'
import { mergeHistograms } from '../metrics/histogram.js'
import { round3 } from '../format/round.js'
import { judgedSteadyState } from './stage-data.js'
import { spectrumDomain, useLog } from './spec-scales.js'

/**
 * The rows of the runs that have a line to draw: two points or more at different `x`.
 * @param {{ run: string }[]} rows @param {string} x
 */
function linesDrawn (rows, x) {
  const xs = new Map()
  for (const r of rows) xs.set(r.run, (xs.get(r.run) ?? new Set()).add(r[x]))
  return rows.filter((r) => xs.get(r.run).size > 1)
}

/** The overlay of several runs (chart 7). */
export const COMPARE_CHART = {
  id: 'compare',
  title: 'Runs compared',
  /** @param {{ doc: any, label: string }[]} runs */
  data: (runs) => {
    const compareThroughput = []
    const compareLatency = []
    const compareSpectrum = []
    const compareSteady = []
    for (const { doc, label } of runs) {
      const steady = judgedSteadyState(doc)
      compareSteady.push(...(steady?.timeS == null ? [] : [{ run: label, t: steady.timeS, label: `${steady.timeS} s` }]))
      const dt = intervalSeconds(doc)
      for (const iv of timeIntervals(doc)) {
        const n = Object.values(iv.count ?? {}).reduce((a, v) => a + (typeof v === 'number' ? v : 0), 0)
        if (typeof iv.t === 'number') compareThroughput.push({ run: label, t: iv.t, tps: round3(n / lengthOf(iv, dt)) })
      }
      for (const r of latencyRows(doc)) if (r.stat === 'p99') compareLatency.push({ run: label, t: r.t, ms: r.ms })
      const all = mergeHistograms(Object.values(doc.transactions).map((t) => t.histogram).filter((h) => typeof h === 'string'))
      for (const r of spectrumRows(all)) compareSpectrum.push({ run: label, ...r })
    }
    // A line of one point draws nothing: such a run would stand in the legend with no line.
    const drawn = {
      compareThroughput: linesDrawn(compareThroughput, 't'),
      compareLatency: linesDrawn(compareLatency, 't'),
      compareSpectrum: linesDrawn(compareSpectrum, 'inv')
    }
    const inThroughput = new Set(drawn.compareThroughput.map((r) => r.run))
    const shown = new Set(Object.values(drawn).flatMap((rows) => rows.map((r) => r.run)))
    const notDrawn = runs.map((r) => r.label).filter((label) => !shown.has(label))
    return { ...drawn, compareSteady: compareSteady.filter((r) => inThroughput.has(r.run)), notDrawn }
  },
  skip: (d) => (d.compareThroughput.length === 0 && d.compareSpectrum.length === 0 ? 'the runs have neither intervals nor histograms' : null),
  tune: (spec, d, opts) => {
    spec.vconcat[2].encoding.x.scale.domain = spectrumDomain(d.compareSpectrum)
    if (d.compareSteady.length === 0) spec.title.subtitle = spec.title.subtitle.replace('; dashed: time to steady state', '')
    if (opts.logScale) {
      useLog(spec.vconcat[1].encoding.y.scale)
      useLog(spec.vconcat[2].encoding.y.scale)
    }
  }
}
