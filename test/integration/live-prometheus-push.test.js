// --metrics-push to a real Prometheus (Debian's prometheus package, started with
// --web.enable-remote-write-receiver; skipped without it): a 15 s run pushes each interval, and
// PromQL over the pushed samples gives the run's throughput over its steady part (within 5 %)
// and its p99 (within the buckets' 10 %). A receiver that is not there (a closed loopback port)
// costs a warning and nothing else. Prometheus runs on a loopback port with a temporary
// configuration and data directory, and is stopped at the end.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../helpers/free-port.js'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { startPrometheus, prometheusSkip } from '../helpers/prometheus.js'
import { createHistogram, addInto, decodeHistogram } from '../../lib/metrics/histogram.js'

const skip = prometheusSkip
const dir = mkdtempSync(join(tmpdir(), 'pgload-push-'))
// a password that must appear nowhere pgload writes
const SECRET = 'pushSecret42'
let server
let prom
let promUrl

const query = (q, time) => prom.query(q, time)

before(async () => {
  server = await getTestServer()
  const r = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(r.code, 0, r.stderr)
})

after(async () => {
  await prom?.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function startReceiver () {
  prom = await startPrometheus({ dir, config: 'global:\n  scrape_interval: 1m\n', args: ['--web.enable-remote-write-receiver'] })
  promUrl = prom.url
  return prom.log
}

test('a 15 s run pushed to Prometheus each interval: its throughput and p99 agree with the run\'s', { skip, timeout: 180_000 }, async (t) => {
  const promLog = await startReceiver()
  const out = join(dir, 'run.json')
  const run = await runCli(['run', 'tpcb', '-S', '-c', '2', '-T', '15', '--rate', '400', '--url', server.url, '--out', out,
    '--metrics-push', `${promUrl.replace('//', `//pgload:${SECRET}@`)}/api/v1/write`, '--label', 'push-test'], { timeoutMs: 90_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.doesNotMatch(run.stderr, /warning/, `${run.stderr}\n${promLog()}`)
  const results = JSON.parse(readFileSync(out, 'utf8'))

  // the pushed samples: one per push, stamped with the end of the interval whose figures they are
  const raw = await query('pgload_run_elapsed_seconds{label="push-test"}[10m]')
  assert.equal(raw.length, 1, JSON.stringify(raw))
  const pushes = raw[0].values.map(([ts, v]) => ({ ts: Number(ts), elapsedS: Number(v) }))
  assert.ok(pushes.length >= results.intervals.length - 2, `${pushes.length} pushes, ${results.intervals.length} intervals`)
  // the steady part: from the push at about 4 s to the one at about 14 s of the measured window
  const a = pushes.find((p) => p.elapsedS >= 4)
  const b = pushes.findLast((p) => p.elapsedS <= 14 && p.elapsedS > a.elapsedS)
  assert.ok(b && b.elapsedS - a.elapsedS >= 8, `pushes at ${pushes.map((p) => p.elapsedS)}`)
  const total = async (ts) => Number((await query('sum(pgload_transactions_total{label="push-test"})', ts))[0].value[1])
  const promTps = (await total(b.ts) - await total(a.ts)) / (b.ts - a.ts)
  const own = results.intervals.filter((iv) => iv.t > a.elapsedS + 1e-6 && iv.t <= b.elapsedS + 1e-6)
  const ownTps = own.reduce((s, iv) => s + Object.values(iv.count).reduce((x, y) => x + y, 0), 0) / own.reduce((s, iv) => s + iv.lengthS, 0)
  assert.ok(Math.abs(promTps - ownTps) / ownTps < 0.05, `Prometheus ${promTps.toFixed(1)} tps, pgload ${ownTps.toFixed(1)} tps`)

  // the final push holds every interval: the counts are the run's, exactly
  const last = pushes.at(-1).ts
  const counted = Number((await query('sum(pgload_latency_seconds_count{label="push-test"})', last))[0].value[1])
  const runCount = results.intervals.reduce((s, iv) => s + Object.values(iv.histograms ?? {}).reduce((x, h) => x + decodeHistogram(h).totalCount, 0), 0)
  assert.equal(counted, runCount)
  assert.equal(await total(last), results.intervals.reduce((s, iv) => s + Object.values(iv.count).reduce((x, y) => x + y, 0), 0))
  const p99 = await query('histogram_quantile(0.99, sum by (le) (pgload_latency_seconds_bucket{label="push-test"}))', last)
  const promP99Ms = Number(p99[0].value[1]) * 1000
  const runP99Ms = p99OfIntervals(results.intervals)
  t.diagnostic(`Prometheus ${promTps.toFixed(1)} tps, pgload ${ownTps.toFixed(1)} tps over ${(b.elapsedS - a.elapsedS).toFixed(1)} s; p99 ${promP99Ms.toFixed(3)} ms, the run's ${runP99Ms} ms; ${pushes.length} pushes, ${results.intervals.length} intervals`)
  assert.ok(Math.abs(promP99Ms - runP99Ms) / runP99Ms <= 0.1, `Prometheus p99 ${promP99Ms.toFixed(3)} ms, the run's ${runP99Ms} ms`)

  // the labels /metrics has, and no password anywhere
  const series = await query('pgload_transactions_total{label="push-test"}', last)
  assert.deepEqual(Object.keys(series[0].metric).sort(), ['__name__', 'label', 'run_id', 'type', 'workload'])
  assert.equal(series[0].metric.workload, 'tpcb')
  assert.deepEqual(results.run.options.metricsPush, { url: `${promUrl}/api/v1/write`, headers: [] })
  for (const text of [run.stdout, run.stderr, readFileSync(out, 'utf8')]) assert.ok(!text.includes(SECRET))
})

test('a receiver that is not there costs one warning and a count at the end: exit 0, results written', { timeout: 120_000 }, async () => {
  const port = await freePort() // nothing listens there
  const out = join(dir, 'down.json')
  const run = await runCli(['run', 'tpcb', '-S', '-c', '1', '-T', '3', '--url', server.url, '--out', out,
    '--metrics-push', `http://pgload:${SECRET}@127.0.0.1:${port}/api/v1/write`, '--metrics-push-header', `Authorization: Bearer ${SECRET}`], { timeoutMs: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  assert.ok(results.summary.transactions > 0)
  const warnings = run.stderr.split('\n').filter((l) => /warning|error/i.test(l))
  assert.equal(warnings.length, 2, run.stderr)
  assert.match(warnings[0], new RegExp(`^pgload: warning: --metrics-push: http://127\\.0\\.0\\.1:${port}/api/v1/write did not take the metrics: connection refused`))
  assert.match(warnings[1], /^pgload: warning: --metrics-push: pushed 0 of \d+ times to .*; last error: connection refused/)
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace')
  for (const text of [run.stdout, run.stderr, readFileSync(out, 'utf8')]) assert.ok(!text.includes(SECRET), text)
  assert.match(results.run.command, /--metrics-push-header 'Authorization: \*\*\*'/)
})

/** The exact p99 of the intervals' latency histograms, in ms. */
function p99OfIntervals (intervals) {
  const all = createHistogram()
  for (const iv of intervals) for (const h of Object.values(iv.histograms ?? {})) addInto(all, decodeHistogram(h))
  return all.getValueAtPercentile(99) / 1000
}
