// The socket transports against a loopback peer: what the peer reads is exactly what was written,
// in order, whether the kernel took a write at once, libuv queued it, or the stream had it; what
// the peer sends reaches the receiver, through the transport's own read buffer or the stream.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, connect } from 'node:net'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HandleTransport, handleWritesAvailable } from '../../../lib/db/handle-transport.js'
import { StreamTransport } from '../../../lib/db/transport.js'

const IGNORE = { onBytes () {}, onClose () {}, onError () {} }

let pairs = 0 // names each pair's Unix socket

/**
 * A connected pair over TCP loopback or a Unix socket: our client socket and the server side's,
 * paused until `resume()`.
 * @param {'tcp'|'unix'} transport
 */
async function socketPair (transport = 'tcp') {
  const server = createServer({ pauseOnConnect: true })
  const path = join(tmpdir(), `pgload-hw-${process.pid}-${++pairs}.sock`)
  if (transport === 'unix') server.listen(path)
  else server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const accepted = once(server, 'connection')
  const client = transport === 'unix' ? connect(path) : connect(server.address().port, '127.0.0.1')
  await once(client, 'connect')
  const [peer] = await accepted
  server.close()
  const chunks = []
  peer.on('data', (c) => chunks.push(c))
  return { client, peer, received: () => Buffer.concat(chunks) }
}

const bytes = (n, fill) => Buffer.alloc(n, fill)

test('this Node.js offers the handle writes (the fast path the driver relies on), unless deprecations are pending', () => {
  const pending = process.execArgv.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1' ||
    /--pending-deprecation/.test(process.env.NODE_OPTIONS ?? '')
  // eslint-disable-next-line n/no-deprecated-api -- only asks whether it exists
  assert.equal(handleWritesAvailable, typeof process.binding === 'function' && !pending)
})

for (const [direct, transport] of [[true, 'tcp'], [true, 'unix'], [false, 'tcp']]) {
  test(`${direct ? 'handle' : 'stream'} transport, ${transport}: small writes, a write the kernel cannot take at once, stream writes between: all arrive in order`, async () => {
    const { client, peer, received } = await socketPair(transport)
    const w = direct ? new HandleTransport(IGNORE, client).listen() : new StreamTransport(client, IGNORE)
    const expected = []
    const put = (b) => { expected.push(b); return w.write(b) }

    assert.equal(put(bytes(40, 1)), true, 'a small write on an idle socket is done at once')
    const big = bytes(64 * 1024 * 1024, 2) // more than the loopback's buffers while the peer is paused
    assert.equal(put(big), false, 'a write still held must not be reused')
    if (direct && handleWritesAvailable) assert.equal(w.queued, 1, 'libuv queued the rest of the big write')
    assert.equal(put(bytes(40, 3)), false, 'behind a held write, a small one is held too')
    // the stream's own writes: the first goes to libuv behind the queued ones, the second waits
    // in the stream's buffer, and what comes next must not overtake it
    for (const fill of [4, 9]) {
      expected.push(bytes(10, fill))
      client.write(bytes(10, fill))
    }
    assert.equal(put(bytes(40, 5)), false)

    peer.resume()
    const total = expected.reduce((n, b) => n + b.length, 0)
    const deadline = Date.now() + 10000
    while (received().length < total && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
    assert.equal(received().length, total)
    assert.ok(received().equals(Buffer.concat(expected)), 'the peer read every byte in order')
    if (direct) assert.equal(w.queued, 0)
    assert.equal(put(bytes(40, 6)), true, 'drained: writes are done at once again')
    client.destroy()
    peer.destroy()
  })
}

test('handle transport: a write to a socket the peer has reset fails the socket with the write error', async () => {
  const { client, peer } = await socketPair()
  const w = new HandleTransport(IGNORE, client).listen()
  peer.resetAndDestroy()
  const closed = new Promise((resolve) => client.once('close', resolve))
  const errored = new Promise((resolve) => client.once('error', resolve))
  // the first writes may still be taken before the reset arrives; keep writing until one fails
  for (let i = 0; i < 100 && !client.destroyed; i++) {
    w.write(bytes(40, 7))
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const err = await errored
  assert.match(err.code, /^(ECONNRESET|EPIPE)$/)
  await closed
  assert.equal(w.write(bytes(40, 8)), true, 'a destroyed socket neither throws nor keeps the bytes')
})

test('handle transport with its own socket: reads reach the receiver through one reused buffer; end sends the last bytes and resolves once closed', async () => {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const accepted = once(server, 'connection')
  const reads = []
  const buffers = new Set()
  let closed = 0
  const t = new HandleTransport({
    onBytes (buf, n) { buffers.add(buf); reads.push(Buffer.from(buf.subarray(0, n))) },
    onClose () { closed++ },
    onError () {}
  })
  t.socket.connect(server.address().port, '127.0.0.1')
  await once(t.socket, 'connect')
  t.listen()
  const [peer] = await accepted
  server.close()
  const got = []
  peer.on('data', (c) => got.push(c))
  for (const fill of [1, 2, 3]) {
    peer.write(bytes(100, fill))
    const deadline = Date.now() + 5000
    while (Buffer.concat(reads).length < 100 * fill && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
  }
  assert.ok(Buffer.concat(reads).equals(Buffer.concat([bytes(100, 1), bytes(100, 2), bytes(100, 3)])))
  assert.equal(buffers.size, 1, 'every read lands in the same buffer')
  assert.equal(t.write(bytes(20, 4)), true)
  peer.on('end', () => peer.end())
  await t.end(bytes(5, 5))
  assert.equal(t.destroyed, true)
  assert.equal(closed, 1)
  assert.ok(Buffer.concat(got).equals(Buffer.concat([bytes(20, 4), bytes(5, 5)])))
})
