import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, basename } from 'node:path'
import { renderReport } from '../../../lib/report/render-report.js'
import { rasterOptions } from '../../../lib/report/png.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8'))
const out = mkdtempSync(join(tmpdir(), 'pgload-report-'))
test.after(() => rmSync(out, { recursive: true, force: true }))

/** Marks (vega's SVG classes) and axis titles each chart must show. */
const EXPECT = {
  throughput: { marks: ['mark-line', 'mark-rect', 'mark-rule', 'mark-text'], texts: ['time (s)', 'transactions per second', 'transaction type', 'checkpoint', 'autovacuum'] },
  'latency-over-time': { marks: ['mark-line', 'mark-rect'], texts: ['time (s)', 'latency (ms)', 'p50', 'p90', 'p99', 'max'] },
  'percentile-spectrum': { marks: ['mark-line'], texts: ['percentile', 'latency (ms)', '50%', '90%', '99%', '99.9%'] },
  'latency-distribution': { marks: ['mark-rect'], texts: ['latency (ms)', '% of transactions'] },
  'server-activity': { marks: ['mark-line', 'mark-area', 'mark-rect'], texts: ['WAL MB/s', 'blocks per second', 'backends', 'lock waits', 'idle in transaction'] },
  tpcc: { marks: ['mark-line', 'mark-rule', 'mark-rect', 'mark-symbol'], texts: ['tpmC (New-Order per minute)', '90th percentile response time (ms, log)', 'new-order', 'stock-level', 'within limit'] },
  compare: { marks: ['mark-line'], texts: ['transactions per second', 'p99 latency per interval (ms)', 'percentile (whole run)', 'tpcb seed=101', 'tpcb seed=202'] }
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize (buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature')
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) }
}

const svgText = (svg) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&amp;/g, '&'))

for (const set of [['tpcb-a.json'], ['tpcc.json'], ['tpcb-a.json', 'tpcb-b.json']]) {
  test(`every chart of ${set.join(' + ')} renders to SVG and PNG`, async (t) => {
    const dir = join(out, set.join('+'))
    const timings = {}
    const warnings = []
    const t0 = performance.now()
    const files = await renderReport(set.map(fixture), { formats: ['svg', 'png'], outDir: dir, timings, warnings })
    assert.deepEqual(warnings, [])
    t.diagnostic(`${files.length} files in ${Math.round(performance.now() - t0)} ms: ` + Object.entries(timings).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', '))
    const svgs = files.filter((f) => f.endsWith('.svg'))
    assert.equal(svgs.length, files.length / 2)
    const ids = set.length > 1 ? ['compare', ...['a', 'b'].flatMap((p) => Object.keys(EXPECT).filter((id) => id !== 'compare' && id !== 'tpcc').map((id) => `${p}-${id}`))] : Object.keys(EXPECT).filter((id) => id !== 'compare' && (id !== 'tpcc' || set[0] === 'tpcc.json'))
    assert.deepEqual(svgs.map((f) => basename(f, '.svg')).sort(), ids.sort())
    for (const file of svgs) {
      const id = basename(file, '.svg').replace(/^[ab]-/, '')
      const svg = readFileSync(file, 'utf8')
      assert.match(svg, /^<svg [^>]*width="(\d+)" height="(\d+)"/)
      for (const mark of EXPECT[id].marks) assert.ok(svg.includes(`class="${mark} role-mark`), `${basename(file)}: no ${mark}`)
      const texts = svgText(svg)
      for (const text of EXPECT[id].texts) assert.ok(texts.some((s) => s.includes(text)), `${basename(file)}: no text "${text}"`)
      const [, w, h] = svg.match(/^<svg [^>]*width="(\d+)" height="(\d+)"/)
      const size = pngSize(readFileSync(file.replace(/\.svg$/, '.png')))
      assert.equal(size.width, Number(w) * 2, `${basename(file)} PNG width`)
      assert.equal(size.height, Number(h) * 2, `${basename(file)} PNG height`)
    }
  })
}

test('PNG text is drawn with the vendored fonts (resvg drops text it has no font for)', async () => {
  const { Resvg } = await import('@resvg/resvg-js')
  const svg = (text) => `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><text x="5" y="20" font-family="sans-serif" font-size="16" font-weight="X">${text}</text></svg>`
  const dark = (s) => { const px = new Resvg(s, rasterOptions(1)).render().pixels; let n = 0; for (let i = 0; i < px.length; i += 4) if (px[i] < 128) n++; return n }
  assert.equal(dark(svg('').replace('X', 'normal')), 0)
  assert.ok(dark(svg('latency').replace('X', 'normal')) > 50, 'regular text drawn')
  assert.ok(dark(svg('latency').replace('X', 'bold')) > dark(svg('latency').replace('X', 'normal')), 'bold is heavier than regular')
})

