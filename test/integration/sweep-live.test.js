// `pgload sweep --dashboard --metrics`: one dashboard and one endpoint for the whole sweep. A page
// following the server-sent events sees the run counter advance and the table of cells done grow,
// then the sweep's report; the endpoint's series carry the current run's cell; --resume with
// other addresses is the same sweep, and the addresses are not recorded.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { freePort } from '../helpers/free-port.js'
import { mkdtempSync, rmSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { runCli } from '../helpers/cli.js'

const DB = `pgload_sweep_live_${process.pid}`
const scratch = scratchDatabase(DB)
let url
let tmp

before(async () => {
  await scratch.create()
  url = scratch.url
  tmp = mkdtempSync(join(tmpdir(), 'pgload-sweep-live-'))
})

after(async () => {
  await scratch.drop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

/** Read a server-sent events stream to its end: every event as { name, data }. */
async function readEvents (address) {
  const res = await fetch(`${address}events`)
  const decoder = new TextDecoder()
  let text = ''
  for await (const chunk of res.body) text += decoder.decode(chunk, { stream: true })
  return text.split('\n\n').filter((b) => b.startsWith('event: ')).map((block) => {
    const lines = block.split('\n')
    return { name: lines[0].slice('event: '.length), data: lines.slice(1).map((l) => l.replace(/^data: ?/, '')).join('\n') }
  })
}

test('a sweep of two cells with --dashboard and --metrics: the page follows the sweep, then shows its report', { timeout: 120_000 }, async () => {
  const [dashPort, metricsPort] = [await freePort(), await freePort()]
  const dir = join(tmp, 'sweep')
  const out = join(tmp, 'final.html')
  const address = `http://127.0.0.1:${dashPort}/`
  let events = null
  const scrapes = []
  const onSpawn = (child) => {
    let said = ''
    child.stderr.on('data', (d) => {
      said += d
      if (events === null && said.includes('pgload: dashboard at')) events = readEvents(address)
    })
    const timer = setInterval(async () => {
      const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text(), () => null)
      if (text) scrapes.push(text)
    }, 250)
    child.on('exit', () => clearInterval(timer))
  }
  const r = await runCli(['sweep', 'tpcb', '--scale', '1', '--clients', '1,2', '--repeat', '1', '-T', '2', '--url', url, '--dir', dir,
    '--dashboard', `127.0.0.1:${dashPort}`, '--dashboard-out', out, '--metrics', `127.0.0.1:${metricsPort}`], { onSpawn, timeoutMs: 100_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, new RegExp(`pgload: dashboard at ${address} `))
  assert.ok(events, `the dashboard was never announced: ${r.stderr}`)
  const seen = await events

  const updates = seen.filter((e) => e.name === 'update').map((e) => JSON.parse(e.data))
  const headers = updates.map((u) => u.header)
  // the runs' order is shuffled (the sweep's order seed): either cell may come first
  const first = headers.findIndex((h) => /run 1 of 2: cell (1 of 2 \(scale 1, clients 1\)|2 of 2 \(scale 1, clients 2\)), run 1 of 1 of the cell/.test(h))
  const second = headers.findIndex((h) => /run 2 of 2: cell (1 of 2 \(scale 1, clients 1\)|2 of 2 \(scale 1, clients 2\))/.test(h))
  assert.ok(first >= 0 && second > first, `the run counter advanced: ${headers.map((h) => h.match(/run \d of \d/)?.[0]).join(', ')}`)
  assert.match(headers[first], /No cell has a finished run yet/)
  const rows = (h) => (h.match(/<tr><td>/g) ?? []).length
  assert.equal(rows(headers[second]), 1, 'the first cell is done when the second runs')
  assert.ok(updates.slice(first, second).some((u) => u.charts.length > 0 || (!u.full && u.points > 0)), 'the first run\'s charts were live')
  assert.ok(updates.slice(second).some((u) => u.points > 0), 'the second run\'s charts were live (a fresh view)')
  assert.ok(updates[second].full && updates[second].points === 0, 'each run starts a fresh live view')

  const report = seen.at(-1)
  assert.equal(report.name, 'report')
  assert.match(report.data, /pgload sweep report/)
  assert.equal(readFileSync(out, 'utf8'), report.data, '--dashboard-out saves the final page')

  // the endpoint: the sweep's gauges, and the current run's series labelled with its cell
  const during = scrapes.filter((t) => /pgload_sweep_run_position\{[^}]*\} [12]\n/.test(t))
  assert.ok(during.some((t) => /pgload_transactions_total\{[^}]*cell="scale 1, clients 2"/.test(t)), 'a scrape of the second run carries its cell')
  assert.ok(during.some((t) => /pgload_transactions_total\{[^}]*cell="scale 1, clients 1"/.test(t)), 'a scrape of the first run carries its cell')

  const doc = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'))
  assert.equal(doc.cells.length, 2)
  assert.doesNotMatch(JSON.stringify({ args: doc.args, options: doc.options, command: doc.command }), /dashboard|metrics|final\.html/i)

  // --resume with other addresses is the same sweep: nothing left to run, the report served again
  const other = await freePort()
  const again = await runCli(['sweep', '--resume', dir, '--url', url, '--dashboard', `127.0.0.1:${other}`, '--metrics', `127.0.0.1:${await freePort()}`], { timeoutMs: 60_000 })
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stderr, new RegExp(`pgload: dashboard at http://127.0.0.1:${other}/`))
  assert.match(again.stderr, /2 of 2 runs done/)
})

test('--resume with the sweep\'s own options and another --dashboard address is not another sweep', { timeout: 60_000 }, async () => {
  const dir = join(tmp, 'sweep')
  const r = await runCli(['sweep', '--resume', dir, 'tpcb', '--scale', '1', '--clients', '1,2', '--repeat', '1', '-T', '2', '--url', url,
    '--dashboard', '127.0.0.1:0'], { timeoutMs: 60_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.doesNotMatch(r.stderr, /SWEEP_CHANGED|differ/)
})
