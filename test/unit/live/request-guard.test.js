// The guard in front of the dashboard's and the metrics endpoint's handlers: which request
// targets reach them, and a handler that throws or rejects answers 500 with the server still up.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { guardedServer, requestPath } from '../../../lib/live/request-guard.js'

test('only origin-form targets have a path', () => {
  assert.equal(requestPath({ url: '/' }), '/')
  assert.equal(requestPath({ url: '/events?x=1' }), '/events')
  assert.equal(requestPath({ url: '/a/../metrics' }), '/metrics')
  for (const url of ['//', '//evil.example/x', '/\\evil', 'http://example.com/', 'http://[', '*', '', undefined]) {
    assert.equal(requestPath({ url }), null, JSON.stringify(url))
  }
})

/** One raw request's status line code. */
function statusOf (port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let got = ''
    socket.on('data', (d) => { got += d })
    socket.on('error', reject)
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1])))
    socket.write(text)
  })
}

test('a handler that throws or rejects: 500, and the next request is served', async () => {
  const server = guardedServer((req, res) => {
    if (req.url === '/throw') throw new Error('boom')
    if (req.url === '/reject') return Promise.reject(new Error('boom'))
    if (req.url === '/late') { res.writeHead(200); res.write('part'); throw new Error('boom after the headers') }
    res.writeHead(200, { connection: 'close' })
    res.end('ok')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  const get = (path) => statusOf(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
  try {
    assert.equal(await get('/throw'), 500)
    assert.equal(await get('/reject'), 500)
    // headers already given: the connection is cut instead (what was flushed, if anything, arrives)
    const late = await get('/late')
    assert.ok(late === 200 || Number.isNaN(late), `got ${late}`)
    assert.equal(await get('//'), 400)
    assert.equal(await get('http://example.com/'), 400)
    // what Node cannot parse gets its own answer, and the server goes on
    assert.equal(await statusOf(port, '\x00\x01 not http\r\n\r\n'), 400)
    assert.equal(await get('/'), 200)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})
