// Several servers in one connection string against a real primary and streaming standby:
// target_session_attrs and load_balance_hosts, with both drivers, a closed port first; and the
// server each target_session_attrs value picks, against what libpq's psql picks.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { openConnection } from '../../lib/db/connection.js'
import { openLeanConnection } from '../../lib/db/lean-connection.js'
import { freePort } from '../../lib/server/embedded/cluster.js'
import { startStandbyPair, haveStandbyBinaries } from '../helpers/standby-pair.js'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'

const skip = haveStandbyBinaries() ? false : 'PostgreSQL 15 binaries are not installed'
const DRIVERS = { lean: openLeanConnection, pg: openConnection }
const PSQL = '/usr/lib/postgresql/15/bin/psql' // libpq 15: every target_session_attrs value
const execFileAsync = promisify(execFile)
let pair
let closedPort

before(async () => {
  if (skip) return
  pair = await startStandbyPair()
  closedPort = await freePort()
}, { timeout: 120000 })

after(() => pair?.stop())

const url = (attrs, extra = '') => `host=127.0.0.1,127.0.0.1,127.0.0.1 port=${closedPort},${pair.standbyPort},${pair.primaryPort} ` +
  `user=postgres dbname=postgres sslmode=disable connect_timeout=5 target_session_attrs=${attrs} ${extra}`

async function chosenPort (open, text) {
  const conn = await open(resolveTarget({ url: text, env: {} }), { protocol: 'simple' })
  try {
    const r = await conn.simpleQuery('SELECT pg_is_in_recovery()')
    return { port: conn.server.port, recovery: String(r.rows[0][0]), position: conn.server.position }
  } finally {
    await conn.close()
  }
}

for (const [name, open] of Object.entries(DRIVERS)) {
  test(`${name}: read-write reaches the primary, standby the standby, past a closed port`, { skip, timeout: 60000 }, async () => {
    assert.deepEqual(await chosenPort(open, url('read-write')), { port: pair.primaryPort, recovery: 'f', position: 3 })
    assert.deepEqual(await chosenPort(open, url('standby')), { port: pair.standbyPort, recovery: 't', position: 2 })
    assert.equal((await chosenPort(open, url('any'))).port, pair.standbyPort)
  })

  test(`${name}: load_balance_hosts=random spreads 40 connections over both servers`, { skip, timeout: 60000 }, async () => {
    const counts = new Map()
    const text = `host=127.0.0.1,127.0.0.1 port=${pair.standbyPort},${pair.primaryPort} user=postgres dbname=postgres sslmode=disable load_balance_hosts=random`
    for (let i = 0; i < 40; i++) {
      const { port } = await chosenPort(open, text)
      counts.set(port, (counts.get(port) ?? 0) + 1)
    }
    assert.equal(counts.size, 2)
    for (const n of counts.values()) assert.ok(n >= 5, `each server got at least 5 of 40: ${[...counts.values()]}`)
  })
}

test('prefer-standby with the standby stopped takes the primary; standby then fails in one line', { skip, timeout: 60000 }, async () => {
  await pair.stopStandby()
  try {
    for (const open of Object.values(DRIVERS)) {
      assert.equal((await chosenPort(open, url('prefer-standby'))).port, pair.primaryPort)
      await assert.rejects(chosenPort(open, url('standby')), (err) =>
        err.message === `no server matches target_session_attrs=standby: 127.0.0.1:${closedPort} refused, 127.0.0.1:${pair.standbyPort} refused, 127.0.0.1:${pair.primaryPort} read-write primary`)
    }
  } finally {
    await pair.startStandby()
  }
})

/** The port libpq's psql reaches with this connection string. */
async function psqlPort (text) {
  const { stdout } = await execFileAsync(PSQL, [text, '-X', '-A', '-t', '-c', 'select inet_server_port()'], { timeout: 30000, env: { ...process.env, PGCONNECT_TIMEOUT: '5' } })
  return Number(stdout.trim())
}

test('every target_session_attrs value, hosts in either order: both drivers reach the server libpq\'s psql reaches', { skip: skip || (!existsSync(PSQL) && 'psql is not installed'), timeout: 120000 }, async () => {
  const orders = [[closedPort, pair.standbyPort, pair.primaryPort], [closedPort, pair.primaryPort, pair.standbyPort]]
  for (const ports of orders) {
    for (const attrs of ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby']) {
      const text = `host=127.0.0.1,127.0.0.1,127.0.0.1 port=${ports.join(',')} user=postgres dbname=postgres sslmode=disable connect_timeout=5 target_session_attrs=${attrs}`
      const expected = await psqlPort(text)
      for (const [name, open] of Object.entries(DRIVERS)) {
        assert.equal((await chosenPort(open, text)).port, expected, `${name}, ports ${ports.join(',')}, target_session_attrs=${attrs}`)
      }
    }
  }
})
