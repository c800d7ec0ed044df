// The dashboard's page: the report's own template and Vega-Lite specs (lib/report), filled with
// the results so far, plus the page's script (live-script.js) that applies each update from the
// server-sent events and, at the end, replaces the page with the final report.

import { buildHtml } from '../report/html.js'
import { buildCharts, RUN_CHARTS, fillSpec } from '../report/charts.js'
import { labelRuns } from '../report/render-report.js'
import { escapeHtml as h } from '../report/escape.js'
import { LIVE_SCRIPT } from './live-script.js'

// The charts of the whole run's histograms (percentile spectrum, latency distribution) merge and
// encode every type's histogram and read it back: most of an update's cost, for charts that
// change little from one second to the next. They are redrawn every HISTOGRAM_CHARTS_S seconds
// of the run, and when the phase changes; the time series every update.
export const HISTOGRAM_CHARTS_S = 5
const HISTOGRAM_CHARTS = new Set(['percentile-spectrum', 'latency-distribution'])

/**
 * The page's state at the live document's version: header, skipped list, and each chart's spec
 * (without data) and datasets, built as the report builds one run's charts (lib/report/charts.js).
 * @param {import('./live-document.js').LiveDocument} live
 * @param {import('./live-delta.js').LiveState|null} [prev] the state before, whose histogram
 *   charts are kept when they are recent enough
 * @returns {import('./live-delta.js').LiveState}
 */
export function liveState (live, prev = null) {
  const keep = prev !== null && prev.phase === live.phase && live.elapsedS - prev.histogramsAtS < HISTOGRAM_CHARTS_S
  const doc = live.document({ histograms: !keep })
  const before = keep ? new Map(prev.charts.map((c) => [c.name, c])) : null
  const charts = []
  const skipped = []
  for (const chart of RUN_CHARTS) {
    if (chart.applies && !chart.applies(doc)) continue
    if (keep && HISTOGRAM_CHARTS.has(chart.id)) {
      // as drawn last time (a chart without data yet waits for the next redraw)
      if (before.has(chart.id)) charts.push(before.get(chart.id))
      continue
    }
    const data = chart.data(doc)
    const reason = chart.skip(data, doc)
    if (reason) { skipped.push({ title: chart.title, reason }); continue }
    const { $schema, datasets, ...spec } = fillSpec(chart, data, {}, doc)
    charts.push({ name: chart.id, title: chart.title, spec, specKey: JSON.stringify(spec), datasets })
  }
  // Charts wait for data rather than list themselves as skipped while the run goes on.
  const shown = live.phase === 'finished' ? skipped : []
  return {
    version: live.version,
    header: liveHeaderHtml(live),
    skipped: shown.length
      ? `<div class="skipped"><strong>Charts not drawn yet:</strong><ul>${shown.map((s) => `<li>${h(s.title)}: ${h(s.reason)}</li>`).join('')}</ul></div>`
      : '',
    charts,
    points: live.intervals.length,
    phase: live.phase,
    histogramsAtS: keep ? prev.histogramsAtS : live.elapsedS
  }
}

/**
 * The page a browser opens: the report's page with no chart yet, and the live script.
 * @param {import('./live-document.js').LiveDocument} live
 * @param {string} [banner] HTML above the run's header (a sweep's)
 * @returns {string}
 */
export function livePageHtml (live, banner = '') {
  const doc = live.document()
  return buildHtml([{ doc, label: null }], { charts: [], skipped: [] }, {
    title: `pgload live: ${doc.run.workload}${live.meta.label ? ` (${live.meta.label})` : ''}`,
    header: banner + liveHeaderHtml(live),
    live: LIVE_SCRIPT
  })
}

/**
 * What the run is and where it stands: phase, time, throughput so far, terminals and
 * connections, and for a shard whose part this is.
 * @param {import('./live-document.js').LiveDocument} live
 */
export function liveHeaderHtml (live) {
  const s = live.shape
  const rows = []
  const of = s.durationS ? ` of ${s.durationS} s` : ''
  const phase = live.phase === 'warm-up' && live.warmup
    ? `warm-up: ${live.warmup.elapsedS.toFixed(0)} of ${Math.round(live.warmup.warmupS)} s (not measured)`
    : live.phase === 'running' ? `running: ${live.elapsedS.toFixed(0)} s${of} measured` : live.phase
  const st = live.status
  rows.push(['Status', st && live.phase !== 'finished' ? `${phase}; ${st.state}${st.reason ? ` (${st.reason})` : ''}` : phase])
  if (live.stage) rows.push(['Stage', stageText(live.stage)])
  if (live.meta.shard) {
    const { index, count } = live.meta.shard
    rows.push(['Shard', `${index} of ${count} (0 to ${count - 1}): this page shows this shard's part only; each shard serves its own dashboard${index === 0 ? ', and shard 0 coordinates the start' : ''}`])
  }
  const n = live.transactions
  rows.push(['Transactions', `${n.toLocaleString('en-US')}${live.elapsedS > 0 ? ` (${(n / live.elapsedS).toFixed(1)} tps so far)` : ''}, ${live.failed} failed, ${live.retries} ${live.retries === 1 ? 'retry' : 'retries'}`])
  rows.push(['Terminals', `${s.terminals}, connections ${s.connections} (${live.load.activeConnections} in use, ${live.load.waiting} waiting at the last interval)`])
  if (live.meta.label) rows.push(['Label', live.meta.label])
  rows.push(['Started', live.meta.startTime])
  return `<dl class="live">${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('')}</dl>`
}

/**
 * `2 of 3: rate 100 to 200/s (ramp), 10 to 20 s`
 * @param {import('../engine/run-handle.js').StageEvent} e
 */
export function stageText (e) {
  const unit = e.kind === 'rate' ? '/s' : ' terminals'
  const target = e.ramp && e.target.from !== e.target.to ? `${e.target.from} to ${e.target.to}${unit} (ramp)` : `${e.target.to}${unit}`
  return `${e.index + 1} of ${e.count}: ${e.kind === 'rate' ? 'rate' : 'clients'} ${target}, ${round(e.startS)} to ${round(e.endS)} s`
}

const round = (x) => Math.round(x * 10) / 10

/**
 * The final page: the report `pgload report` writes for the results document.
 * @param {any} results
 * @returns {string}
 */
export function finalReportHtml (results) {
  const labelled = labelRuns([results])
  return buildHtml(labelled.runs, buildCharts(labelled))
}
