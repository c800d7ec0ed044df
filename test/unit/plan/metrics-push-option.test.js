// The plan's `metricsPush`: --metrics-push URL and --metrics-push-header checked before anything
// connects, in one line naming the option and never showing a password or a header's value.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan, replan } from '../../../lib/plan/resolve.js'
import { recordedMetricsPush } from '../../../lib/plan/metrics-push-option.js'

test('--metrics-push takes an http(s) URL, user:password and headers included; absent by default', async () => {
  assert.equal((await resolvePlan({})).metricsPush, undefined)
  const p = await resolvePlan({ metricsPush: 'https://u:p@mimir.example:443/api/v1/push', metricsPushHeaders: ['Authorization: Bearer abc: def', 'X-Scope-OrgID:team'] })
  assert.deepEqual(p.metricsPush, { url: 'https://u:p@mimir.example:443/api/v1/push', headers: [['Authorization', 'Bearer abc: def'], ['X-Scope-OrgID', 'team']] })
  assert.deepEqual((await resolvePlan({ metricsPush: 'http://127.0.0.1:9090/api/v1/write', metricsPushHeaders: 'A: b' })).metricsPush.headers, [['A', 'b']])
})

test('a malformed URL or another scheme is refused in one line naming the option, the password hidden', async () => {
  await assert.rejects(resolvePlan({ metricsPush: 'not a url' }), { code: 'BAD_OPTION', message: /^--metrics-push needs the URL of a Prometheus remote-write receiver \(e\.g\. http:\/\/127\.0\.0\.1:9090\/api\/v1\/write\), got "not a url"$/ })
  await assert.rejects(resolvePlan({ metricsPush: 'ftp://u:secret@host/x' }), (err) => {
    assert.equal(err.message, '--metrics-push: the URL must be http:// or https://, got ftp://')
    return true
  })
  await assert.rejects(resolvePlan({ metricsPush: 'http://u:secret@[::1/x' }), (err) => {
    assert.match(err.message, /^--metrics-push needs the URL/)
    assert.ok(!err.message.includes('secret'), err.message)
    return true
  })
  await assert.rejects(resolvePlan({ metricsPush: '' }), { message: /^--metrics-push needs the URL/ })
  await assert.rejects(resolvePlan({ metricsPush: 'http://u:50%off@h/' }), { message: '--metrics-push: the user or password in the URL is not valid percent-encoding', hint: 'write % as %25' })
  await assert.rejects(resolvePlan({ metricsPush: true }), { message: /^--metrics-push needs the URL.*got true$/ })
})

test('--metrics-push-header: Name: value, one line, not one of the request\'s own, only with --metrics-push', async () => {
  const url = 'http://127.0.0.1:9090/api/v1/write'
  await assert.rejects(resolvePlan({ metricsPushHeaders: ['A: b'] }), { message: '--metrics-push-header goes with --metrics-push: it is sent with each push' })
  await assert.rejects(resolvePlan({ metricsPush: url, metricsPushHeaders: ['Bearer secret'] }), (err) => {
    assert.equal(err.message, "--metrics-push-header needs 'Name: value' (e.g. 'Authorization: Bearer TOKEN'), got one without a colon")
    return true
  })
  await assert.rejects(resolvePlan({ metricsPush: url, metricsPushHeaders: ['Bad Name: secret'] }), { message: /got one whose name "Bad Name" is not a header name$/ })
  await assert.rejects(resolvePlan({ metricsPush: url, metricsPushHeaders: ['Content-Encoding: gzip'] }), { message: '--metrics-push-header Content-Encoding: pgload sets that header itself' })
  await assert.rejects(resolvePlan({ metricsPush: url, metricsPushHeaders: ['A: b\nc'] }), { message: '--metrics-push-header A: the value must be one line' })
})

test('the target survives replan and a JSON round trip; the record keeps no credentials', async () => {
  const p = await resolvePlan({ metricsPush: 'http://u:pw@h:9090/api/v1/write?token=t', metricsPushHeaders: ['Authorization: Bearer t'] })
  const again = await replan(JSON.parse(JSON.stringify(p)), { label: 'B' })
  assert.deepEqual(again.metricsPush, p.metricsPush)
  assert.deepEqual(recordedMetricsPush(p.metricsPush), { url: 'http://h:9090/api/v1/write', headers: ['Authorization'] })
})
