// The users of an embedded server in server.json: added and removed per use, the dead dropped.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { newUser, liveUsers, withUser, withoutUser } from '../../../../lib/server/embedded/server-state.js'

// a pid that was alive and is gone: a child that has exited
const deadPid = spawnSync(process.execPath, ['-e', '0']).pid

test('each use is its own user, even in one process; removing one keeps the other', () => {
  const a = newUser()
  const b = newUser()
  assert.equal(a.pid, process.pid)
  assert.notDeepEqual(a, b)
  const both = withUser(withUser({ keep: false }, a), b)
  assert.deepEqual(both.users, [a, b])
  assert.deepEqual(withoutUser(both, a).users, [b])
  assert.deepEqual(withoutUser(withoutUser(both, a), b).users, [])
})

test('users whose process is gone are dropped; a state without users counts its owner', () => {
  const me = newUser()
  const state = { keep: false, owner: deadPid, users: [{ pid: deadPid, use: 0 }, me] }
  assert.deepEqual(liveUsers(state), [me])
  assert.deepEqual(withoutUser(state, me).users, [])
  assert.deepEqual(liveUsers({ keep: false, owner: process.pid }), [{ pid: process.pid, use: 0 }])
  assert.deepEqual(liveUsers({ keep: false, owner: deadPid }), [])
  assert.deepEqual(liveUsers({}), [])
})
