// The run plan: defaults, precedence (input > config > workload defaults > DEFAULTS), every
// validation error with the flag it names, frozen, and equal after a JSON round trip.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolvePlan, replan, isPlan } from '../../../lib/plan/resolve.js'
import { DEFAULTS } from '../../../lib/plan/defaults.js'
import { runBenchmark } from '../../../lib/index.js'
import { runPlanFromArgv } from '../../../lib/cli/run.js'

let dir, good, latin1
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgload-plan-'))
  good = join(dir, 'good.sql')
  writeFileSync(good, '\\set aid random(1, 100)\nselect :aid;\n')
  latin1 = join(dir, 'latin1.sql')
  writeFileSync(latin1, Buffer.from([0x73, 0x65, 0x6c, 0x65, 0x63, 0x74, 0x20, 0xe9, 0x3b, 0x0a]))
})
after(() => rmSync(dir, { recursive: true, force: true }))

test('defaults: pgbench\'s tpcb-like, one client, ten transactions, every default of the table', async () => {
  const p = await resolvePlan({})
  assert.equal(p.workload, 'tpcb')
  assert.equal(p.resultName, 'tpcb')
  assert.deepEqual(p.scripts, [{ kind: 'builtin', name: 'tpcb-like', weight: 1 }])
  for (const key of ['clients', 'transactionsPerClient', 'rate', 'latencyLimitMs', 'warmupS', 'intervalS', 'progressS', 'protocol',
    'driver', 'maxTries', 'graceS', 'transactionTimeoutS', 'exitOnAbort', 'connect', 'serverStats', 'writeFile']) {
    assert.equal(p[key], DEFAULTS[key], key)
  }
  assert.equal(p.durationS, undefined)
  assert.deepEqual(p.thresholds, [])
  assert.equal(p.seedGiven, false)
  assert.match(p.seed, /^-?\d+$/)
})

test('TPC-C supplies its own default: a 60 s run instead of ten transactions per client', async () => {
  const p = await resolvePlan({ workload: 'tpcc' })
  assert.equal(p.durationS, 60)
  assert.equal(p.transactionsPerClient, undefined)
  assert.deepEqual(p.scripts, [])
})

test('precedence: input > config > workload defaults > DEFAULTS; the run length comes from one layer', async () => {
  const config = { durationS: 30, rate: 100 }
  const p = await resolvePlan({ workload: 'tpcc' }, { config })
  assert.equal((await resolvePlan({ workload: 'tpcb', clients: '8' }, { config: { ...config, clients: 4 } })).clients, 8, 'input over config')
  assert.equal(p.durationS, 30, 'config over the workload default')
  assert.equal(p.rate, 100)
  assert.equal(p.protocol, DEFAULTS.protocol, 'DEFAULTS last')
  assert.equal((await resolvePlan({ workload: 'tpcc', durationS: '5s' }, { config })).durationS, 5, 'input over config')
  // a count per client in the input replaces the config's duration, never combined with it
  const counted = await resolvePlan({ workload: 'tpcc', transactionsPerClient: 3 }, { config })
  assert.equal(counted.transactionsPerClient, 3)
  assert.equal(counted.durationS, undefined)
  const fromConfig = await resolvePlan({ workload: 'tpcc' }, { config: { transactionsPerClient: 2 } })
  assert.equal(fromConfig.transactionsPerClient, 2, 'config over the workload\'s duration')
  assert.equal(fromConfig.durationS, undefined)
  assert.equal((await resolvePlan({ rate: null }, { config: { rate: 5 } })).rate, 5, 'null is not given')
  const scaled = await resolvePlan({ workloadOptions: { scale: undefined, noVacuum: true } }, { config: { workloadOptions: { scale: 5, noVacuum: false } } })
  assert.equal(scaled.workloadOptions.scale, 5, 'a workload option the input leaves undefined comes from the config')
  assert.equal(scaled.workloadOptions.noVacuum, true)
})

test('values typed or as typed on a command line give the same plan', async () => {
  const typed = await resolvePlan({ clients: 2, durationS: 90, warmupS: 0.5, latencyLimitMs: 20, rate: 50, seed: '7' })
  const texts = await resolvePlan({ clients: '2', durationS: '1.5m', warmupS: '500ms', latencyLimitMs: '20', rate: '50', seed: '7' })
  assert.deepEqual(texts, typed)
})

test('script runs: files carry their text, built-ins their full name, the result is named script', async () => {
  const p = await resolvePlan({ scripts: [{ kind: 'file', spec: `${good}@3` }, { kind: 'builtin', spec: 'se@2' }] })
  assert.equal(p.resultName, 'script')
  assert.deepEqual(p.scripts.map(({ kind, name, weight }) => ({ kind, name, weight })),
    [{ kind: 'file', name: good, weight: 3 }, { kind: 'builtin', name: 'select-only', weight: 2 }])
  assert.match(p.scripts[0].text, /select :aid/)
})

