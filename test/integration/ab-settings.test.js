// `pgload ab` against pgload's embedded server (in a temporary PGLOAD_HOME, so it can be
// restarted): a user, a sighup and a postmaster parameter are applied, verified and restored,
// also when the run is interrupted with SIGINT.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync, readdirSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer, stopServer, serverStatus } from '../../lib/server/embedded/embedded-server.js'
import { binaries } from '../../lib/server/embedded/cluster.js'
import { userInfo } from 'node:os'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { runBenchmark } from '../../lib/session/run-benchmark.js'
import { AbRunner } from '../../lib/orchestration/ab/runner.js'
import { parseSettingList } from '../../lib/orchestration/ab/settings.js'
import { runOptionsFromRest } from '../../lib/cli/ab.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const base = mkdtempSync(join(tmpdir(), 'pgload-ab-'))
chmodSync(base, 0o755) // the server runs as the postgres OS user when the tests run as root
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^PG/.test(k)))
env.PGLOAD_HOME = join(base, 'home')
const script = join(base, 'one.sql')
writeFileSync(script, 'SELECT 1;\n')

const NAMES = ['work_mem', 'checkpoint_completion_target', 'shared_buffers'] // user, sighup, postmaster
const A = 'work_mem=8MB,checkpoint_completion_target=0.5,shared_buffers=64MB'
const B = 'work_mem=64MB,checkpoint_completion_target=0.7,shared_buffers=32MB'
let originals

async function serverState () {
  const s = await startServer({ env }) // already running: reused
  const conn = await openConnection(s.target, { protocol: 'simple' })
  try {
    const show = {}
    for (const n of NAMES) show[n] = (await conn.simpleQuery(`SHOW ${n}`)).rows[0][0]
    const auto = (await conn.simpleQuery("SELECT name FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'")).rows.map(r => r[0])
    const pending = (await conn.simpleQuery('SELECT name FROM pg_settings WHERE pending_restart')).rows.map(r => r[0])
    return { show, auto, pending }
  } finally {
    await conn.close()
  }
}

before(async () => {
  await startServer({ env })
  originals = (await serverState()).show
})

after(async () => {
  await stopServer({ env }).catch(() => {})
  rmSync(base, { recursive: true, force: true })
})

test('ab applies user, sighup and postmaster settings per side, verifies them, and restores them', async () => {
  assert.deepEqual(originals, { work_mem: '4MB', checkpoint_completion_target: '0.9', shared_buffers: '128MB' })
  const seen = []
  const events = []
  const runOptions = await runOptionsFromRest(['run', script, '-c', '1', '-T', '1s', '-n', '--no-server-stats'])
  const runner = new AbRunner({
    a: parseSettingList(A, '--a'),
    b: parseSettingList(B, '--b'),
    rounds: 1,
    order: 'abba',
    outDir: join(base, 'out1'),
    runOptions,
    env,
    onEvent: (name, info) => events.push([name, info]),
    // What the run's connections see: open one exactly as runBenchmark will, then run for real.
    async runBenchmark (options, hooks) {
      const conn = await openConnection(resolveTarget({ url: options.url, env: hooks.env }), { protocol: 'simple' })
      const show = {}
      for (const n of NAMES) show[n] = (await conn.simpleQuery(`SHOW ${n}`)).rows[0][0]
      await conn.close()
      seen.push(show)
      return runBenchmark(options, hooks)
    }
  })
  const outcome = await runner.run()
  assert.equal(outcome.restored, true)
  assert.deepEqual(outcome.sequence, ['A', 'B'])
  assert.deepEqual(seen, [
    { work_mem: '8MB', checkpoint_completion_target: '0.5', shared_buffers: '64MB' },
    { work_mem: '64MB', checkpoint_completion_target: '0.7', shared_buffers: '32MB' }
  ])
  const plan = events.find(([n]) => n === 'plan')[1].servers[0].plan
  assert.deepEqual(plan.map(p => [p.name, p.method]), [['work_mem', 'session'], ['checkpoint_completion_target', 'reload'], ['shared_buffers', 'restart']])
  assert.equal(events.filter(([n]) => n === 'restart').length, 3) // for A, for B, to restore
  assert.equal(outcome.runs.length, 2)
  for (const r of outcome.runs) {
    assert.ok(existsSync(r.file))
    assert.ok(r.results.summary.transactions > 0)
    // Named as the file is (01-A), then the settings, so that reports and comparisons tell A from B.
    assert.equal(r.results.run.label, `${basename(r.file, '.json')} ${(r.side === 'A' ? A : B).split(',').join(' ')}`)
  }
  const state = await serverState()
  assert.deepEqual(state.show, originals)
  assert.deepEqual(state.auto.filter(n => NAMES.includes(n)), [])
  assert.deepEqual(state.pending, [])
})

