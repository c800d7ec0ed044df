// Every page pgload writes to a file, looked at in headless Chromium as a person looks at it
// (test/helpers/page-checks.js): the run report of a TPC-B and of a TPC-C run, compare and ab
// reports, a staged run's, a capacity and a sweep report, and the history page. Screenshots stay
// in test-output/screenshots. The live dashboard's pages: live-dashboard-browser.test.js.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { writeHtmlReport } from '../../lib/report/render-report.js'
import { renderSweepReport } from '../../lib/report/sweep/render.js'
import { writeHistoryChart } from '../../lib/store/history-chart.js'
import { formatHistory } from '../../lib/store/history.js'
import { loadSweep, SWEEP_FILE } from '../fixtures/sweep/variants.js'
import { stagedResults, capacityResults, capacityStepDownResults } from '../helpers/staged-results.js'
import { chromiumSkip, chromiumForFile } from '../helpers/chromium.js'
import { keepVegaViews, assertPageLooksRight, chartsDrawn } from '../helpers/page-checks.js'

const skip = chromiumSkip
// the pages' files: removed at the end unless PGLOAD_KEEP_SHOTS is set
const { shots: dir, newPage } = chromiumForFile('pgload-pages-')

const fixture = (path) => JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8'))

/**
 * A TPC-B run as a person's first runs look: autovacuum every few seconds through a checkpoint,
 * the server busy from the start, its host's CPU near saturation and its disk writing harder
 * through the checkpoint.
 */
function busyRun () {
  const doc = fixture('results/tpcb-a.json')
  const events = doc.serverStats.events
  for (const t of [3, 5, 8, 9, 14, 15, 23, 26]) events.push({ ...events.find((e) => e.kind === 'autovacuum'), t })
  events.sort((a, b) => a.t - b.t)
  doc.serverStats.series.forEach((s, i) => {
    const iowait = 2 + (i % 5)
    s.host = {
      cpu: { busy: 88 + (i % 5), user: 60 + (i % 3), system: 24, iowait, steal: 1, idle: 13 - (i % 3) - iowait },
      disk: { readsPerS: 5 + (i % 4), writesPerS: 900 + 40 * (i % 7), readBytesPerS: 40960, writeBytesPerS: 30e6, queue: 1.5 }
    }
  })
  doc.serverStats.host = { available: true, disk: { name: 'nvme0n1', devices: ['nvme0n1'], scope: 'data directory' }, samples: doc.serverStats.series.length }
  return doc
}

/**
 * A cold start's run as `ab --report -- run ... --cold` draws it: steady from 8 s (as its results
 * recorded), an autovacuum just after.
 */
function coldRun () {
  const doc = fixture('results/tpcb-a.json')
  doc.serverStats.events = [{ t: 11, kind: 'autovacuum', table: 'pgbench_tellers' }]
  doc.summary.steadyState = { timeS: 8, medianTps: 560, band: 0.1, graceS: 2, bucketS: 1, medianFromS: 15, reason: null }
  return doc
}

/** A staged run with autovacuum at its stage boundaries and no checkpoint. */
function stagedBusyRun () {
  const doc = stagedResults()
  doc.serverStats ??= {}
  doc.serverStats.events = [0.5, 3.2, 6.1].map((t) => ({ kind: 'autovacuum', t, label: 'autovacuum pgbench_accounts', table: 'pgbench_accounts' }))
  return doc
}

/** A run with --stages 2s:200,2s:400 whose autoanalyze ran mid-stage, where each stage's number goes. */
function twoStagesMarkedRun () {
  const doc = stagedResults({ bounds: [0, 2], targets: [200, 400] })
  doc.serverStats ??= {}
  doc.serverStats.events = doc.stages.map((s) => ({ kind: 'autovacuum', t: s.startS + (s.endS - s.startS) / 2, label: 'autoanalyze pgbench_accounts', table: 'pgbench_accounts' }))
  return doc
}

