// Whatever a client sends to --dashboard and --metrics, the run goes on: malformed and
// absolute-form request targets get 400, an oversized header 431 (or its connection closed, as
// Node answers), and 200 event streams held open to the end do not keep the run from ending. The
// run's exit code and results are those of a run nobody disturbed.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli, startWithDashboard } from '../helpers/cli.js'

const SSE_CLIENTS = 200
const dir = mkdtempSync(join(tmpdir(), 'pgload-live-abuse-'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
let server

before(async () => {
  server = await getTestServer()
  const r = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(r.code, 0, r.stderr)
})
after(() => rmSync(dir, { recursive: true, force: true }))

/**
 * Send raw bytes (http.request refuses malformed targets) and read the answer's status.
 * @returns {Promise<number|null>} the status, null when the connection closed without one
 */
function rawRequest (port, text) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let got = ''
    socket.on('data', (d) => { got += d })
    // the server may close while a large request is still being written: that is its answer
    socket.on('error', () => {})
    socket.on('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1]) || null))
    socket.setTimeout(20_000, () => socket.destroy())
    socket.write(text)
  })
}

/** An event-stream client that reads and never closes; counts the events it gets. */
function holdEvents (url) {
  const seen = { status: 0, updates: 0, report: false, closedEarly: false, req: null }
  seen.req = http.get(`${url}events`, { agent: false }, (res) => {
    seen.status = res.statusCode
    res.setEncoding('utf8')
    res.on('data', (d) => {
      seen.updates += (d.match(/^event: update$/mg) ?? []).length
      if (/^event: report$/m.test(d)) seen.report = true
    })
  })
  seen.req.on('error', () => { seen.closedEarly = true })
  return seen
}

const abusive = [
  ['GET //', 'GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', [400]],
  ['GET http://[', 'GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', [400]],
  ['absolute-form', 'GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n', [400]],
  ['1 MB header', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1 << 20)}\r\nConnection: close\r\n\r\n`, [431, null]]
]

test('malformed requests and 200 held event streams: the run ends on its own, exit 0, results written', { timeout: 150_000 }, async () => {
  const out = join(dir, 'run.json')
  const run = startWithDashboard(['run', 'tpcb', '-S', '-c', '2', '-T', '6', '--url', server.url, '--out', out,
    '--dashboard', '127.0.0.1:0', '--metrics', '127.0.0.1:0'])
  const streams = []
  try {
    const url = await run.url
    for (let i = 0; i < 100 && !/metrics at http:/.test(run.output.stderr); i++) await sleep(50)
    const metricsPort = Number(/metrics at http:\/\/127\.0\.0\.1:(\d+)\//.exec(run.output.stderr)?.[1])
    const dashboardPort = Number(new URL(url).port)
    assert.ok(metricsPort > 0, run.output.stderr)

    for (let i = 0; i < SSE_CLIENTS; i++) streams.push(holdEvents(url))
    for (const port of [dashboardPort, metricsPort]) {
      for (const [name, text, expected] of abusive) {
        const status = await rawRequest(port, text)
        assert.ok(expected.includes(status), `${name} to port ${port}: ${status}, expected ${expected.join(' or ')}`)
      }
    }
    // the endpoints still serve
    assert.equal((await fetch(url)).status, 200)
    assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status, 200)

    const r = await run.exited
    assert.equal(r.code, 0, r.stderr)
    assert.doesNotMatch(r.stderr, /internal error/)
    const results = JSON.parse(readFileSync(out, 'utf8'))
    assert.ok(results.summary.transactions > 0)
    // every stream was open to the end: it got the whole page, then the final report
    assert.equal(streams.filter((s) => s.status === 200 && s.updates >= 1 && s.report && !s.closedEarly).length, SSE_CLIENTS,
      JSON.stringify(streams.filter((s) => !(s.status === 200 && s.updates >= 1 && s.report)).slice(0, 3).map(({ req, ...s }) => s)))
  } finally {
    for (const s of streams) s.req.destroy()
    if (run.child.exitCode === null) run.child.kill('SIGKILL')
  }
})