test('ab refuses a restart-only parameter it cannot restart, before changing anything', async () => {
  const s = await startServer({ env })
  const { config } = s.target
  const url = `postgres://${config.user}:${encodeURIComponent(config.password)}@${config.host}:${config.port}/${config.database}`
  const runOptions = await runOptionsFromRest(['run', script, '-c', '1', '-T', '1s', '-n', '--no-server-stats', '--url', url])
  const runner = new AbRunner({
    a: parseSettingList('checkpoint_completion_target=0.5', '--a'),
    b: parseSettingList('shared_buffers=32MB', '--b'),
    outDir: join(base, 'out2'),
    runOptions,
    env,
    runBenchmark: () => { throw new Error('must not run') }
  })
  await assert.rejects(runner.run(), (err) => {
    assert.match(err.message, /shared_buffers takes effect only after a server restart/)
    assert.match(err.hint, /--restart-command/)
    return true
  })
  assert.deepEqual((await serverState()).show, originals)
})

test('another server: a restart-only parameter through --restart-command, restored the same way', async () => {
  const s = await startServer({ env })
  const { config } = s.target
  const url = `postgres://${config.user}:${encodeURIComponent(config.password)}@${config.host}:${config.port}/${config.database}`
  const st = await serverStatus({ env })
  const { pg_ctl: pgCtl } = await binaries()
  // pg_ctl restart keeps the port (postmaster.opts); -l keeps the server off our pipes.
  const restart = `${pgCtl} restart -D ${st.dataDir} -w -m fast -l ${st.logFile}`
  const restartCommand = userInfo().uid === 0 ? `runuser -u postgres -- ${restart}` : restart
  const seen = []
  const events = []
  const runOptions = await runOptionsFromRest(['run', script, '-c', '1', '-T', '1s', '--url', url])
  const runner = new AbRunner({
    a: parseSettingList('shared_buffers=64MB', '--a'),
    b: parseSettingList('shared_buffers=32MB,work_mem=16MB', '--b'),
    rounds: 1,
    outDir: join(base, 'out4'),
    runOptions,
    restartCommand,
    env,
    onEvent: (name, info) => events.push([name, info]),
    async runBenchmark (options, hooks) {
      const conn = await openConnection(resolveTarget({ url: options.url, env: hooks.env }), { protocol: 'simple' })
      seen.push([(await conn.simpleQuery('SHOW shared_buffers')).rows[0][0], (await conn.simpleQuery('SHOW work_mem')).rows[0][0]])
      await conn.close()
      return { results: { summary: {} }, file: null, exitCode: 0 }
    }
  })
  const outcome = await runner.run()
  assert.equal(outcome.restored, true)
  assert.deepEqual(seen, [['64MB', '4MB'], ['32MB', '16MB']])
  assert.match(events.find(([n]) => n === 'plan')[1].servers[0].plan.find(p => p.name === 'shared_buffers').how, /--restart-command/)
  assert.equal(events.filter(([n]) => n === 'restart').length, 3)
  const state = await serverState()
  assert.deepEqual(state.show, originals)
  assert.deepEqual(state.pending, [])
})

