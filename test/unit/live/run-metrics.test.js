// The Prometheus endpoint's metrics from run intervals (no server, no HTTP): the text format,
// the buckets' resolution, and the Grafana dashboard's queries against what is served.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { RunMetrics, LATENCY_BUCKETS_S, METRIC_NAMES } from '../../../lib/live/run-metrics.js'
import { BucketHistogram, BUCKET_RATIO } from '../../../lib/live/bucket-histogram.js'
import { Recorder } from '../../../lib/metrics/recorder.js'
import { createHistogram, recordUs } from '../../../lib/metrics/histogram.js'

const labels = { run_id: 'r1', label: 'night', shard: '', workload: 'tpcb' }

/** An interval of two types from a real recorder, as the run handle's 'interval' event carries it. */
function intervalEvent () {
  const rec = new Recorder(['a', 'b'])
  for (let i = 0; i < 100; i++) rec.ok(0, 1000 + i * 10, 5, 0)
  for (let i = 0; i < 10; i++) rec.ok(1, 50_000, 0, 0)
  rec.failed(1, '40001')
  const types = {}
  const interval = rec.closeInterval(1, 1, types)
  return { index: 0, elapsedS: 1, lengthS: 1, final: false, interval, types, connections: { size: 2, active: 2, waiting: 1 }, terminals: { total: 4 } }
}

async function served () {
  const m = new RunMetrics(labels)
  m.setShape({ terminals: 4, connections: 2, durationS: 10, warmupS: 0, types: ['a', 'b'] })
  m.addInterval(intervalEvent())
  m.addServerSample({ t: 1, xactCommitPerS: 110, xactRollbackPerS: 1, walBytesPerS: 1e6, blksReadPerS: 3, blksHitPerS: 300, backends: { active: 2, idle: 1 } }, { events: [{ kind: 'checkpoint-end', t: 0.5 }] })
  return m.text()
}

