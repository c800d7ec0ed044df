import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runNode } from '../helpers/cli.js'
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'bin', 'pgload.js')
const F = (n) => join(root, 'test', 'fixtures', 'compare', `${n}.json`)
const tmp = mkdtempSync(join(tmpdir(), 'pgload-compare-cli-'))
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }))

function pgload (args, env = {}) {
  // the step summary only where a test asks for it
  const cleanEnv = (e) => { if (!('GITHUB_STEP_SUMMARY' in env)) delete e.GITHUB_STEP_SUMMARY; return e }
  return runNode(bin, args, { env, cleanEnv, cwd: root })
}

test('check: 0 when all pass, with a JUnit file and the GitHub step summary', async () => {
  const junit = join(tmp, 'ok.xml')
  const summary = join(tmp, 'summary.md')
  writeFileSync(summary, '# earlier step\n')
  const r = await pgload(['check', F('base-1'), '--threshold', 'p(99) < 50ms', '--threshold', 'latency{txn:tpcb-like}:p(95)<20', '--junit', junit], { GITHUB_STEP_SUMMARY: summary })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /all 2 thresholds passed/)
  assert.equal((readFileSync(junit, 'utf8').match(/<testcase /g) ?? []).length, 2)
  const md = readFileSync(summary, 'utf8')
  assert.ok(md.startsWith('# earlier step\n'), 'appended, not overwritten')
  assert.match(md, /### pgload check: all 2 thresholds passed/)
})

test('check: 99 when a threshold fails (relative to a baseline)', async () => {
  const r = await pgload(['check', F('shift-1'), '--baseline', F('base-1'), '--threshold', 'p(99) < +5%', '--threshold', 'tps > -5%'])
  assert.equal(r.code, 99, r.stderr)
  assert.match(r.stdout, /FAIL\s+p\(99\) < \+5%/)
  assert.match(r.stdout, /ok\s+tps > -5%/)
  assert.match(r.stdout, /^1 of 2 thresholds failed$/m)
})

test('check: a failure is said once, under the table on stdout (stderr with --json, whose stdout is the JSON alone)', async () => {
  const r = await pgload(['check', F('base-1'), '--threshold', 'p(99) < 0.01ms'])
  assert.equal(r.code, 99, r.stderr)
  assert.equal(r.stdout.match(/1 of 1 threshold failed/g)?.length, 1, r.stdout)
  assert.equal(r.stderr, '')
  const json = await pgload(['check', F('base-1'), '--threshold', 'p(99) < 0.01ms', '--json'])
  assert.equal(json.code, 99, json.stderr)
  assert.equal(JSON.parse(json.stdout)[0].pass, false)
  assert.equal(json.stderr, 'pgload: 1 of 1 threshold failed\n')
  const ok = await pgload(['check', F('base-1'), '--threshold', 'p(99) < 50ms'])
  assert.match(ok.stdout, /^the threshold passed$/m)
})

test('check: a windowed threshold says which window was worst', async () => {
  const r = await pgload(['check', F('base-1'), '--threshold', 'p(99)[5s] < 0.01ms', '--threshold', 'p(99) < 50ms'])
  assert.equal(r.code, 99, r.stderr)
  const lines = r.stdout.split('\n')
  assert.match(lines[0], /^\s+threshold\s+actual\s+limit\s+worst window\s*$/)
  assert.match(lines.find((l) => l.startsWith('FAIL')), /^FAIL\s+p\(99\)\[5s\] < 0\.01ms\s+\S+ ms\s+\S+ ms\s+\d+(\.\d+)?-\d+(\.\d+)? s\s/)
  assert.match(lines.find((l) => l.startsWith('ok')), /^ok\s+p\(99\) < 50ms\s+\S+ ms\s+\S+ ms\s+-$/)
})

test('check: 99 for a threshold without data, 0 with --allow-empty', async () => {
  const r = await pgload(['check', F('base-1'), '--threshold', 'tpmC > 1'])
  assert.equal(r.code, 99)
  assert.match(r.stdout, /no data/)
  const r2 = await pgload(['check', F('base-1'), '--threshold', 'tpmC > 1', '--allow-empty'])
  assert.equal(r2.code, 0, r2.stderr)
})

