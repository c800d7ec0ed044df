import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import client from 'prom-client'
import { MetricsPusher } from '../../../lib/live/metrics-push.js'
import { decodeWriteRequest, snappyDecode } from './remote-write-decoder.js'

const servers = []
after(() => Promise.all(servers.map((s) => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))))

/** A receiver on a loopback port: each request is recorded; `answer(req, body, res)` replies. */
async function receiver (answer = (req, body, res) => { res.writeHead(204); res.end() }) {
  const requests = []
  let open = 0
  const stats = { maxOpen: 0 }
  const server = http.createServer((req, res) => {
    open++
    stats.maxOpen = Math.max(stats.maxOpen, open)
    res.on('close', () => { open-- })
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      requests.push({ headers: req.headers, method: req.method, url: req.url, series: decodeWriteRequest(snappyDecode(body)) })
      answer(req, body, res)
    })
  })
  servers.push(server)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: server.address().port, requests, stats }
}

function registry () {
  const r = new client.Registry()
  r.setDefaultLabels({ run_id: 'r1' })
  const c = new client.Counter({ name: 'pgload_transactions_total', help: 'h', labelNames: ['type'], registers: [r] })
  return { r, c }
}

const valueOf = (series, name) => series.find((s) => s.labels.some(([k, v]) => k === '__name__' && v === name))?.samples[0].value

test('a push is a remote-write 1.0 request: headers, basic auth from the URL, the registry\'s series', async () => {
  const rx = await receiver()
  const { r, c } = registry()
  c.inc({ type: 'a' }, 5)
  const lines = []
  const pusher = new MetricsPusher({ url: `http://al%40ice:s%3Acret@127.0.0.1:${rx.port}/api/v1/write?x=1`, headers: [['X-Scope-OrgID', 'team']] },
    { registries: () => [r], warn: (l) => lines.push(l), now: () => 1700000000000 })
  pusher.start({})
  pusher.interval({})
  await pusher.settled()
  c.inc({ type: 'a' }, 2)
  await pusher.end({})
  await pusher.close()
  assert.equal(rx.requests.length, 2)
  const [first, last] = rx.requests
  assert.equal(first.method, 'POST')
  assert.equal(first.url, '/api/v1/write?x=1')
  assert.equal(first.headers['content-encoding'], 'snappy')
  assert.equal(first.headers['content-type'], 'application/x-protobuf')
  assert.equal(first.headers['x-prometheus-remote-write-version'], '0.1.0')
  assert.equal(first.headers['x-scope-orgid'], 'team')
  assert.equal(Buffer.from(first.headers.authorization.replace(/^Basic /, ''), 'base64').toString(), 'al@ice:s:cret')
  assert.deepEqual(first.series, [{ labels: [['__name__', 'pgload_transactions_total'], ['run_id', 'r1'], ['type', 'a']], samples: [{ value: 5, timestampMs: 1700000000000 }] }])
  // the clock did not move: the next push is still a ms later, as a receiver wants
  assert.deepEqual(last.series[0].samples, [{ value: 7, timestampMs: 1700000000001 }])
  assert.deepEqual(lines, [])
  assert.equal(pusher.shownUrl, `http://127.0.0.1:${rx.port}/api/v1/write`)
})

test('pushes never overlap: those asked for during one in flight become one push after it, with the figures of then', async () => {
  let arrived
  const firstArrived = new Promise((resolve) => { arrived = resolve })
  const rx = await receiver((req, body, res) => {
    if (rx.requests.length === 1) arrived(() => { res.writeHead(200); res.end() })
    else { res.writeHead(200); res.end() }
  })
  const { r, c } = registry()
  const pusher = new MetricsPusher({ url: `http://127.0.0.1:${rx.port}/` }, { registries: () => [r], warn: () => {} })
  c.inc({ type: 'a' }, 1)
  pusher.interval({})
  const release = await firstArrived
  for (let i = 2; i <= 5; i++) { c.inc({ type: 'a' }, 1); pusher.interval({}) }
  release()
  await pusher.end({})
  await pusher.close()
  assert.equal(rx.stats.maxOpen, 1)
  assert.ok(rx.requests.length >= 2 && rx.requests.length <= 3, `${rx.requests.length} requests`)
  assert.equal(valueOf(rx.requests[0].series, 'pgload_transactions_total'), 1)
  assert.equal(valueOf(rx.requests.at(-1).series, 'pgload_transactions_total'), 5)
  assert.equal(pusher.attempts, rx.requests.length)
})