/** A short TPC-C run above the spec's efficiency ceiling (too short to reach its steady mix). */
function shortTpcc () {
  const doc = fixture('results/recorded-tpcc-short.json')
  // its efficiency (93.3 %, from its tpmC, as a results file must keep it) above the ceiling its
  // waits and mix allow: the case that printed 'at most' beside a larger figure
  doc.tpcc.efficiencyCeiling = 90.5
  return doc
}

const PAGES = {
  run: () => writeHtmlReport([busyRun()], join(dir, 'run.html')),
  tpcc: () => writeHtmlReport([fixture('results/tpcc.json')], join(dir, 'tpcc.html')),
  'tpcc-short': () => writeHtmlReport([shortTpcc()], join(dir, 'tpcc-short.html')),
  pooler: () => writeHtmlReport([fixture('results/recorded-tpcb-pgbouncer.json')], join(dir, 'pooler.html')),
  staged: () => writeHtmlReport([stagedBusyRun()], join(dir, 'staged.html')),
  'staged-marked': () => writeHtmlReport([twoStagesMarkedRun()], join(dir, 'staged-marked.html')),
  capacity: () => writeHtmlReport([capacityResults()], join(dir, 'capacity.html')),
  'capacity-down': () => writeHtmlReport([capacityStepDownResults()], join(dir, 'capacity-down.html')),
  compare: () => writeHtmlReport(['base-1', 'base-2', 'shift-1', 'shift-2'].map((f) => fixture(`compare/${f}.json`)), join(dir, 'compare.html'), { names: ['A1', 'A2', 'B1', 'B2'] }),
  ab: () => writeHtmlReport([coldRun(), fixture('results/tpcb-b.json')], join(dir, 'ab.html'), { names: ['A1', 'B1'] }),
  sweep: () => renderSweepReport(loadSweep(), { out: join(dir, 'sweep.html'), source: SWEEP_FILE, p99LimitMs: 10 }).then(() => join(dir, 'sweep.html')),
  history: () => {
    const runs = historyRuns()
    return writeHistoryChart(runs, 'p99', join(dir, 'history.html'), { table: formatHistory(runs, 'p99') })
  }
}

/** Stored runs of three workloads over a week: TPC-B, TPC-C and a script, each a few times. */
function historyRuns () {
  const kinds = [['tpcb', 10, 8, 4], ['tpcc', 1, 10, 40], ['script', null, 4, 1]]
  return Array.from({ length: 12 }, (_, i) => {
    const [workload, scale, clients, p99] = kinds[i % 3]
    return { runId: i + 1, startTime: `2026-03-0${1 + (i >> 1)}T1${i % 2}:00:00.000Z`, label: null, workload, clients, scale, tps: 500, p50: 1, p99: p99 + i % 4, max: 30, value: p99 + i % 4 }
  })
}

for (const [name, write] of Object.entries(PAGES)) {
  test(`the ${name} page looks right`, { skip, timeout: 60_000 }, async (t) => {
    const file = await write()
    const page = await newPage({ viewport: { width: 1200, height: 900 } })
    try {
      await keepVegaViews(page)
      await page.goto(pathToFileURL(file).href)
      await page.waitForFunction(() => window.pgloadReport?.done === true, null, { timeout: 30_000 })
      t.diagnostic(`screenshot ${await assertPageLooksRight(page, name)}`)
      if (name === 'run') {
        // the server host's panels: their axes and legends drawn
        const server = (await chartsDrawn(page)).find((c) => c.name === 'Server activity')
        for (const axis of ['host CPU %', 'host disk I/Os/s']) assert.ok(server.axes.includes(axis), `no axis "${axis}" in ${server.axes}`)
        const labels = server.legends.map((l) => Object.keys(l).join(','))
        for (const legend of ['user,system,iowait,steal', 'reads,writes']) assert.ok(labels.includes(legend), `no legend ${legend} in ${labels.join(' | ')}`)
      }
      if (name === 'tpcc-short') {
        // an efficiency above its ceiling is said so, never 'at most' beside a larger figure
        const text = await page.innerText('body')
        assert.match(text, /93\.3 %; above the 90\.5 ?%/)
        assert.doesNotMatch(text, /at most 90\.5/)
      }
    } finally {
      await page.close()
    }
  })
}
