// The page-cache decision of a cold start (root, on the server's machine, a writable switch) and
// the drop itself, on an injected path and sync: no root needed.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pageCacheDecision, dropPageCache, writableReason, isLocalHost, DROP_CACHES_PATH } from '../../../../lib/server/cold/page-cache.js'

let dir
before(() => { dir = mkdtempSync(join(tmpdir(), 'pgload-page-cache-')) })
after(() => rmSync(dir, { recursive: true, force: true }))

const writable = () => null

test('dropped only as root, on the server\'s machine, with a writable switch', () => {
  assert.deepEqual(pageCacheDecision({ local: true, uid: 0, writable }), { drop: true, note: null })
  assert.deepEqual(pageCacheDecision({ local: true, uid: 1000, writable }),
    { drop: false, note: 'not dropped: pgload is not root (uid 1000); dropping the OS page cache needs root' })
  assert.deepEqual(pageCacheDecision({ local: false, host: 'db.example', uid: 0, writable }),
    { drop: false, note: 'not dropped: the server (db.example) is not on this machine' })
  assert.deepEqual(pageCacheDecision({ local: true, uid: undefined, writable }),
    { drop: false, note: 'not dropped: pgload is not root (uid unknown); dropping the OS page cache needs root' })
  assert.deepEqual(pageCacheDecision({ keep: true, local: true, uid: 0, writable }), { drop: false, note: 'kept (--keep-page-cache)' })
})

test('a switch that cannot be written (a container\'s read-only /proc/sys) is the reason given', () => {
  const seen = []
  const readOnly = (path) => { seen.push(path); return 'is on a read-only file system (as in a container)' }
  assert.deepEqual(pageCacheDecision({ local: true, uid: 0, writable: readOnly }),
    { drop: false, note: `not dropped: ${DROP_CACHES_PATH} is on a read-only file system (as in a container)` })
  assert.deepEqual(seen, [DROP_CACHES_PATH])
  const missing = join(dir, 'no-such-switch')
  assert.deepEqual(pageCacheDecision({ local: true, uid: 0, path: missing }),
    { drop: false, note: `not dropped: ${missing} does not exist (not Linux?)` })
})

test('writableReason: null for a writable file, the reason otherwise', () => {
  const file = join(dir, 'switch')
  writeFileSync(file, '')
  assert.equal(writableReason(file), null)
  assert.equal(writableReason(join(dir, 'missing')), 'does not exist (not Linux?)')
})

test('the drop: sync first, then 3 written to the switch', async () => {
  const file = join(dir, 'drop_caches')
  writeFileSync(file, '')
  const order = []
  const r = await dropPageCache({ path: file, sync: async () => { order.push(readFileSync(file, 'utf8')) } })
  assert.deepEqual(r, { dropped: true, note: null })
  assert.equal(readFileSync(file, 'utf8'), '3\n')
  assert.deepEqual(order, [''], 'sync ran before the write')
})

test('a failed sync or write is a note, not an error, and nothing is claimed dropped', async () => {
  const file = join(dir, 'untouched')
  writeFileSync(file, 'x')
  assert.deepEqual(await dropPageCache({ path: file, sync: async () => { throw new Error('sync: timed out\nmore') } }),
    { dropped: false, note: 'not dropped: sync failed (sync: timed out)' })
  assert.equal(readFileSync(file, 'utf8'), 'x', 'no write after a failed sync')
  const nowhere = join(dir, 'no-dir', 'drop_caches')
  assert.deepEqual(await dropPageCache({ path: nowhere, sync: async () => {} }),
    { dropped: false, note: `not dropped: writing ${nowhere} failed (ENOENT)` })
})

test('isLocalHost: loopback names and addresses and Unix socket directories', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '/var/run/postgresql', 'LOCALHOST']) assert.equal(isLocalHost(h), true, h)
  for (const h of ['db.example', '10.0.0.5', '128.0.0.1', '', undefined, '::2']) assert.equal(isLocalHost(h), false, String(h))
})
