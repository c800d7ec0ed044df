// The CancelRequest bytes and its bounds, against a local listener standing in for the server.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { sendCancelRequest } from '../../../lib/db/cancel-request.js'

function listener (onSocket) {
  return new Promise((resolve) => {
    const server = createServer(onSocket)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

test('a CancelRequest carries the length, the code 80877102, the pid and the secret key', async () => {
  let got = null
  const server = await listener((s) => s.once('data', (b) => { got = b; s.end() }))
  const answered = await sendCancelRequest({ host: '127.0.0.1', port: server.address().port, pid: 4242, secretKey: -123456789, timeoutMs: 2000 })
  server.close()
  assert.equal(answered, true)
  assert.equal(got.length, 16)
  assert.equal(got.readInt32BE(0), 16)
  assert.equal(got.readInt32BE(4), 80877102)
  assert.equal(got.readInt32BE(8), 4242)
  assert.equal(got.readInt32BE(12), -123456789)
})

test('a server that never answers the cancel is given up on after the timeout', async () => {
  const held = []
  const server = await listener((s) => held.push(s))
  const t0 = performance.now()
  const answered = await sendCancelRequest({ host: '127.0.0.1', port: server.address().port, pid: 1, secretKey: 2, timeoutMs: 200 })
  const ms = performance.now() - t0
  for (const s of held) s.destroy()
  server.close()
  assert.equal(answered, false)
  assert.ok(ms >= 150 && ms < 2000, `gave up after ${ms} ms`)
})

test('a refused cancel resolves false instead of throwing', async () => {
  const server = await listener(() => {})
  const port = server.address().port
  await new Promise((resolve) => server.close(resolve))
  assert.equal(await sendCancelRequest({ host: '127.0.0.1', port, pid: 1, secretKey: 2, timeoutMs: 1000 }), false)
})
