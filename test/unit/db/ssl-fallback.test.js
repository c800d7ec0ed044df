// libpq's attempts for each sslmode: which are made, in which order, and which error is said.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { connectWithSslFallback } from '../../../lib/db/ssl-fallback.js'

const hba = (what) => Object.assign(new Error(`pg_hba.conf rejects connection for host "127.0.0.1", user "u", database "d", ${what}`), { code: '28000', severity: 'FATAL' })
const badPassword = () => Object.assign(new Error('password authentication failed for user "u"'), { code: '28P01', severity: 'FATAL' })

/** Attempts that fail with the errors given per mode (absent: success); records the modes tried. */
function attempts (failures) {
  const tried = []
  const attempt = async (mode) => {
    tried.push(mode)
    if (failures[mode]) throw failures[mode]()
    return mode
  }
  return { tried, attempt }
}

test('prefer: SSL first, plain after an SSL attempt turned away; allow: the reverse', async () => {
  let a = attempts({ prefer: () => hba('SSL encryption') })
  assert.equal(await connectWithSslFallback('prefer', a.attempt), 'disable')
  assert.deepEqual(a.tried, ['prefer', 'disable'])
  a = attempts({ disable: () => hba('no encryption') })
  assert.equal(await connectWithSslFallback('allow', a.attempt), 'require')
  assert.deepEqual(a.tried, ['disable', 'require'])
  a = attempts({})
  assert.equal(await connectWithSslFallback('prefer', a.attempt), 'prefer')
  assert.deepEqual(a.tried, ['prefer'])
})

test('other modes make one attempt; an unreachable server is not tried twice', async () => {
  for (const mode of ['disable', 'require', 'verify-ca', 'verify-full']) {
    const a = attempts({ [mode]: () => hba('SSL encryption') })
    await assert.rejects(connectWithSslFallback(mode, a.attempt), /SSL encryption/)
    assert.deepEqual(a.tried, [mode])
  }
  const refused = attempts({ prefer: () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
  await assert.rejects(connectWithSslFallback('prefer', refused.attempt), /ECONNREFUSED/)
  assert.deepEqual(refused.tried, ['prefer'])
})

test('both attempts fail: the error that is not about encryption is the one said', async () => {
  // SSL-only server, wrong password: the SSL attempt's error, not the plain one's "no encryption"
  let a = attempts({ prefer: badPassword, disable: () => hba('no encryption') })
  await assert.rejects(connectWithSslFallback('prefer', a.attempt), /password authentication failed/)
  // plain-only server, wrong password: the plain attempt's
  a = attempts({ prefer: () => hba('SSL encryption'), disable: badPassword })
  await assert.rejects(connectWithSslFallback('prefer', a.attempt), /password authentication failed/)
  a = attempts({ disable: () => hba('no encryption'), require: badPassword })
  await assert.rejects(connectWithSslFallback('allow', a.attempt), /password authentication failed/)
})
