// Latency is measured, not approximated: scripts that only sleep on the server report a median
// within 1 % + 0.2 ms of the sleep (histogram precision, clock and intended start all included).
// It runs after the rest of the suite, alone: with other tests competing for the CPUs, the wait
// for one after each wake-up is real latency that it would count.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

for (const [seconds, args] of [[0.05, ['-c', '2', '-T', '3s']], [0.2, ['-c', '2', '-T', '3s']]]) {
  test(`SELECT pg_sleep(${seconds}): p50 within 1 % + 0.2 ms of ${seconds * 1000} ms`, async () => {
    const file = join(dir, `sleep-${seconds}.sql`)
    writeFileSync(file, `SELECT pg_sleep(${seconds});\n`)
    const out = join(dir, `sleep-${seconds}.json`)
    const r = await runCli(['run', file, '--url', server.url, ...args, '--no-server-stats', '--out', out])
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(readFileSync(out, 'utf8'))
    const t = Object.values(doc.transactions)[0]
    const sleepMs = seconds * 1000
    assert.ok(t.count >= 2 * Math.floor(2.5 / seconds), `${t.count} transactions`)
    const tolerance = 0.01 * sleepMs + 0.2
    const p50 = t.latencyMs.p50
    if (Math.abs(p50 - sleepMs) > tolerance) {
      assert.fail(`p50 ${p50} ms, ${sleepMs} ms +- ${tolerance}; the server's own execution time of the sleep: ${await serverSleepMs(seconds)} ms`)
    }
    assert.ok(p50 >= sleepMs, `p50 ${p50} ms below the sleep itself`)
  })
}
