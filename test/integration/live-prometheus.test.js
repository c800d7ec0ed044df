// --metrics scraped by a real Prometheus (Debian's prometheus package; skipped without it): a
// 20 s run scraped every second, PromQL's throughput over the steady part against pgload's own
// per-second throughput (within 5 %), and histogram_quantile's p99 against the run's p99 over the
// intervals scraped (within the buckets' 10 %). Prometheus runs on a loopback port with a
// temporary configuration and data directory, and is stopped at the end.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { freePort } from '../helpers/free-port.js'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { startPrometheus, prometheusSkip } from '../helpers/prometheus.js'
import { createHistogram, addInto, decodeHistogram } from '../../lib/metrics/histogram.js'

const skip = prometheusSkip
const dir = mkdtempSync(join(tmpdir(), 'pgload-prom-'))
let server
let prom

const query = (q, time) => prom.query(q, time)

before(async () => {
  if (skip) return
  server = await getTestServer()
  const r = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(r.code, 0, r.stderr)
})

after(async () => {
  await prom?.stop()
  rmSync(dir, { recursive: true, force: true })
})

test('Prometheus scrapes a 20 s run every second: its rate and p99 agree with the run\'s', { skip, timeout: 180_000 }, async (t) => {
  const metricsPort = await freePort()
  prom = await startPrometheus({ dir, config: `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: pgload\n    scrape_interval: 1s\n    static_configs:\n      - targets: ['127.0.0.1:${metricsPort}']\n` })

  const out = join(dir, 'run.json')
  const run = await runCli(['run', 'tpcb', '-S', '-c', '2', '-T', '20', '--rate', '400', '--url', server.url, '--out', out,
    '--metrics', `127.0.0.1:${metricsPort}`, '--label', 'prom-test'], { timeoutMs: 90_000 })
  assert.equal(run.code, 0, run.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))

  // The run's wall-clock span: from its measured start to the last scrape that saw it.
  const elapsed = await query('max_over_time(pgload_run_elapsed_seconds{label="prom-test"}[2m])')
  assert.equal(elapsed.length, 1, `scraped series: ${JSON.stringify(elapsed)}`)
  const lastScrape = Number((await query('max_over_time(timestamp(pgload_run_elapsed_seconds{label="prom-test"})[2m:1s])'))[0].value[1])
  assert.ok(lastScrape > 0)
  const lastElapsed = Number(elapsed[0].value[1])
  const startWall = lastScrape - lastElapsed
  // the steady part: seconds 6 .. 16 of the measured window, as one rate over those 10 s (and as
  // rates over 5 s within it, for the diagnostic): the counters move once per interval, and on a
  // loaded machine an update may come a little late, which a single 10 s rate takes at both ends
  const rateAt = async (range, t) => {
    const r = await query(`sum(rate(pgload_transactions_total{label="prom-test"}[${range}]))`, startWall + t)
    return r.length ? Number(r[0].value[1]) : null
  }
  const promRates = []
  for (let t = 11; t <= 16; t++) {
    const r = await rateAt('5s', t)
    if (r !== null) promRates.push(r)
  }
  assert.ok(promRates.length >= 4, `rates found: ${promRates}`)
  const promSteady = await rateAt('10s', 16)
  assert.ok(promSteady !== null, 'no rate over the steady part')
  const own = results.intervals.filter((iv) => iv.t > 6 && iv.t <= 16).map((iv) => Object.values(iv.count).reduce((a, b) => a + b, 0) / iv.lengthS)
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
  const promTps = promSteady
  const ownTps = mean(own)
  assert.ok(Math.abs(promTps - ownTps) / ownTps < 0.05, `Prometheus ${promTps.toFixed(1)} tps, pgload ${ownTps.toFixed(1)} tps`)

  // p99 from the last cumulative buckets scraped, against the run's own p99 over the same
  // intervals: the last scrape may miss the last interval or two, and on a loaded machine their
  // absence can move a p99 that sits at the edge of a burst by more than a bucket
  const p99 = await query('histogram_quantile(0.99, sum by (le) (max_over_time(pgload_latency_seconds_bucket{label="prom-test"}[2m])))')
  const promP99Ms = Number(p99[0].value[1]) * 1000
  const scraped = Number((await query('sum(max_over_time(pgload_latency_seconds_count{label="prom-test"}[2m]))'))[0].value[1])
  const seen = intervalsSeen(results.intervals, scraped)
  assert.ok(seen !== null && seen.length >= results.intervals.length - 2, `${scraped} latencies scraped: no whole intervals of the run add up to them, or more than two are missing`)
  const runP99Ms = p99OfIntervals(seen)
  t.diagnostic(`Prometheus ${promTps.toFixed(1)} tps (over 5 s: ${promRates.map((r) => r.toFixed(0)).join(', ')}), pgload ${ownTps.toFixed(1)} tps; p99 ${promP99Ms.toFixed(3)} ms, the run's ${runP99Ms} ms over the ${seen.length} of its ${results.intervals.length} intervals scraped (${results.summary.latencyMs.p99} ms over all)`)
  assert.ok(Math.abs(promP99Ms - runP99Ms) / runP99Ms <= 0.1, `Prometheus p99 ${promP99Ms.toFixed(3)} ms, the run's ${runP99Ms} ms`)
  const counted = await query('sum(max_over_time(pgload_transactions_total{label="prom-test"}[2m]))')
  // the last scrape may miss at most the run's last interval or two
  assert.ok(Number(counted[0].value[1]) >= results.summary.transactions - 2 * 400 - 50, `${counted[0].value[1]} of ${results.summary.transactions}`)
})

/** The run's first intervals whose latencies number `count` (what the endpoint had added), or null. */
function intervalsSeen (intervals, count) {
  let n = 0
  for (let k = 0; k < intervals.length; k++) {
    if (n === count) return intervals.slice(0, k)
    for (const h of Object.values(intervals[k].histograms ?? {})) n += decodeHistogram(h).totalCount
  }
  return n === count ? intervals : null
}

/** The exact p99 of the intervals' latency histograms, in ms. */
function p99OfIntervals (intervals) {
  const all = createHistogram()
  for (const iv of intervals) for (const h of Object.values(iv.histograms ?? {})) addInto(all, decodeHistogram(h))
  return all.getValueAtPercentile(99) / 1000
}
