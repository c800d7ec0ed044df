// Ctrl-C and SIGTERM, the same for every command that runs benchmarks (run, capacity, sweep, ab):
// before the run started pgload exits at once (130 after SIGINT, 143 after SIGTERM) in one line and
// writes nothing; during it the first signal stops with the grace, a second aborts at once, and what
// was measured is written, marked interrupted; 143 when a SIGTERM was among the signals. No stack trace.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, collectOutput } from '../helpers/cli.js'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { readResults } from '../../lib/results/read.js'

const root = mkdtempSync(join(tmpdir(), 'pgload-signals-'))
// Every pgload of this file ends within this, or it is killed and its case fails; one stopped
// before its run has nothing to finish, so it gets less (a command that waits for the server to
// answer instead of exiting at once is killed, as the held connection never answers).
const KILL_AFTER_MS = 40_000
const KILL_BEFORE_MS = 20_000
// The transaction each run has in flight when the signal comes: long enough that a second signal
// sent a moment after the first finds the run still finishing it.
const IN_FLIGHT_S = 3
const SECOND_SIGNAL_AFTER_MS = 300

let server
let watcher
let holder
before(async () => {
  server = await getTestServer()
  watcher = await openConnection(server.target)
  holder = await startHoldingServer()
})
after(async () => {
  holder?.close()
  await watcher?.close()
  rmSync(root, { recursive: true, force: true })
})

/**
 * A server on loopback that accepts connections and never answers: a command pointed at it is
 * reaching the server for as long as the test likes. `accepted` resolves at the next connection.
 */
async function startHoldingServer () {
  const sockets = new Set()
  let onAccept = null
  const srv = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
    onAccept?.()
  })
  await new Promise((resolve, reject) => { srv.once('error', reject); srv.listen(0, '127.0.0.1', resolve) })
  const url = new URL(server.url)
  url.port = String(srv.address().port)
  // a connect timeout beyond the kill timers: only a signal ends the wait
  url.searchParams.set('connect_timeout', '300')
  return {
    url: url.toString(),
    accepted: () => new Promise((resolve) => { onAccept = () => { onAccept = null; resolve() } }),
    close () { for (const s of sockets) s.destroy(); srv.close() }
  }
}

/** Each command's arguments for a run of one client executing `script` against `url`, its output under `dir`. */
const COMMANDS = {
  run: (script, url, dir) => ['run', script, '-c', '1', '-T', '20s', '-n', '--no-server-stats', '--url', url, '-o', join(dir, 'results.json')],
  capacity: (script, url, dir) => ['capacity', script, '-c', '1', '--until', 'p(99) < 60s', '--step', '4s', '--start-rate', '1', '-n',
    '--no-server-stats', '--url', url, '-o', join(dir, 'results.json')],
  sweep: (script, url, dir) => ['sweep', script, '--clients', '1,2', '--repeat', '1', '-T', '20s', '--warmup', '0', '-n', '--no-server-stats',
    '--url', url, '--dir', join(dir, 'sweep')],
  ab: (script, url, dir) => ['ab', '--aa', '--rounds', '2', '--out-dir', join(dir, 'ab'), '--', 'run', script, '-c', '1', '-T', '20s', '-n',
    '--no-server-stats', '--url', url]
}

/**
 * The results documents a command wrote under `dir` (run and capacity: its -o file; sweep: the
 * files of its runs the sweep document names; ab: every run's file in its out-dir), and the
 * sweep document when there is one.
 */
function writtenResults (command, dir) {
  if (command === 'run' || command === 'capacity') {
    const file = join(dir, 'results.json')
    return { files: existsSync(file) ? [file] : [], sweep: null }
  }
  if (command === 'sweep') {
    const docFile = join(dir, 'sweep', 'sweep.json')
    const sweep = existsSync(docFile) ? JSON.parse(readFileSync(docFile, 'utf8')) : null
    const runsDir = join(dir, 'sweep', 'runs')
    const files = existsSync(runsDir) ? readdirSync(runsDir).filter((f) => f.endsWith('.json')).map((f) => join(runsDir, f)) : []
    return { files, sweep }
  }
  const outDir = join(dir, 'ab')
  const files = existsSync(outDir) ? readdirSync(outDir).filter((f) => /^\d+-[AB]\.json$/.test(f)).sort().map((f) => join(outDir, f)) : []
  return { files, sweep: null }
}

