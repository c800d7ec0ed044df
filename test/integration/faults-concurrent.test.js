// A user's worst day, part 4: two commands at once on one embedded server, in a fresh pgload
// home. One loads the tables while the other waits for that load (never "an earlier init did not
// finish"); two `init --force` take turns (never a vacuum of a table the other dropped); and the
// last command to end stops the server, whichever started it: no postmaster is left behind.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { runCli } from '../helpers/cli.js'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { serverStatus, stopServer } from '../../lib/server/embedded/embedded-server.js'
import { withLoadLock } from '../../workloads/load-lock.js'

const base = mkdtempSync(join(tmpdir(), 'pgload-faults-concurrent-'))
chmodSync(base, 0o755) // as root the server runs as `postgres`, which must reach the home
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

let homes = 0
/** A fresh pgload home, its server stopped and its directory removed at the end. */
function freshHome () {
  const env = { PGLOAD_HOME: join(base, `home${homes++}`) }
  after(() => stopServer({ env: { ...process.env, ...env } }).catch(() => {}))
  return env
}
after(() => rmSync(base, { recursive: true, force: true }))

/** The postmasters running on a data directory under this home (from the process list). */
function postmastersOf (home) {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
  return ps.stdout.split('\n').filter((line) => /postgres|postmaster/.test(line) && line.includes(` -D ${home}/`))
}

async function assertNoServerLeft (env) {
  const st = await serverStatus({ env: { ...process.env, ...env } })
  assert.equal(st.running, false, `the embedded server is still running (pid ${st.pid}): ${JSON.stringify(st)}`)
  // pg_ctl stop waits for the postmaster, but leave it a moment to vanish from the process list
  for (let i = 0; i < 20 && postmastersOf(env.PGLOAD_HOME).length > 0; i++) await sleep(100)
  assert.deepEqual(postmastersOf(env.PGLOAD_HOME), [], 'a postmaster of this home is left')
}

const together = (env, argsOf) => Promise.all([0, 1].map((i) => runCli(argsOf(i), { env, timeoutMs: 120_000 })))
let outputs = 0
const runArgs = () => ['run', 'tpcb', '--scale', '1', '-T', '2', '--no-server-stats', '-o', join(base, `run-${outputs++}.json`)]

test('a fresh home, two `run tpcb --scale 1` at once: one loads, the other waits for it; both run; no server left', async () => {
  const env = freshHome()
  const rs = await together(env, runArgs)
  for (const r of rs) {
    assert.equal(r.code, 0, r.stderr)
    assert.doesNotMatch(r.stderr, /did not finish|incomplete/, r.stderr)
    assert.match(r.stdout, /number of transactions actually processed: [1-9]/)
  }
  assert.equal(rs.filter((r) => /loading them first/.test(r.stderr)).length, 1, 'one of them loads the tables')
  await assertNoServerLeft(env)
})

test('tables loaded, two runs at once: both succeed, and the last to end stops the server it did not start', async () => {
  const env = freshHome()
  const init = await runCli(['init', 'tpcb', '--scale', '1'], { env, timeoutMs: 120_000 })
  assert.equal(init.code, 0, init.stderr)
  // three times: which run ends last varies
  for (let round = 0; round < 3; round++) {
    const rs = await together(env, runArgs)
    for (const r of rs) assert.equal(r.code, 0, r.stderr)
    assert.ok(rs.every((r) => !/leaving the embedded server running/.test(r.stderr)), rs.map((r) => r.stderr).join('\n'))
    await assertNoServerLeft(env)
  }
})

test('two `init tpcb --force` at once: the second waits for the first, both load, the tables are whole; no server left', async () => {
  const env = freshHome()
  const first = await runCli(['init', 'tpcb', '--scale', '1'], { env, timeoutMs: 120_000 })
  assert.equal(first.code, 0, first.stderr)
  const rs = await together(env, () => ['init', 'tpcb', '--scale', '2', '--force'])
  for (const r of rs) {
    assert.equal(r.code, 0, r.stderr)
    assert.doesNotMatch(r.stderr, /failed|does not exist/, r.stderr)
  }
  const check = await runCli(['run', 'tpcb', '-t', '5', '--no-server-stats', '-o', join(base, 'after-init.json')], { env, timeoutMs: 120_000 })
  assert.equal(check.code, 0, check.stderr)
  assert.match(check.stdout, /scaling factor: 2/)
  await assertNoServerLeft(env)
})

test('the load lock: a second session waits (told once) until the first one\'s load ends', async () => {
  const server = await getTestServer()
  const a = await openConnection(server.target, { protocol: 'simple' })
  const b = await openConnection(server.target, { protocol: 'simple' })
  try {
    const order = []
    let finishFirst
    const firstHolds = new Promise((resolve) => { finishFirst = resolve })
    let firstIn
    const firstInside = new Promise((resolve) => { firstIn = resolve })
    const first = withLoadLock(a, 'lock-test', async () => { order.push('first in'); firstIn(); await firstHolds; order.push('first out') })
    await firstInside
    let waits = 0
    const second = withLoadLock(b, 'lock-test', async () => { order.push('second in') }, { onWait: () => { waits++ } })
    await sleep(300)
    assert.deepEqual(order, ['first in'], 'the second must not enter while the first holds the lock')
    finishFirst()
    await Promise.all([first, second])
    assert.deepEqual(order, ['first in', 'first out', 'second in'])
    assert.equal(waits, 1)
    // released after a failure too
    await assert.rejects(withLoadLock(a, 'lock-test', async () => { throw new Error('load failed') }), /load failed/)
    let waitedAgain = 0
    await withLoadLock(b, 'lock-test', async () => {}, { onWait: () => { waitedAgain++ } })
    assert.equal(waitedAgain, 0)
  } finally {
    await a.close()
    await b.close()
  }
})

test('init waiting for another load: it says so, and Ctrl-C there stops it in one line, having changed nothing', async () => {
  const server = await getTestServer()
  const holder = await openConnection(server.target, { protocol: 'simple' })
  let release
  const held = new Promise((resolve) => { release = resolve })
  let inside
  const holding = new Promise((resolve) => { inside = resolve })
  const lock = withLoadLock(holder, 'tpcb', async () => { inside(); await held })
  try {
    await holding
    const r = await runCli(['init', 'tpcb', '--force', '--url', server.url], {
      timeoutMs: 60_000,
      onSpawn (child) {
        let err = ''
        child.stderr.on('data', (d) => {
          err += d
          if (/waiting for it to finish/.test(err) && !child.killed) child.kill('SIGINT')
        })
      }
    })
    assert.equal(r.code, 130, r.stderr)
    assert.match(r.stderr, /^another pgload is loading the tpcb tables in this database: waiting for it to finish$/m)
    assert.match(r.stderr, /^pgload: init interrupted while waiting for another pgload's load of the tpcb tables: this one changed nothing$/m)
    assert.doesNotMatch(r.stderr, /dropping/)
  } finally {
    release()
    await lock
    await holder.close()
  }
})
