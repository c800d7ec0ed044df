// Where the embedded server lives: PGLOAD_HOME > XDG_CACHE_HOME/pgload > ~/.cache/pgload
// (as root: the postgres user's ~/.cache/pgload, which the server user can reach).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { userInfo } from 'node:os'
import { pgloadHome, embeddedPaths } from '../../../../lib/server/embedded/home.js'

test('PGLOAD_HOME wins, then XDG_CACHE_HOME, then the home directory', () => {
  assert.equal(pgloadHome({ env: { PGLOAD_HOME: '/x/pgl', XDG_CACHE_HOME: '/y', HOME: '/h' } }), '/x/pgl')
  assert.equal(pgloadHome({ env: { XDG_CACHE_HOME: '/y', HOME: '/h' } }), '/y/pgload')
  const fallback = pgloadHome({ env: { HOME: '/h' } })
  if (userInfo().uid === 0) assert.match(fallback, /\/\.cache\/pgload$/)
  else assert.equal(fallback, '/h/.cache/pgload')
  assert.notEqual(fallback, '/root/.cache/pgload')
})

test('files of the embedded server sit in the home, the data directory named by major version', async () => {
  const p = await embeddedPaths('/x/pgl')
  assert.match(p.dataDir, /^\/x\/pgl\/pg1\d$/)
  assert.equal(p.pgpass, '/x/pgl/pgpass')
  assert.equal(p.state, '/x/pgl/server.json')
  assert.equal(p.log, '/x/pgl/server.log')
})
