// The JIT warm-up: the workload's twin runs against the stand-in server, and the workload of the
// run itself is left as it was (generators, per-command statistics, --log).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileScript, scriptWorkload, findBuiltin } from '../../../lib/script/index.js'
import { warmDriver } from '../../../lib/engine/driver-warmup.js'
import { openLeanConnection } from '../../../lib/db/lean-connection.js'
import { openConnection } from '../../../lib/db/connection.js'

function builtinWorkload (name, protocol, extra = {}) {
  const b = findBuiltin(name)
  const compiled = [compileScript({ name: b.name, text: b.script, weight: 1, desc: b.desc }, { protocol })]
  return scriptWorkload(compiled, { clients: 3, randomSeed: 42n, usesBuiltin: true, reportPerCommand: true, ...extra })
}

function customWorkload (text) {
  return scriptWorkload([compileScript({ name: 'custom', text }, { protocol: 'prepared' })], { clients: 1, randomSeed: 1n })
}

for (const [driver, open] of [['lean', openLeanConnection], ['pg', openConnection]]) {
  test(`${driver} driver: the twin runs transactions; the run's generators, statistics and log are untouched`, async () => {
    const logged = []
    const w = builtinWorkload('tpcb-like', 'prepared', { pgbenchLog: { write: (line) => logged.push(line) } })
    const states = w.seeds.clientPrngs.map((p) => p.getState())
    const choose = w.seeds.choose.getState()
    const warm = await warmDriver(w, { open, protocol: 'prepared', ms: 150, clients: 2 })
    assert.ok(warm !== null, 'a built-in script is warmed up')
    assert.ok(warm.transactions > 10, `only ${warm.transactions} transactions`)
    assert.ok(warm.ms >= 150)
    assert.deepEqual(w.seeds.clientPrngs.map((p) => p.getState()), states)
    assert.deepEqual(w.seeds.choose.getState(), choose)
    assert.equal(logged.length, 0)
    const { script } = await w.afterRun()
    for (const c of Object.values(script)[0].commands) assert.equal(c.count, 0, `command at line ${c.line} counted`)
  })
}

test('the twin has the run workload\'s own properties in the same order (what its creator added too)', () => {
  const w = builtinWorkload('select-only', 'prepared')
  w.name = 'tpcb'
  w.scale = 10
  const twin = w.warmupTwin(2)
  assert.deepEqual(Object.keys(twin), Object.keys(w))
  assert.equal(twin.scale, 10)
  assert.notEqual(twin.seeds, w.seeds)
  assert.notEqual(twin.transactions, w.transactions)
})

test('with the run target\'s password, the connections authenticate with SCRAM-SHA-256 as against the server', async () => {
  const target = { config: { host: 'unused', port: 1, user: 'someone', database: 'db', password: 'sécret pass', ssl: false }, display: 'x', embedded: false }
  for (const open of [openLeanConnection, openConnection]) {
    const warm = await warmDriver(builtinWorkload('select-only', 'prepared'), { open, target, protocol: 'prepared', ms: 60, clients: 1 })
    assert.ok(warm?.transactions > 0, JSON.stringify(warm))
  }
})

test('no warm-up for a TLS target: its connections\' code is not the stand-in\'s', async () => {
  const target = { config: { host: 'db', port: 5432, user: 'u', database: 'd', ssl: { rejectUnauthorized: false } }, display: 'x', embedded: false }
  assert.equal(await warmDriver(builtinWorkload('select-only', 'prepared'), { open: openLeanConnection, target, ms: 50 }), null)
})

test('every protocol runs against the stand-in server', async () => {
  for (const protocol of ['simple', 'extended', 'prepared']) {
    const warm = await warmDriver(builtinWorkload('simple-update', protocol), { open: openLeanConnection, protocol, ms: 80, clients: 1 })
    assert.ok(warm?.transactions > 0, `${protocol}: ${JSON.stringify(warm)}`)
  }
})

test('no twin for scripts the stand-in cannot answer, with effects outside the database, or that sleep', async () => {
  for (const text of [
    'select 1 as one \\gset\n',
    'select 1 as one \\aset\n',
    '\\shell true\n',
    '\\setshell x echo 1\n',
    'select 1;\n\\sleep 10 s\n',
    'copy t from stdin;\n'
  ]) {
    const w = customWorkload(text)
    assert.equal(w.warmupTwin(1), null, text)
    assert.equal(await warmDriver(w, { open: openLeanConnection, protocol: 'prepared', ms: 50 }), null, text)
  }
  const ok = customWorkload('\\set x random(1, 10)\n\\if :x > 5\nselect :x;\n\\else\nselect 0;\n\\endif\n')
  assert.notEqual(ok.warmupTwin(1), null)
})

test('a workload without a twin, and a zero time, do nothing', async () => {
  assert.equal(await warmDriver({ transactions: [] }, { open: openLeanConnection }), null)
  assert.equal(await warmDriver(builtinWorkload('select-only', 'prepared'), { open: openLeanConnection, ms: 0 }), null)
})

test('a warm-up that fails returns null and says why at debug level', async () => {
  const said = []
  const open = async () => { throw new Error('no connection for you') }
  const warm = await warmDriver(builtinWorkload('select-only', 'prepared'), { open, protocol: 'prepared', ms: 50, log: { debug: (o, m) => said.push([o, m]) } })
  assert.equal(warm, null)
  assert.equal(said.length, 1)
  assert.match(said[0][0].err, /no connection for you/)
})
