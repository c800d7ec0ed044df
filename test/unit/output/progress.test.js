// Progress reporter: redrawn bar with rate, MB/s and ETA on a TTY; throttled plain lines otherwise.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createProgress } from '../../../lib/output/progress.js'

function fakeStream (extra = {}) {
  const s = { chunks: [], write (c) { s.chunks.push(c) }, ...extra }
  return s
}

test('TTY: redrawn in place with percent, rows/s, MB/s and ETA, throttled, newline at the end', () => {
  let t = 0
  const stream = fakeStream({ isTTY: true, columns: 120 })
  const p = createProgress({ stream, now: () => t })
  p.start('pgbench_accounts', 1000, 'rows')
  assert.equal(stream.chunks.length, 1)
  t = 1000
  p.update(250, 2 * 1024 * 1024)
  const line = stream.chunks.at(-1)
  assert.ok(line.startsWith('\rpgbench_accounts ['))
  assert.ok(line.endsWith(' 25% 250/1000 rows, 250 rows/s, 2.0 MB/s, ETA 3s\u001b[K'), JSON.stringify(line))
  assert.match(line, /\[#+\.+\]/)
  t = 1050 // within the redraw interval: nothing drawn
  p.update(260)
  assert.equal(stream.chunks.length, 2)
  t = 4000
  p.end()
  assert.ok(stream.chunks.at(-1).endsWith('\n'))
  assert.match(stream.chunks.at(-1), /26% 260\/1000 rows/)
  p.end() // idempotent
  assert.equal(stream.chunks.length, 3)
})

test('not a TTY: one plain line per interval with elapsed/remaining, and a final summary', () => {
  let t = 0
  const stream = fakeStream()
  const p = createProgress({ stream, isTTY: false, now: () => t, plainIntervalMs: 5000 })
  p.start('generating pgbench_accounts', 1_000_000)
  assert.equal(stream.chunks.length, 0)
  for (let i = 1; i <= 10; i++) {
    t = i * 1000
    p.update(i * 50_000)
  }
  assert.deepEqual(stream.chunks, [
    'generating pgbench_accounts: 250000 of 1000000 rows (25%) done (elapsed 5.00 s, remaining 15.00 s, 50k rows/s)\n',
    'generating pgbench_accounts: 500000 of 1000000 rows (50%) done (elapsed 10.00 s, remaining 10.00 s, 50k rows/s)\n'
  ])
  p.end()
  assert.equal(stream.chunks.at(-1), 'generating pgbench_accounts: 500000 rows done in 10.00 s (50k rows/s)\n')
  assert.ok(stream.chunks.every(c => !c.includes('\r')))
})

test('start of a new step ends the previous one', () => {
  let t = 0
  const stream = fakeStream()
  const p = createProgress({ stream, isTTY: false, now: () => t })
  p.start('a', 10)
  t = 2000
  p.update(10)
  p.start('b', 5)
  assert.equal(stream.chunks.length, 1)
  assert.match(stream.chunks[0], /^a: 10 rows done in 2\.00 s/)
})

test('one row is "1 row", as pgbench_branches at scale 1', () => {
  let t = 0
  const stream = fakeStream()
  const p = createProgress({ stream, isTTY: false, now: () => t })
  p.start('generating pgbench_branches', 1, 'rows')
  t = 10
  p.update(1)
  p.end()
  assert.match(stream.chunks.at(-1), /^generating pgbench_branches: 1 row done in 0\.01 s \(100 rows\/s\)\n$/)
})