/** Resolves once a backend of the test server runs a statement holding `marker`, or `child` exits. */
async function runningStatement (marker, child) {
  while (child.exitCode === null && child.signalCode === null) {
    const r = await watcher.query(
      "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND position($1 in query) > 0", [marker])
    if (Number(r.rows[0][0]) > 0) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

let cases = 0

/**
 * Start `command`, send `signals` at `when` ('before': as it reaches the server; 'during': once its
 * run has a transaction in flight, a second signal a moment after the first), and collect its exit.
 */
async function interrupt (command, when, signals) {
  const dir = mkdtempSync(join(root, `${command}-`))
  const marker = `signal-case-${++cases}`
  const script = join(dir, 'sleep.sql')
  writeFileSync(script, `SELECT '${marker}', pg_sleep(${IN_FLIGHT_S});\n`)
  const url = when === 'before' ? holder.url : server.url
  const accepted = when === 'before' ? holder.accepted() : null
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')))
  const child = spawn(process.execPath, [BIN, ...COMMANDS[command](script, url, dir)], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = collectOutput(child, when === 'before' ? KILL_BEFORE_MS : KILL_AFTER_MS)
  let stderrAtSignal = null
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  const sent = []
  const send = (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    if (stderrAtSignal === null) stderrAtSignal = stderr.length
    child.kill(signal)
    sent.push(signal)
  }
  const reached = when === 'before'
    ? await Promise.race([accepted.then(() => true), exited.then(() => false)])
    : await runningStatement(marker, child)
  if (reached) {
    send(signals[0])
    if (signals.length > 1) setTimeout(() => send(signals[1]), SECOND_SIGNAL_AFTER_MS)
  }
  const r = await exited
  return { ...r, dir, sent, reached, after: r.stderr.slice(stderrAtSignal ?? r.stderr.length) }
}

/** The exit status the policy gives: 143 when a SIGTERM was among the signals, else 130. */
const expectedCode = (signals) => signals.includes('SIGTERM') ? 143 : 130

function assertExit (r, signals, what) {
  const killed = r.signal === 'SIGKILL' ? ' (still running at the kill timer: it waited instead of stopping)' : ''
  const say = `${what}: signals sent ${r.sent.join(', ') || 'none'}; exit ${r.code ?? r.signal}${killed}\n${r.stderr}`
  assert.equal(r.reached, true, `${what}: never got to the point of the signal\n${r.stderr}`)
  assert.deepEqual(r.sent, signals, `${what}: pgload had exited before every signal was sent\n${say}`)
  assert.equal(r.code, expectedCode(signals), say)
  assert.doesNotMatch(r.stderr, /^\s+at /m, `no stack trace\n${r.stderr}`)
}

for (const command of Object.keys(COMMANDS)) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    test(`${command}: ${signal} before the run started: exit ${expectedCode([signal])} at once, one line, nothing written`, { timeout: KILL_BEFORE_MS + 10_000 }, async () => {
      const r = await interrupt(command, 'before', [signal])
      assertExit(r, [signal], `${command} ${signal} before`)
      const said = r.after.split('\n').filter((l) => l !== '' && !l.startsWith('hint: '))
      assert.equal(said.length, 1, `one line after the signal, got:\n${r.after}`)
      assert.match(said[0], /^pgload/)
      const { files, sweep } = writtenResults(command, r.dir)
      assert.deepEqual(files, [], 'no results file')
      // the sweep's document is written before its first run (it is what --resume reads): no run in it may have an outcome
      if (sweep) assert.deepEqual(sweep.runs.filter((x) => x.status !== 'pending'), [], 'no run of the sweep recorded')
    })
  }

  for (const signals of [['SIGINT'], ['SIGTERM'], ['SIGINT', 'SIGINT'], ['SIGINT', 'SIGTERM']]) {
    const what = signals.length === 1 ? `${signals[0]} during the run` : `${signals.join(' then ')} during the run`
    test(`${command}: ${what}: exit ${expectedCode(signals)}, what was measured written and marked interrupted`, { timeout: KILL_AFTER_MS + 10_000 }, async () => {
      const r = await interrupt(command, 'during', signals)
      assertExit(r, signals, `${command} ${what}`)
      const { files, sweep } = writtenResults(command, r.dir)
      assert.ok(files.length > 0, `a results file was written\n${r.stderr}`)
      const docs = []
      for (const file of files) docs.push(await readResults(file))
      // the run the signal came in is the last one written, and no run started after it
      assert.equal(docs.at(-1).run.interrupted, true, 'the results say the run was interrupted')
      assert.deepEqual(docs.slice(0, -1).filter((d) => d.run.interrupted), [], 'one run interrupted, the last')
      const { summary } = docs.at(-1)
      if (signals.length === 1) {
        // the first signal stops with the grace: the transaction in flight finishes and is counted
        assert.ok(summary.transactions >= 1, `the transaction in flight finished in the grace: ${JSON.stringify(summary)}`)
      } else {
        // the second aborts at once: the transaction in flight is cancelled, not waited for
        assert.ok(summary.unfinished + summary.outcomeUnknown >= 1, `the transaction in flight was cancelled: ${JSON.stringify(summary)}`)
      }
      if (command === 'sweep') {
        assert.deepEqual(sweep.runs.map((x) => x.status).sort(), ['interrupted', 'pending'], 'the sweep document records the interrupted run, no other run started')
      }
      if (command === 'ab') assert.equal(files.length, 1, 'no run starts after the signal')
    })
  }
}
