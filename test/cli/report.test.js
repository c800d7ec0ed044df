// `pgload report` with runs of different workloads: a note on stderr, charts drawn apart.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runNode, BIN, assertOneLineError } from '../helpers/cli.js'

const F = (n) => new URL(`../fixtures/results/${n}.json`, import.meta.url).pathname
const tmp = mkdtempSync(join(tmpdir(), 'pgload-report-cli-'))
test.after(() => rmSync(tmp, { recursive: true, force: true }))

test('report of a tpcb and a tpcc run says they are not comparable and overlays neither', async () => {
  const out = join(tmp, 'mixed')
  const r = await runNode(BIN, ['report', F('tpcb-a'), F('tpcc'), '--format', 'svg', '--out', out])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stderr, 'pgload: runs are not comparable: workload tpcb vs tpcc; each workload is charted on its own\n')
  const files = readdirSync(out)
  assert.ok(!files.some((f) => f.startsWith('compare')), files.join(' '))
  assert.ok(files.includes('a-throughput.svg') && files.includes('b-tpcc.svg'))
  assert.match(readFileSync(join(out, 'b-tpcc.svg'), 'utf8'), />tpcc: TPC-C</)
})

test('report of two tpcb runs overlays them under names that tell them apart', async () => {
  const out = join(tmp, 'same')
  const r = await runNode(BIN, ['report', F('tpcb-a'), F('tpcb-b'), '--format', 'svg', '--out', out])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stderr, '')
  const svg = readFileSync(join(out, 'compare.svg'), 'utf8')
  assert.ok(svg.includes('>tpcb seed=101<') && svg.includes('>tpcb seed=202<'))
})

test('report -o x.html writes that one HTML file; an .svg or .png name is refused in one line', async () => {
  const file = join(tmp, 'one', 'run.html')
  const r = await runNode(BIN, ['report', F('tpcb-a'), '-o', file])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout.trim(), file)
  assert.match(readFileSync(file, 'utf8'), /^<!doctype html>/i)
  assert.deepEqual(readdirSync(join(tmp, 'one')), ['run.html'])
  const png = await runNode(BIN, ['report', F('tpcb-a'), '-o', join(tmp, 'x.png')])
  assert.equal(png.code, 1)
  assert.match(png.stderr, /^pgload: --out .*x\.png: a run report has several charts; give --out a directory and --format png\n$/)
})

test('report without -o writes beside the results file, never into the current directory', async () => {
  const { copyFileSync, existsSync, mkdirSync } = await import('node:fs')
  const results = join(tmp, 'beside', 'pgload-results')
  const cwd = join(tmp, 'beside', 'cwd')
  mkdirSync(results, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  copyFileSync(F('tpcb-a'), join(results, 'tpcb-a.json'))
  copyFileSync(F('tpcb-b'), join(results, 'tpcb-b.json'))
  let r = await runNode(BIN, ['report', join(results, 'tpcb-a.json')], { cwd })
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout.trim(), join(results, 'tpcb-a.html'))
  assert.ok(existsSync(join(results, 'tpcb-a.html')))
  r = await runNode(BIN, ['report', join(results, 'tpcb-a.json'), join(results, 'tpcb-b.json')], { cwd })
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout.trim(), join(results, 'report.html'))
  assert.deepEqual(readdirSync(cwd), [], 'nothing written into the current directory')
})

test('report -o out.pdf or out.htm is refused in one line naming what --out takes; no directory is made', async () => {
  for (const name of ['out.pdf', 'out.htm']) {
    const out = join(tmp, name)
    const r = await runNode(BIN, ['report', F('tpcb-a'), '-o', out])
    // a run report is one .html file or a directory: its several charts have no one-file name
    assertOneLineError(r, new RegExp(`--out .*${name.replace('.', '\\.')}: \\.\\w+ is not a report format; give a file ending in \\.html, or a directory$`))
    assert.equal(existsSync(out), false, `${out} was made`)
  }
  // a directory with a dot in its name is still a directory when it exists or ends in /
  const dotted = join(tmp, 'reports.v2')
  mkdirSync(dotted)
  const r = await runNode(BIN, ['report', F('tpcb-a'), '-o', dotted])
  assert.equal(r.code, 0, r.stderr)
  assert.ok(readdirSync(dotted).length > 0)
  const slash = await runNode(BIN, ['report', F('tpcb-a'), '-o', join(tmp, 'new.d') + '/'])
  assert.equal(slash.code, 0, slash.stderr)
})
