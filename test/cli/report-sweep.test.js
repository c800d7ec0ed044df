// `pgload report SWEEP.json`: a sweep document is recognised by its format and drawn as one HTML
// file, one SVG or PNG with every chart, or a directory of files; misuse fails with one line.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli, assertOneLineError } from '../helpers/cli.js'
import { SWEEP_FILE, loadSweep } from '../fixtures/sweep/variants.js'

const RESULTS = fileURLToPath(new URL('../fixtures/results/tpcb-a.json', import.meta.url))
const tmp = mkdtempSync(join(tmpdir(), 'pgload-report-sweep-cli-'))
test.after(() => rmSync(tmp, { recursive: true, force: true }))

test('pgload report sweep.json -o x.html writes the sweep report', async () => {
  const out = join(tmp, 'x.html')
  const r = await runCli(['report', SWEEP_FILE, '-o', out, '--p99-limit', '10ms'])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, `${out}\n`)
  assert.equal(r.stderr, '')
  const html = readFileSync(out, 'utf8')
  assert.match(html, /<h3>Best cells<\/h3><p class="note">p99 limit 10 ms \(--p99-limit\)/)
  assert.match(html, /scale 10, 16 clients/)
  // the answer first: the best cells open the report, before the table of cells and what ran
  const at = (needle) => html.indexOf(needle)
  assert.ok(at('<h2>Sweep</h2>') < at('<h3>Best cells</h3>') && at('<h3>Best cells</h3>') < at('<h3>Cells</h3>') && at('<h3>Cells</h3>') < at('<h3>What ran</h3>'), 'best cells, cells, then what ran')
  assert.ok(at('<h3>What ran</h3>') < at('<dt>workload</dt>'))
  for (const title of ['Throughput against clients', 'Latency against clients', 'Latency against throughput', 'Throughput against database size']) {
    assert.ok(html.includes(`aria-label="${title}"`), title)
  }
})

test('pgload report sweep.json -o x.pdf names the files a sweep report can be', async () => {
  const out = join(tmp, 'x.pdf')
  assertOneLineError(await runCli(['report', SWEEP_FILE, '-o', out]), /--out .*x\.pdf: \.pdf is not a report format; give a file ending in \.html, \.svg or \.png, or a directory$/)
})

test('pgload report DIR reads the sweep.json of a sweep\'s directory and links its runs', async () => {
  const out = join(tmp, 'from-dir.html')
  const r = await runCli(['report', dirname(SWEEP_FILE), '-o', out])
  assert.equal(r.code, 0, r.stderr)
  const html = readFileSync(out, 'utf8')
  assert.ok(html.includes(`<dt>sweep document</dt><dd>${SWEEP_FILE.replaceAll('/', '&#47;')}</dd>`))
  assert.equal([...html.matchAll(/<a href=/g)].length, 18)
  assert.doesNotMatch(html, /file not found/)
})

test('pgload report sweep.json -o x.svg and -o x.png write one image with every chart', async () => {
  const svgFile = join(tmp, 'x.svg')
  const svg = await runCli(['report', SWEEP_FILE, '-o', svgFile])
  assert.equal(svg.code, 0, svg.stderr)
  assert.equal(svg.stdout, `${svgFile}\n`)
  const text = readFileSync(svgFile, 'utf8')
  assert.match(text, /^<svg/)
  for (const title of ['Throughput against clients', 'Latency against clients', 'Latency against throughput', 'Throughput against database size']) {
    assert.ok(text.includes(`>${title}<`), title)
  }
  const pngFile = join(tmp, 'x.png')
  const png = await runCli(['report', SWEEP_FILE, '-o', pngFile])
  assert.equal(png.code, 0, png.stderr)
  const bytes = readFileSync(pngFile)
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  // 2 px per unit: the stacked charts are taller than wide
  assert.ok(bytes.readUInt32BE(20) > bytes.readUInt32BE(16), 'height > width')
})

test('pgload report sweep.json --format svg,png -o DIR writes one file per chart', async () => {
  const dir = join(tmp, 'charts')
  const r = await runCli(['report', SWEEP_FILE, '--format', 'svg,png', '-o', dir])
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(readdirSync(dir).sort(), [
    'sweep-knee.png', 'sweep-knee.svg', 'sweep-latency.png', 'sweep-latency.svg',
    'sweep-size.png', 'sweep-size.svg', 'sweep-throughput.png', 'sweep-throughput.svg'
  ])
})

test('a cell with no finished run is named on stderr and the report is still written', async () => {
  const sweep = loadSweep()
  sweep.runs.filter((x) => x.cell.scale === 1 && x.cell.clients === 4).forEach((x) => Object.assign(x, { status: 'pending', file: null }))
  sweep.cells = sweep.cells.filter((c) => !(c.cell.scale === 1 && c.cell.clients === 4))
  const file = join(tmp, 'partial.json')
  writeFileSync(file, JSON.stringify(sweep))
  const out = join(tmp, 'partial.html')
  const r = await runCli(['report', file, '-o', out])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stderr, 'pgload: 1 cell has no finished run and is not drawn: scale 1, 4 clients\n')
  assert.match(readFileSync(out, 'utf8'), /<li>scale 1, 4 clients: 3 pending<\/li>/)
})

const refused = [
  [['report', SWEEP_FILE, RESULTS], `${SWEEP_FILE} is a sweep document: report it on its own, without other files`],
  [['report', RESULTS, '--p99-limit', '10ms'], '--p99-limit applies to a sweep document (the sweep.json of pgload sweep), not to results files'],
  [['report', SWEEP_FILE, '--p99-limit', 'soon'], '--p99-limit must be a duration like 30s, 10m or 1h, got "soon"'],
  [['report', SWEEP_FILE, '-o', 'x.html', '--format', 'png'], '--out x.html is one HTML file but --format asks for png: give --out a directory for other or several formats']
]

for (const [args, message] of refused) {
  test(`pgload ${args.slice(1).map((a) => a.replace(/.*\//, '')).join(' ')}: refused with one line`, async () => {
    const r = await runCli(args, { cwd: tmp })
    assert.equal(r.code, 1, r.stderr)
    assert.equal(r.stderr, `pgload: ${message}\n`)
    assert.equal(r.stdout, '')
  })
}

test('a damaged sweep document is refused with one line naming the field', async () => {
  const sweep = loadSweep()
  sweep.cells[0].tps = 'lots'
  const file = join(tmp, 'damaged.json')
  writeFileSync(file, JSON.stringify(sweep))
  const r = await runCli(['report', file, '-o', join(tmp, 'damaged.html')])
  assert.equal(r.code, 1)
  assert.equal(r.stderr, `pgload: ${file}: cells[0].tps: expected an object or null, got "lots"\n`)
})

test('pgload report sweep.json without -o writes beside the sweep document, not into the current directory', async () => {
  const { cpSync, mkdirSync } = await import('node:fs')
  const dir = join(tmp, 'beside', 'pgload-sweeps', 'tpcb')
  const cwd = join(tmp, 'beside', 'cwd')
  cpSync(dirname(SWEEP_FILE), dir, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  const r = await runCli(['report', join(dir, 'sweep.json')], { cwd })
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, `${join(dir, 'sweep-report.html')}\n`)
  // the sweep's directory stands for its sweep.json: the report goes into it as well
  const again = await runCli(['report', dir], { cwd })
  assert.equal(again.stdout, `${join(dir, 'sweep-report.html')}\n`)
  assert.deepEqual(readdirSync(cwd), [])
})
