import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderSweepReport, sweepOutput } from '../../../../lib/report/sweep/render.js'
import { buildSweepCharts, stackCharts, xScaleFor } from '../../../../lib/report/sweep/charts.js'
import { sweepShape } from '../../../../lib/report/sweep/axes.js'
import { renderSvg } from '../../../../lib/report/svg.js'
import { loadSweep, withFailedCell, asRateSweep, SWEEP_FILE } from '../../../fixtures/sweep/variants.js'

const tmp = mkdtempSync(join(tmpdir(), 'pgload-sweep-render-'))
test.after(() => rmSync(tmp, { recursive: true, force: true }))

test('every chart of the fixture sweep compiles and renders without a vega warning', async () => {
  const sweep = loadSweep()
  const built = buildSweepCharts(sweep, sweepShape(sweep))
  assert.deepEqual(built.charts.map((c) => c.name), ['sweep-throughput', 'sweep-latency', 'sweep-knee', 'sweep-size'])
  assert.deepEqual(built.skipped, [])
  for (const c of built.charts) {
    const { svg, warnings } = await renderSvg(c.spec)
    assert.deepEqual(warnings, [], c.name)
    assert.ok(svg.includes(`>${c.title}<`), c.name)
  }
  // Legends list the lines in numeric order, not as text sorts them.
  assert.deepEqual(built.charts[0].spec.encoding.color.scale.domain, ['scale 1', 'scale 10'])
  assert.deepEqual(built.charts[3].spec.hconcat.map((p) => p.name), ['shared_buffers', 'memory'])
  // Clients 1, 4, 16 span 16x: a log2 axis with a tick at each value.
  assert.deepEqual(built.charts[0].spec.encoding.x.scale, { type: 'log', base: 2 })
  assert.deepEqual(built.charts[0].spec.encoding.x.axis.values, [1, 4, 16])
})

test('the x axis is logarithmic only when the values span a factor of 8, whole numbers without decimals', () => {
  assert.deepEqual(xScaleFor([10, 50, 100]), { scale: { type: 'log', base: 10 }, axis: { values: [10, 50, 100], format: '.0f' } })
  assert.deepEqual(xScaleFor([2, 4, 8]), { scale: { zero: false }, axis: { values: [2, 4, 8], format: '.0f' } })
  assert.deepEqual(xScaleFor([64]), { scale: { zero: false }, axis: { values: [64], format: '.0f' } })
  assert.deepEqual(xScaleFor([1, 2]), { scale: { zero: false }, axis: { values: [1, 2], format: '.0f' } })
  assert.deepEqual(xScaleFor([0.5, 2.5]), { scale: { zero: false }, axis: { values: [0.5, 2.5], format: '~g' } })
  // 0 analytic streams, the baseline, stays on a linear axis however far the others reach
  assert.deepEqual(xScaleFor([0, 1, 2, 4, 8]), { scale: { zero: false }, axis: { values: [0, 1, 2, 4, 8], format: '.0f' } })
})

test('a rate sweep draws against the target rate and has no shared_buffers chart when none is known', async () => {
  const sweep = asRateSweep()
  sweep.server.sharedBuffersBytes = null
  sweep.host.memoryBytes = null
  const built = buildSweepCharts(sweep, sweepShape(sweep))
  assert.equal(built.charts[0].title, 'Throughput against the target rate')
  assert.equal(built.charts[0].spec.encoding.x.title, 'target rate (transactions per second)')
  assert.deepEqual(built.skipped.map((s) => s.id), ['size'])
  assert.match(built.skipped[0].reason, /neither shared_buffers/)
  // The dashed line of throughput equal to the target rate, at each rate swept.
  assert.deepEqual(built.charts[0].spec.datasets.sweepTarget, [{ x: 250, tps: 250 }, { x: 1000, tps: 1000 }, { x: 4000, tps: 4000 }])
  assert.equal(built.charts[0].spec.layer[0].data.name, 'sweepTarget')
  const clients = buildSweepCharts(loadSweep(), sweepShape(loadSweep())).charts[0].spec
  assert.ok(!clients.layer.some((l) => l.data?.name === 'sweepTarget'), 'no target line against clients')
})

test('all charts stacked in one spec keep every dataset and render as one SVG', async () => {
  const sweep = loadSweep()
  const built = buildSweepCharts(sweep, sweepShape(sweep))
  const stacked = stackCharts(built.charts)
  assert.deepEqual(Object.keys(stacked.datasets).sort(), ['sweepKnee', 'sweepKneeLabels', 'sweepLatency', 'sweepSize', 'sweepTarget', 'sweepThroughput'])
  const { svg, warnings } = await renderSvg(stacked)
  assert.deepEqual(warnings, [])
  for (const c of built.charts) assert.ok(svg.includes(`>${c.title}<`), c.title)
})

test('--out: a .html, .svg or .png name is one file, anything else a directory', () => {
  assert.deepEqual(sweepOutput('r/x.html'), { file: join(process.cwd(), 'r/x.html'), format: 'html' })
  assert.deepEqual(sweepOutput('x.PNG', 'png'), { file: join(process.cwd(), 'x.PNG'), format: 'png' })
  assert.deepEqual(sweepOutput('charts', 'svg,png'), { dir: join(process.cwd(), 'charts'), formats: ['svg', 'png'] })
  assert.deepEqual(sweepOutput(undefined), { dir: process.cwd(), formats: ['html'] })
  assert.throws(() => sweepOutput('x.html', 'svg'), { code: 'USAGE', message: '--out x.html is one HTML file but --format asks for svg: give --out a directory for other or several formats' })
  assert.throws(() => sweepOutput('charts', 'pdf'), { message: '--format must be html, svg or png (comma-separated), got "pdf"' })
})

