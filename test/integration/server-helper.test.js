// The shared test server helper: one server per process, reachable, no password in display.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'

test('getTestServer gives a connectable target, memoised, with a password-free display', async () => {
  const a = await getTestServer()
  const b = await getTestServer()
  assert.equal(a, b)
  assert.match(a.target.display, /^postgres:\/\/[^:@/]+@[^/]+:\d+\/\w+$/)
  const conn = await openConnection(a.target)
  try {
    const r = await conn.simpleQuery("select 1 as one, current_setting('application_name'), current_setting('lc_messages')")
    assert.deepEqual(r.rows, [['1', 'pgload', 'C']])
    if (a.embedded) {
      const v = await conn.simpleQuery("select current_setting('server_version_num')::int >= 180000")
      assert.equal(v.rows[0][0], 't')
    }
  } finally {
    await conn.close()
  }
})
