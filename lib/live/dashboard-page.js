// The dashboard's page: the report's own template and Vega-Lite specs (lib/report), filled with
// the results so far, plus the page's script (live-script.js) that applies each update from the
// server-sent events and, at the end, replaces the page with the final report.

import { buildHtml } from '../report/html.js'
import { buildCharts } from '../report/charts.js'
import { labelRuns } from '../report/render-report.js'
import { escapeHtml as h } from '../report/escape.js'
import { LIVE_SCRIPT } from './live-script.js'

/**
 * The page's state at the live document's version: header, skipped list, and each chart's spec
 * (without data) and datasets, as the report builds them.
 * @param {import('./live-document.js').LiveDocument} live
 * @returns {import('./live-delta.js').LiveState}
 */
export function liveState (live) {
  const doc = live.document()
  const built = buildCharts(labelRuns([doc]))
  // Charts wait for data rather than list themselves as skipped while the run goes on.
  const skipped = live.phase === 'finished' ? built.skipped : []
  return {
    version: live.version,
    header: liveHeaderHtml(live),
    skipped: skipped.length
      ? `<div class="skipped"><strong>Charts not drawn yet:</strong><ul>${skipped.map((s) => `<li>${h(s.title)}: ${h(s.reason)}</li>`).join('')}</ul></div>`
      : '',
    charts: built.charts.map((c) => {
      const { $schema, datasets, ...spec } = c.spec
      return { name: c.name, title: c.title, spec, specKey: JSON.stringify(spec), datasets }
    }),
    points: live.intervals.length,
    phase: live.phase
  }
}

/**
 * The page a browser opens: the report's page with no chart yet, and the live script.
 * @param {import('./live-document.js').LiveDocument} live
 * @returns {string}
 */
export function livePageHtml (live) {
  const doc = live.document()
  return buildHtml([{ doc, label: null }], { charts: [], skipped: [] }, {
    title: `pgload live: ${doc.run.workload}${live.meta.label ? ` (${live.meta.label})` : ''}`,
    header: liveHeaderHtml(live),
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
  if (live.meta.shard) {
    const { index, count } = live.meta.shard
    rows.push(['Shard', `${index} of ${count} (0 to ${count - 1}): this page shows this shard's part only; each shard serves its own dashboard${index === 0 ? ', and shard 0 coordinates the start' : ''}`])
  }
  const n = live.transactions
  rows.push(['Transactions', `${n.toLocaleString('en-US')}${live.elapsedS > 0 ? ` (${(n / live.elapsedS).toFixed(1)} tps so far)` : ''}, ${live.failed} failed, ${live.retries} retries`])
  rows.push(['Terminals', `${s.terminals}, connections ${s.connections} (${live.load.activeConnections} in use, ${live.load.waiting} waiting at the last interval)`])
  if (live.meta.label) rows.push(['Label', live.meta.label])
  rows.push(['Started', live.meta.startTime])
  return `<dl class="live">${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('')}</dl>`
}

/**
 * The final page: the report `pgload report` writes for the results document.
 * @param {any} results
 * @returns {string}
 */
export function finalReportHtml (results) {
  const labelled = labelRuns([results])
  return buildHtml(labelled.runs, buildCharts(labelled))
}
