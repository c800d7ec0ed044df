import { test } from 'node:test'
import assert from 'node:assert/strict'
import client from 'prom-client'
import { encodeTimeSeries, encodeWriteRequest, remoteWriteBody, snappyBlock, timeSeriesOf, varint } from '../../../lib/live/remote-write-encoding.js'
import { RunMetrics } from '../../../lib/live/run-metrics.js'
import { decodeWriteRequest, snappyDecode } from './remote-write-decoder.js'

const hex = (b) => Buffer.from(b).toString('hex')

test('varint: 7 bits a byte, low bits first, up to a Unix time in ms', () => {
  assert.equal(hex(varint(0)), '00')
  assert.equal(hex(varint(127)), '7f')
  assert.equal(hex(varint(128)), '8001')
  assert.equal(hex(varint(300)), 'ac02')
  // 1700000000000 = 0x18BCFE56800: 0x00 0x50 0x73 0xFF 0xCB 0x31 in 7-bit groups, low first
  assert.equal(hex(varint(1700000000000)), '80d095ffbc31')
  assert.throws(() => varint(-1), RangeError)
})

test('a TimeSeries and a WriteRequest are the protobuf bytes derived by hand', () => {
  const s = { labels: [['a', 'b']], samples: [{ value: 1, timestampMs: 1000 }] }
  // Label { name = 1: "a", value = 2: "b" }: 0a 01 61 12 01 62
  // Sample { double value = 1: 1.0 (fixed64 LE 3ff0...), int64 timestamp = 2: 1000 (e8 07) }
  const label = '0a0161120162'
  const sample = '09' + '000000000000f03f' + '10' + 'e807'
  const series = '0a06' + label + '120c' + sample
  assert.equal(hex(encodeTimeSeries(s)), series)
  assert.equal(hex(encodeWriteRequest([s, s])), '0a16' + series + '0a16' + series)
  assert.equal(hex(encodeWriteRequest([])), '')
})

test('snappy block of literals: the length, then tags of 1, 2 and 3 bytes by the literal\'s length', () => {
  assert.equal(hex(snappyBlock(Buffer.from('abc'))), '03' + '08' + '616263')
  assert.equal(hex(snappyBlock(Buffer.alloc(0))), '00')
  const b60 = Buffer.alloc(60, 7)
  assert.equal(hex(snappyBlock(b60).subarray(0, 2)), '3c' + 'ec') // 59 << 2
  const b100 = Buffer.alloc(100, 7)
  assert.equal(hex(snappyBlock(b100).subarray(0, 3)), '64' + 'f0' + '63') // tag 60, 99
  const b300 = Buffer.alloc(300, 7)
  assert.equal(hex(snappyBlock(b300).subarray(0, 5)), 'ac02' + 'f4' + '2b01') // tag 61, 299 LE
  const big = Buffer.alloc(70000)
  for (let i = 0; i < big.length; i++) big[i] = i % 251
  const block = snappyBlock(big)
  // 70000 = f0 a2 04; a literal of 65536 (f4 ff ff), then one of 4464 (f4 6f 11)
  assert.equal(hex(block.subarray(0, 6)), 'f0a204' + 'f4ffff')
  assert.equal(hex(block.subarray(6 + 65536, 6 + 65536 + 3)), 'f46f11')
  assert.equal(block.length, 3 + 3 + 65536 + 3 + 4464)
  assert.deepEqual(snappyDecode(block), big)
})

test('the registry\'s series as /metrics writes them: names, default labels, le, _sum and _count', async () => {
  const m = new RunMetrics({ run_id: 'r1', label: '', shard: '', workload: 'tpcb' })
  m.setShape({ terminals: 4, connections: 4, durationS: 10, warmupS: 0, types: ['t1'] })
  m.latency.addHdr({ type: 't1' }, fakeHdr([[1500, 3]]))
  m.transactions.inc({ type: 't1' }, 3)
  const series = timeSeriesOf(await m.registry.getMetricsAsJSON(), 1700000000123)
  for (const s of series) {
    assert.deepEqual(s.labels.map(([k]) => k), s.labels.map(([k]) => k).sort(), 'labels sorted by name')
    assert.ok(!s.labels.some(([, v]) => v === ''), 'no empty label value')
    assert.deepEqual(s.samples, [{ value: s.samples[0].value, timestampMs: 1700000000123 }])
  }
  // the same series and values as the text format of /metrics, one for one
  const pushed = new Map(series.map((s) => [seriesKey(s.labels), s.samples[0].value]))
  const scraped = textSeries(await m.text())
  assert.equal(pushed.size, series.length)
  assert.deepEqual(pushed, scraped)
  assert.equal(pushed.get(seriesKey([['__name__', 'pgload_transactions_total'], ['run_id', 'r1'], ['type', 't1'], ['workload', 'tpcb']])), 3)
  assert.equal(pushed.get(seriesKey([['__name__', 'pgload_latency_seconds_bucket'], ['le', '+Inf'], ['run_id', 'r1'], ['type', 't1'], ['workload', 'tpcb']])), 3)
  assert.equal(pushed.get(seriesKey([['__name__', 'pgload_latency_seconds_bucket'], ['le', '0.00001'], ['run_id', 'r1'], ['type', 't1'], ['workload', 'tpcb']])), 0)
})

test('a body decodes back to the series: snappy, then the WriteRequest', async () => {
  const r = new client.Registry()
  r.setDefaultLabels({ run_id: 'x' })
  const g = new client.Gauge({ name: 'g', help: 'h', labelNames: ['k'], registers: [r] })
  g.set({ k: 'é"\\n' }, -2.5)
  g.set({ k: 'v' }, Infinity)
  const series = timeSeriesOf(await r.getMetricsAsJSON(), 1700000000000)
  const decoded = decodeWriteRequest(snappyDecode(remoteWriteBody(series)))
  assert.deepEqual(decoded, series)
  assert.equal(decoded[0].labels.find(([k]) => k === 'k')[1], 'é"\\n')
})

const seriesKey = (labels) => JSON.stringify([...labels].sort((a, b) => (a[0] < b[0] ? -1 : 1)))

/** The Prometheus text format's samples by their labels (empty values left out, as Prometheus does). */
function textSeries (text) {
  const out = new Map()
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const m = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    assert.ok(m, line)
    const labels = [['__name__', m[1]]]
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      const value = v.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c))
      if (value !== '') labels.push([k, value])
    }
    out.set(seriesKey(labels), Number(m[3]))
  }
  return out
}

/** A stand-in for an HdrHistogram with the methods BucketHistogram reads: [[valueUs, count]]. */
function fakeHdr (pairs) {
  return {
    totalCount: pairs.reduce((a, [, c]) => a + c, 0),
    countsArrayLength: pairs.length,
    getCountAtIndex: (i) => pairs[i][1],
    valueFromIndex: (i) => pairs[i][0],
    medianEquivalentValue: (v) => v
  }
}
