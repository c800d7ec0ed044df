// The connector seam (lib/db/connector.js) and the transport seam (lib/db/transport.js), as the
// benches use them: an installed connector opens every connection of the thread, whatever the
// driver; a lean connection runs its start-up and statements over any transport.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { installConnector, installedConnector } from '../../../lib/db/connector.js'
import { openConnection, defineStatement } from '../../../lib/db/connection.js'
import { openLeanConnection } from '../../../lib/db/lean-connection.js'
import { connectInMemory } from '../../../bench/lib/wire-connections.js'

// importing the bench module installed its connector: this file tests it by hand
installConnector(null)
const target = { config: { host: '127.0.0.1', port: 1, user: 'u', database: 'd' }, display: 'nowhere', embedded: false }

test('an installed connector opens every connection, with the options asked for; none installed, the drivers do', async (t) => {
  const calls = []
  installConnector(async (tg, opts) => { calls.push([tg, opts]); return { fake: calls.length } })
  t.after(() => installConnector(null))
  assert.deepEqual(await openConnection(target, { protocol: 'simple', applicationName: 'x' }), { fake: 1 })
  assert.deepEqual(await openLeanConnection(target, { protocol: 'extended' }), { fake: 2 })
  assert.equal(calls[0][0], target)
  assert.deepEqual(calls[0][1], { applicationName: 'x', protocol: 'simple', connectTimeoutMs: undefined })
  assert.equal(calls[1][1].protocol, 'extended')
  installConnector(null)
  assert.equal(installedConnector(), null)
  // the real driver now: nothing listens on port 1
  await assert.rejects(openLeanConnection(target, { connectTimeoutMs: 2000 }), (err) => err.code === 'ECONNREFUSED')
})

test('a lean connection on an in-memory transport: start-up, statements, close, as on a socket', async (t) => {
  installConnector(async () => assert.fail('a caller that gives its transport is not redirected'))
  t.after(() => installConnector(null))
  const conn = await openLeanConnection(target, { connect: connectInMemory })
  assert.equal(conn.backendPid, 1)
  assert.equal(conn.transactionStatus, 'I')
  const stmt = defineStatement('SELECT abalance FROM pgbench_accounts WHERE aid = $1')
  const r = await conn.execute(stmt, [7])
  assert.deepEqual(r.rows, [['0']])
  await conn.simpleQuery('BEGIN')
  assert.equal(conn.transactionStatus, 'T')
  await conn.close()
  await assert.rejects(conn.simpleQuery('SELECT 1'), { code: 'CONNECTION_LOST' })
})
