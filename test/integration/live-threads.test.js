// --metrics of a `pgload run -j 2`: the worker threads' intervals, merged by the main thread,
// give the endpoint failures by kind (SQLSTATE) and retries per transaction type, as one thread does. One script
// always succeeds; the other raises a serialization failure, retried up to --max-tries.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { freePort } from '../helpers/free-port.js'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { BIN } from '../helpers/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-live-threads-'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
let server

before(async () => {
  server = await getTestServer()
  writeFileSync(join(dir, 'ok.sql'), 'SELECT 1;\n')
  writeFileSync(join(dir, 'retry.sql'), "DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$;\n")
})
after(() => rmSync(dir, { recursive: true, force: true }))

/** The value of one series in a Prometheus text, 0 when absent. */
function valueOf (text, name, labels) {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
  return line ? Number(line.split(' ').pop()) : 0
}

test('-j 2: /metrics has failures by kind and retries per transaction type', { timeout: 60_000 }, async () => {
  const port = await freePort()
  const out = join(dir, 'run.json')
  const child = spawn(process.execPath, [BIN, 'run', join(dir, 'ok.sql'), join(dir, 'retry.sql'), '-j', '2', '-c', '2', '-T', '4',
    '--rate', '100', '--max-tries', '3', '--url', server.url, '--out', out, '--metrics', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  const exited = new Promise((resolve) => child.on('close', resolve))
  const state = { done: false }
  exited.then(() => { state.done = true })
  // the last scrape that saw 3 s of the measured window or more
  let last = null
  while (!state.done) {
    const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), () => null)
    if (text && valueOf(text, 'pgload_run_elapsed_seconds', {}) >= 3) last = text
    await sleep(100)
  }
  const code = await exited
  assert.equal(code, 0, stderr)
  assert.ok(last, `no scrape after 3 s: ${stderr}`)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const types = Object.keys(results.transactions)
  const ok = types.find((t) => t.endsWith('ok.sql'))
  const retry = types.find((t) => t.endsWith('retry.sql'))
  assert.ok(results.transactions[retry].failed > 0 && results.transactions[retry].retries > 0, JSON.stringify(results.transactions[retry]))

  const failedRetry = valueOf(last, 'pgload_failures_total', { type: retry, kind: '40001' })
  const retries = valueOf(last, 'pgload_retries_total', { type: retry })
  assert.ok(failedRetry > 0 && failedRetry <= results.transactions[retry].failed, `failures of ${retry}: ${failedRetry} of ${results.transactions[retry].failed}`)
  // a failed transaction spent up to two retries (fewer when the run's end cut them short)
  assert.ok(retries >= failedRetry && retries <= 2 * failedRetry, `${retries} retries for ${failedRetry} failures`)
  assert.ok(retries <= results.transactions[retry].retries)
  assert.equal(valueOf(last, 'pgload_failures_total', { type: ok }), 0)
  assert.equal(valueOf(last, 'pgload_retries_total', { type: ok }), 0)
  assert.ok(valueOf(last, 'pgload_transactions_total', { type: ok }) > 0)
  assert.equal(valueOf(last, 'pgload_failures_total', { type: 'all' }), 0)
})
