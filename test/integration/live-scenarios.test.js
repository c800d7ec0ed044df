// The live outputs of `pgload run --scenarios` on the embedded server: /metrics serves each
// scenario's series under its `scenario` label while the run goes on, never more than the results
// count, and the dashboard's updates carry each scenario's throughput and the scenarios' marks.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { startWithDashboard } from '../helpers/cli.js'
import { freePort } from '../helpers/free-port.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-live-scenarios-'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
let server

before(async () => {
  server = await getTestServer()
  writeFileSync(join(dir, 'ok.sql'), 'SELECT 1;\n')
  writeFileSync(join(dir, 'slow.sql'), 'SELECT pg_sleep(0.01);\n')
  writeFileSync(join(dir, 'live.yaml'), ['duration: 6s', 'scenarios:',
    '  oltp: { workload: [ok.sql], clients: 2, rate: 100 }',
    '  olap: { workload: [slow.sql], clients: 1, start: 2s, duration: 3s }', ''].join('\n'))
})
after(() => rmSync(dir, { recursive: true, force: true }))

/** The value of one series in a Prometheus text, 0 when absent. */
function valueOf (text, name, labels) {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
  return line ? Number(line.split(' ').pop()) : 0
}

test('--dashboard and --metrics of a scenario run: a scenario label on every run series, each scenario on the dashboard', { timeout: 90_000 }, async () => {
  const port = await freePort()
  const out = join(dir, 'run.json')
  const { url, exited } = startWithDashboard(['run', '--scenarios', join(dir, 'live.yaml'), '--url', server.url, '--out', out,
    '--dashboard', '127.0.0.1:0', '--dashboard-keep', '0', '--metrics', `127.0.0.1:${port}`])
  const state = { done: false }
  exited.then(() => { state.done = true })
  // the dashboard's updates, read for as long as the run serves them
  let events = ''
  const ac = new AbortController()
  url.then(async (u) => {
    const res = await fetch(`${u}events`, { signal: ac.signal })
    for await (const chunk of res.body) events += Buffer.from(chunk).toString()
  }).catch(() => {})
  let last = null
  while (!state.done) {
    const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), () => null)
    if (text && valueOf(text, 'pgload_transactions_total', { scenario: 'olap' }) > 0) last = text
    await sleep(200)
  }
  ac.abort()
  const r = await exited
  assert.equal(r.code, 0, r.stderr)
  assert.ok(last, `no scrape with olap's transactions: ${r.stderr}`)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  for (const [scenario, type] of [['oltp', 'ok.sql'], ['olap', 'slow.sql']]) {
    const served = valueOf(last, 'pgload_transactions_total', { scenario, type })
    const counted = results.scenarios[scenario].transactions[type].count
    assert.ok(served > 0 && served <= counted, `${scenario}/${type}: ${served} served, ${counted} in the results`)
  }
  assert.equal(valueOf(last, 'pgload_terminals', { scenario: 'oltp' }), 2)
  assert.ok(last.split('\n').filter((l) => l.startsWith('pgload_transactions_total{')).every((l) => /scenario="(oltp|olap)"/.test(l)))
  assert.ok(events.includes('olap/slow.sql') && events.includes('oltp/ok.sql'), 'each scenario\'s throughput on the dashboard')
  assert.ok(events.includes('olap starts'), 'the scenarios\' marks on the dashboard\'s charts')
  // the run's one server statistics sampler feeds /metrics too
  const commits = Number(/^pgload_server_commits_total(?:{[^}]*})? (\S+)$/m.exec(last)?.[1])
  assert.ok(commits > 0, `the server statistics on /metrics: ${commits} server commits`)
})
