// The dashboard's page: the report's own template and Vega-Lite specs (lib/report), filled with
// the results so far, plus a small script that takes each update from the server-sent events
// and, at the end, replaces the page with the final report.

import { buildHtml } from '../report/html.js'
import { buildCharts } from '../report/charts.js'
import { labelRuns } from '../report/render-report.js'
import { escapeHtml as h } from '../report/escape.js'

/**
 * The charts and header of the results so far, as one update of the page.
 * @param {import('./live-document.js').LiveDocument} live
 * @returns {{ version: number, header: string, skipped: string, charts: string, specs: any[], points: number, phase: string }}
 */
export function liveUpdate (live) {
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
    charts: built.charts.map((c, i) => `<div class="chart" id="chart-${i}" role="img" aria-label="${h(c.title)}"></div>`).join('\n'),
    specs: built.charts.map((c) => { const { $schema, ...rest } = c.spec; return rest }),
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

// The browser side: one EventSource; updates render one after the other (vega-embed per chart,
// the report's options); the final report replaces the document. window.pgloadLive is read by tests.
const LIVE_SCRIPT = `<script>
(function () {
  var status = window.pgloadLive = { updates: 0, points: 0, charts: 0, errors: [], phase: 'starting', final: false }
  var opts = { mode: 'vega-lite', renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } }
  var queue = Promise.resolve()
  var latest = null
  var source = new EventSource('events')
  source.addEventListener('update', function (ev) {
    latest = JSON.parse(ev.data)
    queue = queue.then(function () { var u = latest; latest = null; return u ? render(u) : null })
  })
  source.addEventListener('report', function (ev) {
    source.close()
    queue.then(function () {
      status.final = true
      document.open()
      document.write(ev.data)
      document.close()
    })
  })
  async function render (u) {
    document.getElementById('pgload-header').innerHTML = u.header
    document.getElementById('pgload-skipped').innerHTML = u.skipped
    var box = document.getElementById('pgload-charts')
    box.style.minHeight = box.offsetHeight + 'px'
    box.innerHTML = u.charts
    for (var i = 0; i < u.specs.length; i++) {
      var el = document.getElementById('chart-' + i)
      try {
        await vegaEmbed(el, u.specs[i], opts)
      } catch (err) {
        status.errors.push(String(err && err.message || err))
        el.className += ' chart-error'
        el.textContent = 'This chart could not be drawn: ' + (err && err.message || err)
      }
    }
    box.style.minHeight = ''
    status.updates++
    status.points = u.points
    status.charts = u.specs.length
    status.phase = u.phase
  }
})()
</script>`

/**
 * The final page: the report `pgload report` writes for the results document.
 * @param {any} results
 * @returns {string}
 */
export function finalReportHtml (results) {
  const labelled = labelRuns([results])
  return buildHtml(labelled.runs, buildCharts(labelled))
}