test('the HTML report names the sweep, the best cells and links every run file relative to itself', async () => {
  const out = join(tmp, 'nested', 'sweep.html')
  const notes = []
  const written = await renderSweepReport(withFailedCell({ scale: 10, clients: 16 }), { out, source: SWEEP_FILE, p99LimitMs: 10, notes })
  assert.deepEqual(written, [out])
  assert.deepEqual(notes, ['1 cell has no finished run and is not drawn: scale 10, 16 clients'])
  const html = readFileSync(out, 'utf8')
  assert.match(html, /<title>pgload sweep report: tpcb<\/title>/)
  assert.match(html, /<dt>swept<\/dt><dd>scale 1, 10 × clients 1, 4, 16 × 3 repeats<\/dd>/)
  assert.match(html, /<dt>server<\/dt><dd>PostgreSQL 18\.4 \(embedded\) shared_buffers 128 MB<\/dd>/)
  assert.match(html, /<dt>runs<\/dt><dd>18 runs: 15 done, 3 failed<\/dd>/)
  assert.match(html, /<li>scale 10, 16 clients: 3 failed<\/li>/)
  assert.match(html, /<th scope="row">scale 10<\/th><td style="text-align: left">best with p99 ≤ 10 ms<\/td><td style="text-align: left">scale 10, 4 clients<\/td>/)
  assert.match(html, /connection to server lost/)
  // links from the report's directory to the fixture's run files (escaped / is &#47;)
  const hrefs = [...html.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1].replaceAll('&#47;', '/'))
  assert.equal(hrefs.length, 15)
  for (const href of hrefs) {
    const target = join(tmp, 'nested', decodeURIComponent(href))
    assert.ok(readFileSync(target).length > 1000, `${href} resolves to a run file`)
  }
  assert.doesNotMatch(html, /file not found/)
  const specs = JSON.parse(html.match(/<script type="application\/json" id="pgload-specs">(.*?)<\/script>/s)[1])
  assert.equal(specs.length, 4)
  assert.equal(specs[0].datasets.sweepThroughput.length, 5)
})

test('a directory gets the HTML file and one SVG per chart', async () => {
  const dir = join(tmp, 'dir')
  await renderSweepReport(loadSweep(), { out: dir, formats: 'svg,html', source: SWEEP_FILE })
  assert.deepEqual(readdirSync(dir).sort(), ['sweep-knee.svg', 'sweep-latency.svg', 'sweep-report.html', 'sweep-size.svg', 'sweep-throughput.svg'])
})

test('a scale-only sweep is drawn against the scale; a sweep that names no axis draws nothing, saying why', () => {
  const sweep = loadSweep()
  const keep = (x) => x.cell.clients === 4
  sweep.axes.clients = null
  sweep.runs = sweep.runs.filter(keep)
  sweep.cells = sweep.cells.filter(keep)
  for (const x of [...sweep.runs, ...sweep.cells]) x.cell.clients = null
  const built = buildSweepCharts(sweep, sweepShape(sweep))
  assert.deepEqual(built.charts.map((c) => c.title), ['Throughput against scale', 'Latency against scale', 'Latency against throughput', 'Throughput against database size'])
  assert.equal(built.charts[2].spec.title.subtitle[0], 'medians of each cell joined in order of scale; p50 solid, p99 dashed')
  const single = { ...sweep, axes: { scale: null, clients: null, rate: null }, cells: sweep.cells.slice(0, 1), runs: sweep.runs.slice(0, 1) }
  for (const x of [...single.cells, ...single.runs]) x.cell = { scale: null, clients: null, rate: null }
  const none = buildSweepCharts(single, sweepShape(single))
  assert.deepEqual(none.charts, [])
  assert.equal(none.skipped.length, 4)
  assert.match(none.skipped[0].reason, /names no scale, clients or rate/)
})

test('legends are titled by the axes their lines stand for', () => {
  const sweep = loadSweep()
  const built = buildSweepCharts(sweep, sweepShape(sweep))
  assert.equal(built.charts[0].spec.encoding.color.title, 'scale')
  assert.equal(built.charts[3].spec.hconcat[0].encoding.color.title, 'clients')
  const rate = asRateSweep()
  const rateCharts = buildSweepCharts(rate, sweepShape(rate))
  assert.equal(rateCharts.charts[0].spec.encoding.color.title, 'scale')
  assert.equal(rateCharts.charts[3].spec.hconcat[0].encoding.color.title, 'rate')
})

test('a damaged sweep document given in memory is refused before anything is written', async () => {
  const sweep = loadSweep()
  sweep.runs[3].repeat = 0
  const out = join(tmp, 'refused.html')
  await assert.rejects(renderSweepReport(sweep, { out, source: 'mine.json' }), { code: 'SWEEP_INVALID', message: 'mine.json: runs[3].repeat: expected an integer >= 1, got 0' })
  assert.ok(!readdirSync(tmp).includes('refused.html'))
})
