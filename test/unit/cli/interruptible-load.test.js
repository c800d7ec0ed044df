import { test } from 'node:test'
import assert from 'node:assert/strict'
import { InterruptibleLoad } from '../../../lib/cli/interruptible-load.js'

function fakeConn (pid, log) {
  return {
    backendPid: pid,
    async simpleQuery (text) { log.push(`${pid}: ${text}`); return { rows: [] } },
    async close () { log.push(`${pid}: close`) }
  }
}

test('an interrupt cancels the load\'s backends once and refuses later statements', async () => {
  const log = []
  const controller = new AbortController()
  const load = new InterruptibleLoad({ target: {}, openConnection: async () => fakeConn(99, log), signal: controller.signal })
  const conn = load.wrap(fakeConn(11, log))
  const extra = await load.openConnection({}, {})
  await conn.simpleQuery('select 1')
  assert.equal(conn.backendPid, 11, 'properties pass through')
  load.onStep('client-side generate')
  load.onProgress('generating pgbench_accounts')
  controller.abort()
  controller.abort()
  await load.cancelled
  assert.equal(load.interrupted, true)
  assert.throws(() => conn.simpleQuery('select 2'), (err) => err.code === 'INTERRUPTED' && err.exitCode === 130)
  assert.throws(() => extra.simpleQuery('select 3'), /init interrupted/)
  await extra.close()
  assert.deepEqual(log, ['11: select 1', '99: select pg_cancel_backend(pid) from unnest(array[11,99]::int[]) as pid', '99: close', '99: close'])
  assert.equal(load.activity, 'client-side generate (generating pgbench_accounts)')
  load.onStep('loading item')
  load.onProgress('item')
  assert.equal(load.activity, 'loading item')
})
