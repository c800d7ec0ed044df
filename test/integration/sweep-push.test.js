// `pgload sweep --metrics-push URL`: each run of the sweep pushes its series (its own run_id, its
// cell) with the sweep's gauges to a remote-write receiver (one in the test, decoding each body),
// and neither the URL's password nor the header's token is recorded in the sweep's files.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { mkdtempSync, rmSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { runCli } from '../helpers/cli.js'
import { decodeWriteRequest, snappyDecode } from '../unit/live/remote-write-decoder.js'

const DB = `pgload_sweep_push_${process.pid}`
const SECRET = 'sweepSecret17'
const scratch = scratchDatabase(DB)
let tmp
let receiver
const pushes = []

before(async () => {
  await scratch.create()
  tmp = mkdtempSync(join(tmpdir(), 'pgload-sweep-push-'))
  receiver = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      pushes.push({ headers: req.headers, series: decodeWriteRequest(snappyDecode(Buffer.concat(chunks))) })
      res.writeHead(204)
      res.end()
    })
  })
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
})

after(async () => {
  await new Promise((resolve) => receiver.close(resolve))
  await scratch.drop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

test('a sweep of two cells pushes each run\'s series and the sweep\'s gauges; nothing secret is recorded', { timeout: 120_000 }, async () => {
  const dir = join(tmp, 'sweep')
  const target = `http://pgload:${SECRET}@127.0.0.1:${receiver.address().port}/api/v1/write`
  const r = await runCli(['sweep', 'tpcb', '--scale', '1', '--clients', '1,2', '--repeat', '1', '-T', '2', '--url', scratch.url, '--dir', dir,
    '--metrics-push', target, '--metrics-push-header', `X-Token: ${SECRET}`], { timeoutMs: 100_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.doesNotMatch(r.stderr, /warning/)
  assert.ok(pushes.length >= 4, `${pushes.length} pushes`)
  assert.equal(pushes[0].headers['x-token'], SECRET)
  const labelsOf = (s) => Object.fromEntries(s.labels)
  const cells = new Map()
  for (const p of pushes) {
    for (const s of p.series) {
      const l = labelsOf(s)
      if (l.__name__ === 'pgload_transactions_total') cells.set(l.run_id, l.cell)
    }
  }
  assert.deepEqual([...cells.values()].sort(), ['scale 1, clients 1', 'scale 1, clients 2'])
  const done = pushes.at(-1).series.find((s) => labelsOf(s).__name__ === 'pgload_sweep_runs_done')
  assert.equal(done.samples[0].value, 2, 'the last push has both runs done')
  const files = [join(dir, 'sweep.json'), ...readdirSync(join(dir, 'runs')).map((f) => join(dir, 'runs', f))]
  for (const text of [r.stdout, r.stderr, ...files.map((f) => readFileSync(f, 'utf8'))]) {
    assert.ok(!text.includes(SECRET))
    assert.ok(!text.includes('--metrics-push'), 'the push is not part of the sweep\'s definition')
  }
})