test('a receiver answering 4xx/5xx costs one warning, then the count at close; no credentials shown', async () => {
  const rx = await receiver((req, body, res) => { res.writeHead(400); res.end('out of order sample\nsecond line') })
  const { r } = registry()
  const lines = []
  const pusher = new MetricsPusher({ url: `http://u:hunter2@127.0.0.1:${rx.port}/api/v1/write` }, { registries: () => [r], warn: (l) => lines.push(l) })
  for (let i = 0; i < 3; i++) { pusher.interval({}); await pusher.settled() }
  await pusher.end({})
  await pusher.close()
  assert.equal(lines.length, 2, lines.join('\n'))
  assert.match(lines[0], /^pgload: warning: --metrics-push: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write did not take the metrics: HTTP 400: out of order sample \(the run goes on/)
  assert.match(lines[1], /^pgload: warning: --metrics-push: pushed 0 of 4 times to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write; last error: HTTP 400: out of order sample$/)
  assert.ok(!lines.join('\n').includes('hunter2'))
})

test('a receiver that does not answer: each push gives up after its timeout, close waits a bounded time', async () => {
  const rx = await receiver(() => {}) // never answers
  const { r } = registry()
  const lines = []
  const pusher = new MetricsPusher({ url: `http://127.0.0.1:${rx.port}/` }, { registries: () => [r], warn: (l) => lines.push(l), timeoutMs: 200 })
  pusher.interval({})
  await pusher.end({})
  await pusher.close()
  assert.equal(pusher.attempts, 2)
  assert.equal(pusher.pushed, 0)
  assert.match(lines[0], /did not take the metrics: no answer within 0.2 s/)
  assert.match(lines[1], /pushed 0 of 2 times/)
})

test('the end of the run waits a bounded time for a receiver that does not answer, then gives the push up', async () => {
  const rx = await receiver(() => {})
  const { r } = registry()
  const lines = []
  const pusher = new MetricsPusher({ url: `http://127.0.0.1:${rx.port}/` }, { registries: () => [r], warn: (l) => lines.push(l), timeoutMs: 60_000, closeWaitMs: 100 })
  pusher.interval({})
  const started = Date.now()
  await pusher.end({})
  await pusher.close()
  assert.ok(Date.now() - started < 30_000)
  assert.equal(pusher.pushed, 0)
  assert.equal(pusher.request, null, 'no request left open')
  assert.match(lines.at(-1), /pushed 0 of 1 times .*; last error: given up at the end of the run$/)
  pusher.interval({})
  assert.equal(pusher.inFlight, null, 'nothing is pushed after close')
})

test('a closed port: connection refused, said once', async () => {
  const rx = await receiver()
  servers.pop().close()
  await new Promise((resolve) => setTimeout(resolve, 20))
  const { r } = registry()
  const lines = []
  const pusher = new MetricsPusher({ url: `http://127.0.0.1:${rx.port}/` }, { registries: () => [r], warn: (l) => lines.push(l) })
  for (let i = 0; i < 3; i++) { pusher.interval({}); await pusher.settled() }
  await pusher.end({})
  await pusher.close()
  assert.equal(lines.length, 2)
  assert.match(lines[0], /connection refused/)
  assert.match(lines[1], /pushed 0 of 4 times/)
})
