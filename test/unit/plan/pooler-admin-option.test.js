import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan } from '../../../lib/plan/resolve.js'

test('--pooler-admin: a connection string or off, checked before anything runs', async () => {
  assert.equal((await resolvePlan({})).poolerAdmin, undefined)
  assert.equal((await resolvePlan({ poolerAdmin: 'off' })).poolerAdmin, 'off')
  assert.equal((await resolvePlan({ poolerAdmin: 'postgres://admin@pooler:6432/pgbouncer' })).poolerAdmin, 'postgres://admin@pooler:6432/pgbouncer')
  assert.equal((await resolvePlan({ poolerAdmin: 'host=pooler port=6432 user=admin' })).poolerAdmin, 'host=pooler port=6432 user=admin')
  await assert.rejects(resolvePlan({ poolerAdmin: ' ' }), { code: 'BAD_OPTION', message: '--pooler-admin needs a connection string or off, got " "' })
  await assert.rejects(resolvePlan({ poolerAdmin: 'pooler:6432' }), /--pooler-admin/)
})
