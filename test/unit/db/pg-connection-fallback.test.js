// PgConnection (--driver pg) reads node-postgres' client.connection for its message events; a
// node-postgres without it still runs, with one warning, and is closed through its public end().

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { PgConnection } from '../../../lib/db/connection.js'

/** A node-postgres client as its public API shows it, without `connection`. */
function publicClient () {
  const c = new EventEmitter()
  c.ended = 0
  c.query = async (config) => ({ command: 'COMMIT', rowCount: 0, fields: [], rows: [] })
  c.end = async () => { c.ended++ }
  c.getTransactionStatus = () => 'T'
  return c
}

test('without client.connection: one warning for any number of connections, queries run, destroy ends the client', async () => {
  const warnings = []
  const onWarning = (w) => { if (w.code === 'PGLOAD_PG_CONNECTION_EVENTS') warnings.push(w.message) }
  process.on('warning', onWarning)
  try {
    const clients = [publicClient(), publicClient()]
    const conns = clients.map((c) => new PgConnection(c, 'simple'))
    await new Promise((resolve) => setImmediate(resolve)) // warnings are emitted on the next tick
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /COMMIT lost after it completed is counted as outcome unknown/)
    assert.equal(conns[0].transactionStatus, 'T')
    assert.deepEqual(await conns[0].simpleQuery('COMMIT'), { command: 'COMMIT', rowCount: 0, fields: [], rows: [] })
    assert.equal(conns[0].commitInFlight, false)
    conns[1].destroy()
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(clients[1].ended, 1)
    assert.equal(conns[1].broken, true)
  } finally {
    process.off('warning', onWarning)
  }
})