test('check: 1 for a bad expression (column and caret) or a bad file', async () => {
  const r = await pgload(['check', F('base-1'), '--threshold', 'p(99) < 5 0ms'])
  assert.equal(r.code, 1)
  assert.match(r.stderr, /^pgload: --threshold 'p\(99\) < 5 0ms': unexpected '0' at column 11$/m)
  assert.match(r.stderr, /^hint: p\(99\) < 5 0ms\n {16}\^$/m)
  assert.equal(r.stdout, '')
  const missing = await pgload(['check', join(tmp, 'nope.json'), '--threshold', 'p(99) < 5'])
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /nope\.json/)
  const relative = await pgload(['check', F('base-1'), '--threshold', 'p(99) < +5%'])
  assert.equal(relative.code, 1)
  assert.match(relative.stderr, /needs --baseline/)
})

test('check: 2 when the results record an aborted run', async () => {
  const doc = JSON.parse(readFileSync(F('base-1'), 'utf8'))
  doc.run.aborted = true
  const file = join(tmp, 'aborted.json')
  writeFileSync(file, JSON.stringify(doc))
  const r = await pgload(['check', file, '--threshold', 'p(99) < 50ms'])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /aborted/)
})

test('compare: 0 without --fail-on-regression, 99 with it, options after -- too', async () => {
  const a = [1, 2, 3, 4, 5].map(i => F(`base-${i}`))
  const b = [1, 2, 3, 4, 5].map(i => F(`shift-${i}`))
  const plain = await pgload(['compare', ...a, '--', ...b])
  assert.equal(plain.code, 0, plain.stderr)
  assert.match(plain.stdout, /p99 ms\s+tpcb-like.*WORSE/)
  const gate = await pgload(['compare', ...a, '--', ...b, '--fail-on-regression', '--markdown'])
  assert.equal(gate.code, 99, gate.stderr)
  assert.match(gate.stdout, /^### pgload compare: \d+ regressions?/m)
  assert.match(gate.stderr, /regressions? of B against A/)
  const lists = await pgload(['compare', '--a', ...a, '--b', ...b, '--json'])
  assert.equal(lists.code, 0, lists.stderr)
  const v = JSON.parse(lists.stdout)
  assert.equal(v.a.runs, 5)
  assert.equal(v.b.runs, 5)
  assert.equal(v.rows.find(r => r.id === 'tpcb-like:p99').verdict, 'worse')
})

test('compare: identical configurations exit 0 even with --fail-on-regression', async () => {
  const r = await pgload(['compare', F('base-2'), F('same-2'), '--fail-on-regression'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /no regression/)
  assert.match(r.stdout, /single-run estimate/)
})

test('compare: 1 for runs that are not comparable, unless --force', async () => {
  const r = await pgload(['compare', F('base-1'), F('clients16')])
  assert.equal(r.code, 1)
  assert.match(r.stderr, /runs are not comparable: clients 4 vs 16/)
  const forced = await pgload(['compare', F('base-1'), F('clients16'), '--force'])
  assert.equal(forced.code, 0, forced.stderr)
  assert.match(forced.stdout, /clients: 4 -> 16/)
  const three = await pgload(['compare', F('base-1'), F('base-2'), F('same-1')])
  assert.equal(three.code, 1)
  assert.match(three.stderr, /no -- between/)
})

test('compare --report: one self-contained HTML file with every run overlaid', async () => {
  const html = join(tmp, 'ab.html')
  const r = await pgload(['compare', F('base-1'), F('base-2'), '--', F('base-3'), F('base-4'), '--report', html])
  assert.equal(r.code, 0, r.stderr)
  const text = readFileSync(html, 'utf8')
  assert.doesNotMatch(text, /https?:\/\//)
  for (const name of ['A1', 'A2', 'B1', 'B2']) assert.match(text, new RegExp(`\\b${name}\\b`))
})