test('frozen all the way down', async () => {
  const p = await resolvePlan({ scripts: [{ kind: 'file', spec: good }], workloadOptions: { define: ['a=1'] }, thresholds: ['p(99) < 50ms'] })
  for (const part of [p, p.scripts, p.scripts[0], p.workloadOptions, p.workloadOptions.define, p.thresholds]) assert.ok(Object.isFrozen(part))
  assert.throws(() => { p.clients = 5 }, TypeError)
  assert.throws(() => { p.workloadOptions.define.a = '2' }, TypeError)
})

test('serialisable: plain data, equal after a JSON round trip, still a plan', async () => {
  const plans = [
    await resolvePlan({}),
    await resolvePlan({ workload: 'tpcc', workloadOptions: { warehouses: 2, wait: false } }),
    await resolvePlan({ scripts: [{ kind: 'file', spec: good }], thinkTime: 'exp:100', transactionTimeoutS: '2s', label: 'x', url: 'postgres://u:p@127.0.0.1/db' })
  ]
  for (const p of plans) {
    const copy = JSON.parse(JSON.stringify(p))
    assert.deepEqual(copy, p)
    assert.ok(isPlan(copy))
    const walk = (v) => {
      assert.ok(['string', 'number', 'boolean', 'object'].includes(typeof v), typeof v)
      if (typeof v === 'object') for (const x of Object.values(v)) walk(x)
    }
    walk(p)
  }
})

test('replan keeps a chosen seed and everything else, and checks the changes', async () => {
  const p = await resolvePlan({ seed: '42', clients: 3, durationS: 2, scripts: [{ kind: 'file', spec: good }] })
  assert.equal(p.seed, '42')
  assert.equal(p.seedGiven, true)
  assert.deepEqual(await replan(p, {}), p)
  const q = await replan(p, { label: 'B', out: join(dir, 'b.json') })
  assert.equal(q.label, 'B')
  assert.equal(q.scripts[0].text, p.scripts[0].text)
  await assert.rejects(replan(p, { label: '' }), { message: /^--label must be one line/ })
  const drawn = await replan(await resolvePlan({}), {})
  assert.equal(drawn.seedGiven, false)
})

test('the library entry checks options as the command line does, before connecting', async () => {
  const expected = { code: 'BAD_OPTION', message: '--clients must be an integer in 1..1000000, got 0' }
  await assert.rejects(runBenchmark({ clients: 0 }), expected)
  await assert.rejects(runPlanFromArgv({ workload: ['tpcb'], clients: '0' }), { ...expected, message: '--clients must be an integer in 1..1000000, got "0"' })
  await assert.rejects(runBenchmark({ durationS: 5, transactionsPerClient: 5 }), { message: /^specify either a number of transactions/ })
})

