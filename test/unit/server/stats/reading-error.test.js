// A statistics query whose connection is lost or given up on: the warning, as the CLI's logger
// prints it (pino puts the whole cause chain's messages in the line), says that a statistics
// query was not answered, never that a commit's outcome is unknown (a reading commits nothing).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { StatsReader } from '../../../../lib/server/stats/reader.js'
import { connectionLost } from '../../../../lib/db/response-reader.js'
import { createLogger } from '../../../../lib/log.js'

/** The sampler's warning for `err`, as `pgload run` prints it on stderr. */
function warningLine (err) {
  const lines = []
  const log = createLogger({ stream: { write: (s) => lines.push(s) }, env: {} })
  log.warn({ err, t: 3 }, 'server statistics sample failed')
  assert.equal(lines.length, 1)
  return lines[0]
}

function reader (conn) {
  const r = new StatsReader({ openConnection: async () => conn, tables: [], now: () => 0, statementTimeoutMs: 5000, lockTimeoutMs: 1000, note: () => true })
  r.conn = conn
  return r
}

test('a reading lost in flight: the warning names the lost connection and its cause, not a commit', async () => {
  // what the lean driver throws for a statement sent outside a transaction block, never answered
  const conn = { async simpleQuery () { throw connectionLost(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), true) } }
  const err = await reader(conn).query('SELECT 1').then(() => null, (e) => e)
  assert.equal(err.code, 'CONNECTION_LOST')
  const line = warningLine(err)
  assert.match(line, /^pgload: warning: server statistics sample failed: connection to server lost: read ECONNRESET \(a statistics query was not answered\)/)
  assert.doesNotMatch(line, /commit|outcome/)
})

test('a reading given up on (the server stalled, the sampler abandoned): the warning says it was not answered in time', async () => {
  let fail
  const conn = {
    simpleQuery: () => new Promise((resolve, reject) => { fail = reject }),
    // destroying the socket fails the statement in flight, flagged as a commit of unknown outcome
    destroy () { fail(connectionLost(new Error('connection closed'), true)) }
  }
  const r = reader(conn)
  const pending = r.query('SELECT 1').then(() => null, (e) => e)
  r.abandon()
  const line = warningLine(await pending)
  assert.match(line, /^pgload: warning: server statistics sample failed: a statistics query was not answered in time/)
  assert.doesNotMatch(line, /commit|outcome/)
})
