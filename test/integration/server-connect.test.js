// Connection failures against a real server give one clear line: wrong password (not echoed),
// unknown database, unknown role, nothing listening.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { explainConnectError } from '../../lib/server/target/resolve-target.js'
import { freePort } from '../../lib/server/embedded/cluster.js'
import { PgloadError } from '../../lib/errors.js'

async function failure (target) {
  try {
    const conn = await openConnection(target, { connectTimeoutMs: 5000 })
    await conn.close()
  } catch (err) {
    return explainConnectError(err, target)
  }
  assert.fail('connection unexpectedly succeeded')
}

function variant (target, change) {
  return { ...target, config: { ...target.config, ...change } }
}

test('wrong password, unknown database, unknown role, refused port', async (t) => {
  const { target, embedded } = await getTestServer()
  const secret = 'not-the-password-' + Date.now()

  const wrongPw = await failure(variant(target, { password: secret }))
  assert.ok(wrongPw instanceof PgloadError)
  assert.match(wrongPw.message, /^password authentication failed for user "[^"]+" at 127\.0\.0\.1:\d+|^server at .* rejected user/)
  assert.ok(!(wrongPw.message + wrongPw.hint).includes(secret))

  const noDb = await failure(variant(target, { database: 'pgload_no_such_db' }))
  assert.match(noDb.message, /^database "pgload_no_such_db" does not exist at /)
  assert.match(noDb.hint, /createdb|--url/)

  if (embedded) {
    // scram auth checks the role first and reports it as a failed password (28P01), as libpq shows it
    const noRole = await failure(variant(target, { user: 'pgload_no_such_role' }))
    assert.match(noRole.message, /user "pgload_no_such_role"/)
  }

  const port = await freePort()
  const refused = await failure(variant(target, { host: '127.0.0.1', port }))
  assert.equal(refused.message, `cannot connect to PostgreSQL at 127.0.0.1:${port}: connection refused`)
  assert.ok(!refused.message.includes('\n'))
})