const ERRORS = [
  [{ workload: 'tpcx' }, 'unknown workload "tpcx": valid workloads are tpcb, tpcc, chbench, or script files ending in .sql'],
  [{ clinets: 2 }, 'unknown run option "clinets"'],
  [{ workloadOptions: { colour: 'red' } }, 'unknown option "colour" of workload tpcb'],
  [{ workload: 'tpcc', scripts: [{ kind: 'builtin', spec: 'select-only' }] }, '--file and --builtin go with tpcb or script files, not with tpcc'],
  [{ scripts: [{ kind: 'file', spec: join('/nonexistent', 'x.sql') }] }, 'could not read script file "/nonexistent/x.sql": no such file'],
  [() => ({ scripts: [{ kind: 'file', spec: latin1 }] }), () => `script file ${JSON.stringify(latin1)} is not valid UTF-8`],
  [{ scripts: Array.from({ length: 129 }, () => ({ kind: 'builtin', spec: 'select-only' })) }, 'at most 128 SQL scripts are allowed'],
  [{ scripts: [{ kind: 'builtin', spec: 'select-only@0' }] }, 'total script weight must not be zero'],
  [{ scripts: [{ kind: 'shell', spec: 'x' }] }, 'a script must be of kind builtin or file, got "shell"'],
  [{ clients: 0 }, '--clients must be an integer in 1..1000000, got 0'],
  [{ durationS: '0s' }, '--duration must be positive, got "0s"'],
  [{ durationS: 'soon' }, '--duration must be a duration like 30s, 10m or 1h, got "soon"'],
  [{ transactionsPerClient: 0 }, '--transactions must be an integer in 1..2147483647, got 0'],
  [{ workloadOptions: { scale: 0 } }, '--scale must be an integer in 1..2147483647, got 0'],
  [{ workloadOptions: { log: true, samplingRate: 2 } }, '--sampling-rate must be in (0, 1], got 2'],
  [{ workloadOptions: { aggregateIntervalS: 0 } }, '--aggregate-interval must be an integer in 1..31536000, got 0'],
  [{ durationS: 5, transactionsPerClient: 5 }, 'specify either a number of transactions (--transactions/-t) or a duration (--duration/-T), not both'],
  [{ workloadOptions: { samplingRate: 0.5 } }, '--sampling-rate needs --log'],
  [{ workloadOptions: { log: true, samplingRate: 0.5, aggregateIntervalS: 1 } }, '--sampling-rate and --aggregate-interval cannot be used at the same time'],
  [{ workloadOptions: { aggregateIntervalS: 1 } }, '--aggregate-interval needs --log'],
  [{ workloadOptions: { logPrefix: 'x' } }, '--log-prefix needs --log'],
  [{ durationS: 2, workloadOptions: { log: true, aggregateIntervalS: 3 } }, '--aggregate-interval (3 s) must not be higher than --duration (2 s)'],
  [{ durationS: 5, workloadOptions: { log: true, aggregateIntervalS: 2 } }, '--duration (5 s) must be a multiple of --aggregate-interval (2 s)'],
  [{ progressTimestamp: true }, '--progress-timestamp is allowed only under --progress'],
  [{ rate: 0 }, '--rate must be a number > 0 and <= 10000000, got 0'],
  [{ latencyLimitMs: 10 }, '--latency-limit needs --rate: the limit is measured against the schedule that --rate sets'],
  [{ thinkTime: 'later' }, '--think-time must be fixed:MS, uniform:MIN-MAX or exp:MEAN[:CAP] (milliseconds), got "later"'],
  [{ thinkTime: 'fixed:5', rate: 10 }, '--think-time and --rate cannot be combined: --rate already sets when each transaction starts'],
  [{ protocol: 'binary' }, '--protocol must be one of simple, extended, prepared, got "binary"'],
  [{ driver: 'libpq' }, '--driver must be one of lean, pg, got "libpq"'],
  [{ maxTries: -1 }, '--max-tries must be an integer in 0..2147483647, got -1'],
  [{ maxTries: 0 }, 'an unlimited number of transaction tries (--max-tries 0) needs --latency-limit or --duration'],
  [{ connections: 0 }, '--connections must be an integer in 1..1000000, got 0'],
  [{ progressS: 0 }, '--progress must be an integer in 1..31536000, got 0'],
  [{ warmupS: 'x' }, '--warmup must be a duration like 30s, 10m or 1h, got "x"'],
  [{ intervalS: 0 }, '--interval must be a duration of at least 0.01 s, got 0'],
  [{ graceS: 'soon' }, '--grace must be a duration like 30s, 10m or 1h, got "soon"'],
  [{ transactionTimeoutS: '0s' }, '--transaction-timeout must be positive, got "0s"'],
  [{ jobs: 0 }, '--jobs must be an integer in 1..256, got 0'],
  [{ exitOnAbort: 'yes' }, '--exit-on-abort must be true or false, got "yes"'],
  [{ workloadOptions: { define: ['x'] } }, 'invalid variable definition: "x"'],
  [{ workload: 'tpcc', workloadOptions: { warehouses: 0 } }, '--warehouses must be an integer in 1..100000, got 0'],
  [{ url: '' }, '--url needs a connection string, got ""'],
  [{ out: '' }, '--out needs a file name, got ""'],
  [{ label: 'two\nlines' }, '--label must be one line of 1 to 80 characters, got "two\\nlines"'],
  [{ thresholds: ['tps > -5%'] }, "--threshold 'tps > -5%': a relative threshold needs a baseline; check it after the run with pgload check RESULT.json --baseline BASE.json"],
  [{ seed: 'soon' }, 'unrecognized random seed option "soon"']
]

for (const [input, message] of ERRORS) {
  const shown = typeof input === 'function' ? 'a latin-1 script file' : JSON.stringify(input).slice(0, 90)
  test(`refused: ${shown}`, async () => {
    const m = typeof message === 'function' ? message() : message
    await assert.rejects(resolvePlan(typeof input === 'function' ? input() : input), (err) => {
      assert.equal(err.name, 'PgloadError')
      assert.equal(err.message, m)
      assert.equal(err.exitCode, 1)
      return true
    })
  })
}

test('a workload with its own number of terminals (tpcc) refuses --clients, given or from a config, in one line', async () => {
  for (const [input, config] of [[{ workload: 'tpcc', clients: '4' }, undefined], [{ workload: 'tpcc' }, { clients: 4 }]]) {
    await assert.rejects(resolvePlan(input, { config }), (err) => {
      assert.equal(err.message, '-c/--clients does not apply to tpcc: it drives 10 terminals per warehouse')
      assert.equal(err.hint, '--warehouses N drives 10 N terminals; --connections sets the connections they share')
      return true
    })
  }
})

test('--interval takes a duration with its unit, as -T and --grace do', async () => {
  assert.equal((await resolvePlan({ intervalS: '0.5s' })).intervalS, 0.5)
  assert.equal((await resolvePlan({ intervalS: '250ms' })).intervalS, 0.25)
  assert.equal((await resolvePlan({ intervalS: '2' })).intervalS, 2)
})