test('a run without server events or thresholds renders without vega warnings', async () => {
  const doc = fixture('tpcb-a.json')
  doc.serverStats.events = []
  const warnings = []
  const files = await renderReport([doc], { formats: ['svg'], outDir: join(out, 'no-events'), warnings })
  assert.equal(files.length, 5)
  assert.deepEqual(warnings, [])
  assert.ok(!readFileSync(join(out, 'no-events', 'throughput.svg'), 'utf8').includes('class="mark-rect role-mark'), 'no checkpoint spans drawn')
})

test('a results file recorded by pgload run renders every applicable chart without warnings', async () => {
  const warnings = []
  const files = await renderReport([fixture('recorded-tpcb.json')], { formats: ['svg'], outDir: join(out, 'recorded'), warnings })
  assert.deepEqual(files.map((f) => basename(f, '.svg')), ['throughput', 'latency-over-time', 'percentile-spectrum', 'latency-distribution', 'server-activity'])
  assert.deepEqual(warnings, [])
  // That run had a CHECKPOINT forced 4 s in and no autovacuum: a span, and no empty rule layer.
  const tps = readFileSync(join(out, 'recorded', 'throughput.svg'), 'utf8')
  assert.ok(tps.includes('class="mark-rect role-mark'), 'checkpoint span drawn')
  assert.ok(svgText(tps).includes('checkpoint (requested)'))
  const server = svgText(readFileSync(join(out, 'recorded', 'server-activity.svg'), 'utf8'))
  for (const text of ['WAL MB/s', 'blocks per second', 'backends', 'lock waits']) assert.ok(server.includes(text), text)
})

test('pg_stat_io rates draw a panel of reads and writes by backend type, aligned with the others', async () => {
  const doc = fixture('tpcb-a.json')
  const series = doc.serverStats.series
  series.forEach((s, i) => { s.ioPerS = { 'client backend': { reads: 10 + i, writes: 1, extends: 0, fsyncs: 0 }, checkpointer: { reads: 0, writes: 40, extends: 0, fsyncs: 1 } } })
  const warnings = []
  await renderReport([doc], { formats: ['svg'], outDir: join(out, 'io'), warnings })
  assert.deepEqual(warnings, [])
  const texts = svgText(readFileSync(join(out, 'io', 'server-activity.svg'), 'utf8'))
  for (const text of ['pg_stat_io operations/s', 'backend type', 'client backend', 'checkpointer', 'writes']) assert.ok(texts.includes(text), `no text "${text}"`)
  // without pg_stat_io the panel is left out
  const plain = svgText(readFileSync(join(out, 'no-events', 'server-activity.svg'), 'utf8'))
  assert.ok(!plain.includes('pg_stat_io operations/s'))
})

test('the server host\'s figures draw a stacked CPU panel and a disk panel on the others\' time axis', async () => {
  const doc = fixture('tpcb-a.json')
  const series = doc.serverStats.series
  series.forEach((s, i) => { s.host = { cpu: { busy: 70, user: 50 + (i % 3), system: 15, iowait: 5 - (i % 3), steal: 0, idle: 30 }, disk: { readsPerS: 3, writesPerS: 200 + i, readBytesPerS: 12288, writeBytesPerS: 1_600_000, queue: 0.8 } } })
  doc.serverStats.host = { available: true, disk: { name: 'nvme0n1', devices: ['nvme0n1'], scope: 'data directory' }, samples: series.length, window: series[0].host, max: series[0].host }
  const warnings = []
  await renderReport([doc], { formats: ['svg'], outDir: join(out, 'host'), warnings })
  assert.deepEqual(warnings, [])
  const texts = svgText(readFileSync(join(out, 'host', 'server-activity.svg'), 'utf8'))
  for (const text of ['host CPU %', 'host CPU', 'user', 'system', 'iowait', 'steal', 'host disk I/Os/s', 'host disk nvme0n1', 'reads', 'writes']) assert.ok(texts.includes(text), `no text "${text}"`)
  // without them the panels are left out
  const plain = svgText(readFileSync(join(out, 'no-events', 'server-activity.svg'), 'utf8'))
  assert.ok(!plain.includes('host CPU %'))
})