function registeredInBin () {
  return /['/]ab\.js'/.test(readFileSync(join(root, 'lib', 'cli', 'index.js'), 'utf8'))
}

// Until bin/pgload.js registers `ab`, the same yargs set-up and error mapping as bin/pgload.js.
const HARNESS = `
import yargs from 'yargs'
import ab from './lib/cli/ab.js'
try {
  await yargs(process.argv.slice(1)).command(ab).strictOptions()
    .parserConfiguration({ 'populate--': true, 'boolean-negation': true })
    .fail((m, e) => { throw e ?? new Error(m) }).parseAsync()
} catch (err) {
  process.stderr.write('pgload: ' + err.message + '\\n')
  process.exitCode = err.exitCode ?? 1
}`

test('SIGINT during a run: the run stops, every setting is restored, exit 130', async () => {
  const outDir = join(base, 'out3')
  const args = ['ab', '--a', A, '--b', B, '--rounds', '2', '--out-dir', outDir, '--', 'run', script, '-c', '1', '-T', '30s', '-n', '--no-server-stats']
  const argv = registeredInBin() ? [join(root, 'bin', 'pgload.js'), ...args] : ['--input-type=module', '-e', HARNESS, '--', ...args]
  const child = spawn(process.execPath, argv, { cwd: root, env })
  let stderr = ''
  let signalled = false
  const done = new Promise((resolve) => child.on('close', (code) => resolve(code)))
  child.stdout.resume()
  child.stderr.on('data', (d) => {
    stderr += d
    if (!signalled && /run 1\/4 \(A\)/.test(stderr)) {
      signalled = true
      setTimeout(() => child.kill('SIGINT'), 2000)
    }
  })
  const code = await done
  assert.equal(signalled, true, stderr)
  assert.equal(code, 130, stderr)
  assert.match(stderr, /restored on A and B: work_mem=4MB, checkpoint_completion_target=0.9, shared_buffers=128MB/)
  const files = readdirSync(outDir)
  assert.deepEqual(files, ['01-A.json'])
  const doc = JSON.parse(readFileSync(join(outDir, '01-A.json'), 'utf8'))
  assert.equal(doc.run.interrupted, true)
  assert.ok(doc.run.durationS < 20, `stopped early: ${doc.run.durationS} s`)
  const state = await serverState()
  assert.deepEqual(state.show, originals)
  assert.deepEqual(state.auto.filter(n => NAMES.includes(n)), [])
  assert.deepEqual(state.pending, [])
})

test('a value the server would refuse, for a session, a sighup or a postmaster setting: one line, exit 1, nothing run or changed', async () => {
  const cases = [
    ['--a', 'work_mem=banana', /^pgload: --a: work_mem = "banana": invalid value for parameter "work_mem": "banana"/],
    ['--b', 'checkpoint_completion_target=2', /^pgload: --b: checkpoint_completion_target = "2": out of range 0 \.\. 1\n$/],
    ['--a', 'shared_buffers=banana', /^pgload: --a: shared_buffers = "banana": expected an integer in 8kB, or with a unit\n$/]
  ]
  for (const [flag, setting, pattern] of cases) {
    const outDir = join(base, `refused-${flag.slice(2)}`)
    const other = flag === '--a' ? '--b' : '--a'
    const args = ['ab', flag, setting, other, 'work_mem=8MB', '--rounds', '1', '--out-dir', outDir, '--', 'run', script, '-c', '1', '-T', '1s', '-n', '--no-server-stats']
    const argv = registeredInBin() ? [join(root, 'bin', 'pgload.js'), ...args] : ['--input-type=module', '-e', HARNESS, '--', ...args]
    const child = spawn(process.execPath, argv, { cwd: root, env })
    let stderr = ''
    child.stdout.resume()
    child.stderr.on('data', (d) => { stderr += d })
    const code = await new Promise((resolve) => child.on('close', resolve))
    assert.equal(code, 1, stderr)
    assert.match(stderr, pattern)
    assert.equal(stderr.trim().split('\n').filter((l) => !l.startsWith('hint: ')).length, 1, stderr)
    assert.doesNotMatch(stderr, /internal error/)
    assert.equal(existsSync(outDir) ? readdirSync(outDir).length : 0, 0, 'nothing run')
    const state = await serverState()
    assert.deepEqual(state.show, originals, `${setting}: nothing changed`)
    assert.deepEqual(state.auto.filter(n => NAMES.includes(n)), [])
  }
})
