// Latency is measured, not approximated: scripts that only sleep on the server report a median
// within 1 % + 0.2 ms of the true latency (histogram precision, clock and intended start all
// included). The true latency is what pgbench measures for the same script on the same server
// just before (its per-transaction log): a machine whose wake-ups are late makes every client's
// sleep longer than asked, not only pgload's. Without pgbench, the sleep itself is the reference.
// It runs after the rest of the suite, alone: with other tests competing for the CPUs, the wait
// for one after each wake-up is real latency that it would count.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'

let server
let dir

before(async () => {
  server = await getTestServer()
  dir = mkdtempSync(join(tmpdir(), 'pgload-sleep-'))
})
after(() => { if (dir) rmSync(dir, { recursive: true, force: true }) })

// What the server itself takes for the sleep, for the failure message.
async function serverSleepMs (seconds) {
  const conn = await openConnection(server.target)
  try {
    const r = await conn.query(`EXPLAIN (ANALYZE, FORMAT JSON) SELECT pg_sleep(${seconds})`)
    return JSON.parse(r.rows[0][0])[0]['Execution Time']
  } finally {
    await conn.close()
  }
}

const hasPgbench = spawnSync('pgbench', ['--version']).status === 0

// pgbench's median latency (ms) of the script, from its per-transaction log; null without pgbench.
function pgbenchP50Ms (file, args, prefix) {
  if (!hasPgbench) return null
  const r = spawnSync('pgbench', ['-n', '-f', file, ...args.map((a) => a.replace(/s$/, '')), '-l', '--log-prefix', prefix, server.url], { encoding: 'utf8', timeout: 60_000 })
  assert.equal(r.status, 0, r.stderr)
  const dir = join(prefix, '..')
  const logs = readdirSync(dir).filter((f) => join(dir, f).startsWith(prefix))
  const us = logs.flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => Number(l.split(' ')[2]))).sort((a, b) => a - b)
  return us[Math.floor(us.length / 2)] / 1000
}

for (const [seconds, args] of [[0.05, ['-c', '2', '-T', '3s']], [0.2, ['-c', '2', '-T', '3s']]]) {
  test(`SELECT pg_sleep(${seconds}): p50 within 1 % + 0.2 ms of pgbench's on the same server (else of ${seconds * 1000} ms)`, async () => {
    const file = join(dir, `sleep-${seconds}.sql`)
    writeFileSync(file, `SELECT pg_sleep(${seconds});\n`)
    const referenceMs = pgbenchP50Ms(file, args, join(dir, `pgbench-${seconds}`)) ?? seconds * 1000
    const out = join(dir, `sleep-${seconds}.json`)
    const r = await runCli(['run', file, '--url', server.url, ...args, '--no-server-stats', '--out', out])
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(readFileSync(out, 'utf8'))
    const t = Object.values(doc.transactions)[0]
    const sleepMs = seconds * 1000
    assert.ok(t.count >= 2 * Math.floor(2.5 / seconds), `${t.count} transactions`)
    const tolerance = 0.01 * sleepMs + 0.2
    const p50 = t.latencyMs.p50
    if (Math.abs(p50 - referenceMs) > tolerance) {
      assert.fail(`p50 ${p50} ms, ${referenceMs} ms (${hasPgbench ? 'pgbench\'s p50' : 'the sleep'}) +- ${tolerance}; the server's own execution time of the sleep: ${await serverSleepMs(seconds)} ms`)
    }
    assert.ok(p50 >= sleepMs, `p50 ${p50} ms below the sleep itself`)
  })
}