test('one interval as Prometheus text: counters per type, histograms, gauges, server counters, the run\'s labels', async () => {
  const text = await served()
  const line = (re) => text.split('\n').find((l) => re.test(l))
  assert.match(line(/^pgload_transactions_total\{type="a"/), /run_id="r1",label="night",shard="",workload="tpcb"\} 100$/)
  assert.match(line(/^pgload_transactions_total\{type="b"/), / 10$/)
  assert.match(line(/^pgload_failures_total/), /type="b",kind="40001".* 1$/)
  assert.match(line(/^pgload_latency_seconds_count\{type="a"/), / 100$/)
  assert.match(line(/^pgload_latency_seconds_bucket\{type="a",le="\+Inf"/), / 100$/)
  assert.match(line(/^pgload_connections_in_use/), / 2$/)
  assert.match(line(/^pgload_run_progress_ratio/), / 0\.1$/)
  assert.match(line(/^pgload_server_commits_total/), / 110$/)
  assert.match(line(/^pgload_server_checkpoints_total/), / 1$/)
  assert.match(line(/^pgload_server_backends\{state="active"/), / 2$/)
  assert.match(text, /# TYPE pgload_latency_seconds histogram/)
})

test('buckets: 10 us .. 100 s, each at most 10 % above the one below, so a quantile read within 10 %', () => {
  assert.ok(LATENCY_BUCKETS_S[0] <= 0.00001 && LATENCY_BUCKETS_S.at(-1) >= 100)
  for (let i = 1; i < LATENCY_BUCKETS_S.length; i++) {
    assert.ok(LATENCY_BUCKETS_S[i] > LATENCY_BUCKETS_S[i - 1])
    assert.ok(LATENCY_BUCKETS_S[i] / LATENCY_BUCKETS_S[i - 1] <= BUCKET_RATIO * 1.001)
  }
})

test('an HdrHistogram added into buckets: cumulative counts match the values at or below each bound', () => {
  const b = new BucketHistogram({ name: 'x_seconds', help: 'x', labelNames: ['type'], buckets: [0.001, 0.002, 0.004] })
  const h = createHistogram()
  for (const us of [500, 1000, 1500, 2500, 3000, 9000]) recordUs(h, us)
  b.addHdr({ type: 't' }, h)
  b.addHdr({ type: 't' }, h)
  const v = b.get().values
  const at = (le) => v.find((x) => x.labels.le === le).value
  assert.deepEqual([at(0.001), at(0.002), at(0.004), at('+Inf')], [4, 6, 10, 12])
  const sum = v.find((x) => x.metricName === 'x_seconds_sum').value
  assert.ok(Math.abs(sum - 2 * 0.0175) < 0.0001, String(sum))
})

test('the Grafana dashboard parses, and every panel query names a metric the endpoint serves', async () => {
  const dash = JSON.parse(readFileSync(new URL('../../../docs/monitoring/grafana-dashboard.json', import.meta.url), 'utf8'))
  const text = await served()
  const names = new Set(text.split('\n').filter((l) => /^pgload_/.test(l)).map((l) => l.split(/[{ ]/)[0]))
  // families declared but without a sample in this small run still count as served
  for (const m of text.matchAll(/^# TYPE (\S+) (\w+)/gm)) names.add(m[1]).add(`${m[1]}_bucket`)
  assert.ok(dash.panels.length >= 10)
  let queries = 0
  for (const panel of dash.panels) {
    assert.ok(panel.targets?.length > 0, `panel ${panel.title} has no query`)
    for (const t of panel.targets) {
      const used = [...t.expr.matchAll(/\bpgload_[a-z_]+/g)].map((m) => m[0])
      assert.ok(used.length > 0, `${panel.title}: ${t.expr}`)
      for (const name of used) assert.ok(names.has(name), `${panel.title}: ${name} is not served`)
      queries++
    }
  }
  for (const v of dash.templating.list) for (const m of v.query.query.matchAll(/\bpgload_[a-z_]+/g)) assert.ok(names.has(m[0]))
  assert.ok(queries >= 15)
  for (const name of METRIC_NAMES) assert.ok(names.has(name), `${name} listed but not served`)
})

test('the wait classes of each closed interval: average active sessions as gauges, samples as counters', async () => {
  const { IntervalClasses } = await import('../../../lib/waits/interval-classes.js')
  const m = new RunMetrics(labels)
  const classes = new IntervalClasses(1000)
  for (let i = 0; i < 50; i++) {
    const c = classes.read(i * 20)
    classes.add(c, 'Lock', 'Lock:transactionid')
    classes.add(c, 'Lock', 'Lock:transactionid')
    if (i % 2 === 0) classes.add(c, 'CPU', null)
  }
  classes.add(classes.read(1500), 'IO', 'IO:DataFileRead')
  m.addWaits(classes.intervals[0])
  let text = await m.text()
  const line = (re) => text.split('\n').find((l) => re.test(l))
  assert.match(line(/^pgload_wait_sessions\{class="Lock"/), /run_id="r1".*\} 2$/)
  assert.match(line(/^pgload_wait_sessions\{class="CPU"/), / 0\.5$/)
  assert.match(line(/^pgload_wait_samples_total\{class="Lock"/), / 100$/)
  assert.match(text, /# HELP pgload_wait_sessions .*average active sessions/)
  assert.match(text, /# TYPE pgload_wait_sessions gauge/)
  assert.match(text, /# TYPE pgload_wait_samples_total counter/)
  // the next interval has no Lock: its gauge goes to 0, its counter stays
  m.addWaits(classes.intervals[1])
  text = await m.text()
  assert.match(line(/^pgload_wait_sessions\{class="Lock"/), / 0$/)
  assert.match(line(/^pgload_wait_sessions\{class="IO"/), / 1$/)
  assert.match(line(/^pgload_wait_samples_total\{class="Lock"/), / 100$/)
})
