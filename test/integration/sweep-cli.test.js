// `pgload sweep` end to end on the test server: a 2 x 3 x 3 sweep (scale 1,2 x clients 1,2,4 x
// 3 repeats) killed with SIGKILL midway, then `--resume` runs only what the document says is
// missing: the finished runs' files are left as they were, every other run is run once.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, readFileSync, statSync, existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { runCli } from '../helpers/cli.js'
import { readResults } from '../../lib/results/read.js'

const DB = `pgload_sweep_${process.pid}`
const KILL_AFTER = 5 // runs done in the document when the sweep is killed
const scratch = scratchDatabase(DB)
let url
let tmp

before(async () => {
  await scratch.create()
  url = scratch.url
  tmp = mkdtempSync(join(tmpdir(), 'pgload-sweep-'))
})

after(async () => {
  await scratch.drop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

const readDoc = (dir) => JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'))
const done = (doc) => doc.runs.filter((r) => r.status === 'done')

/** Spawn the sweep and SIGKILL it once the document has `n` runs done; resolves with what was seen then. */
function sweepKilledAfter (args, dir, n) {
  let seen = null
  const watching = new Promise((resolve) => {
    const onSpawn = (child) => {
      const timer = setInterval(() => {
        let doc
        try { doc = readDoc(dir) } catch { return } // not written yet
        if (done(doc).length < n) return
        clearInterval(timer)
        seen = { doc, atMs: Date.now() }
        child.kill('SIGKILL')
      }, 50)
      child.on('exit', () => clearInterval(timer))
    }
    resolve(runCli(args, { onSpawn, timeoutMs: 60_000 }))
  })
  return watching.then((r) => ({ ...r, seen }))
}

test('a 2 x 3 x 3 sweep killed midway: --resume runs only the missing runs and completes the sweep', async () => {
  const dir = join(tmp, 'sweep')
  const args = ['sweep', 'tpcb', '--url', url, '--scale', '1,2', '--clients', '1,2,4', '--repeat', '3', '--duration', '1s', '--warmup', '0', '--no-server-stats', '--dir', dir]
  const killed = await sweepKilledAfter(args, dir, KILL_AFTER)
  assert.equal(killed.signal, 'SIGKILL', killed.stderr)
  const before = killed.seen.doc
  assert.equal(before.runs.length, 18)
  assert.match(killed.stderr, /pgload sweep: loaded scale 1 in /)
  assert.match(killed.stderr, /^pgload sweep: cell 1\/18 \(scale 1, clients \d, repeat 1\): running 1 s; time left about \d+s plus loading scale 2$/m)
  assert.doesNotMatch(before.command, /secret|--url|127\.0\.0\.1/, 'no server address in the document')
  // the files of the runs done when it was killed, as they were then
  const kept = new Map()
  for (const r of done(before)) kept.set(r.file, { mtimeMs: statSync(join(dir, r.file)).mtimeMs, text: readFileSync(join(dir, r.file), 'utf8') })
  assert.ok(kept.size >= KILL_AFTER && kept.size < 18, `${kept.size} runs done at the kill`)

  const resumed = await runCli(['sweep', '--resume', dir, '--url', url], { timeoutMs: 60_000 })
  assert.equal(resumed.code, 0, resumed.stderr)
  const after = readDoc(dir)
  assert.equal(after.id, before.id)
  assert.ok(after.runs.every((r) => r.status === 'done'), after.runs.map((r) => r.status).join())
  // only the missing runs ran: one line each, and only their files are new
  const ranAgain = resumed.stderr.match(/^pgload sweep: cell \d+\/18 \(.*\): [\d,.]+ tps, /gm) ?? []
  assert.equal(ranAgain.length, 18 - kept.size, resumed.stderr)
  for (const r of after.runs) {
    const stat = statSync(join(dir, r.file))
    if (kept.has(r.file)) {
      assert.equal(stat.mtimeMs, kept.get(r.file).mtimeMs, `${r.file} left as it was`)
      assert.equal(readFileSync(join(dir, r.file), 'utf8'), kept.get(r.file).text)
      assert.equal(r.attempts, 1)
    } else {
      assert.ok(stat.mtimeMs >= killed.seen.atMs, `${r.file} written by the resumed sweep`)
    }
  }
  assert.equal(readdirSync(join(dir, 'runs')).filter((f) => f.endsWith('.json')).length, 18)

  // the runs are what their cells say, the document's figures are their files', scales ascending
  for (const r of after.runs) {
    const results = await readResults(join(dir, r.file))
    assert.equal(results.run.clients, r.cell.clients, r.file)
    assert.equal(results.run.scale, r.cell.scale, r.file)
    assert.equal(results.summary.tps, r.tps, r.file)
    assert.equal(results.summary.latencyMs.p99, r.p99Ms, r.file)
    assert.ok(r.tps > 0 && r.dbSizeBytes > 0 && r.checkpointed === true, r.file)
    // the pgbench tables alone, less than the whole database (which holds the catalogs too)
    assert.ok(r.tablesSizeBytes > 0 && r.tablesSizeBytes < r.dbSizeBytes, `${r.file}: tables ${r.tablesSizeBytes}, database ${r.dbSizeBytes}`)
  }
  const started = (scale) => after.runs.filter((r) => r.cell.scale === scale).map((r) => Date.parse(r.startTime))
  assert.ok(Math.max(...started(1)) < Math.min(...started(2)), 'every scale 1 run before any scale 2 run')
  assert.equal(after.cells.length, 6)
  for (const c of after.cells) {
    const tps = after.runs.filter((r) => r.cell.scale === c.cell.scale && r.cell.clients === c.cell.clients).map((r) => r.tps).sort((a, b) => a - b)
    assert.deepEqual([c.runs, c.tps.min, c.tps.median, c.tps.max], [3, tps[0], tps[1], tps[2]], JSON.stringify(c.cell))
  }
  const table = resumed.stdout.split('\n')
  assert.match(table[1], /^scale {2}clients {2}runs {2}tps +p50 ms +p99 ms +max ms$/)
  assert.equal(table.filter((l) => /^ +[12] +[124] +3\/3 +[\d,.]+ \[/.test(l)).length, 6, resumed.stdout)

  // other options are refused; a finished sweep has nothing left to run
  const other = await runCli(['sweep', 'tpcb', '--url', url, '--scale', '1,2', '--clients', '1,2', '--repeat', '3', '--duration', '1s', '--warmup', '0', '--no-server-stats', '--resume', dir])
  assert.equal(other.code, 1)
  assert.equal(other.stderr.split('\n')[0], `pgload: --resume: the options differ from the sweep's in ${dir} (axes.clients: [1,2,4] there, [1,2] here)`)
  const again = await runCli(['sweep', '--resume', dir, '--url', url])
  assert.equal(again.code, 0, again.stderr)
  assert.doesNotMatch(again.stderr, /^pgload sweep: cell /m)
  assert.equal(readDoc(dir).updatedAt, after.updatedAt)
  assert.ok(existsSync(join(dir, 'sweep.json')))
})

test('Ctrl-C keeps the run it stops (as interrupted, with its results file) and starts no other', async () => {
  const dir = join(tmp, 'interrupted')
  let seenRunning = 0
  const onSpawn = (child) => {
    let text = ''
    child.stderr.on('data', (d) => {
      text += d
      // the second run is measuring: its first progress line is out
      const second = text.indexOf('cell 2/4 ')
      if (second >= 0 && /progress: /.test(text.slice(second)) && !seenRunning++) child.kill('SIGINT')
    })
  }
  const r = await runCli(['sweep', 'tpcb', '--url', url, '--scale', '1', '--clients', '1,2', '--repeat', '2', '--duration', '3s', '-P', '1', '--warmup', '0', '--no-server-stats', '--dir', dir], { onSpawn, timeoutMs: 60_000 })
  assert.equal(r.code, 130, r.stderr)
  assert.match(r.stderr, /pgload sweep: stopping: the current run finishes its transactions in flight and is kept/)
  assert.match(r.stderr, /^pgload: the sweep was interrupted; every finished run is kept\nhint: finish it with pgload sweep --resume /m)
  const doc = readDoc(dir)
  assert.deepEqual(doc.runs.map((x) => x.status), ['done', 'interrupted', 'pending', 'pending'])
  const stopped = await readResults(join(dir, doc.runs[1].file))
  assert.equal(stopped.run.interrupted, true)
  assert.ok(stopped.run.durationS < 3, `stopped after ${stopped.run.durationS} s`)
  assert.equal(doc.runs[1].tps, stopped.summary.tps)
  assert.deepEqual(doc.cells.map((c) => c.cell.clients), [doc.runs[0].cell.clients], 'an interrupted run is not in the cells')
  assert.equal(existsSync(join(dir, doc.runs[2].file)), false)
})

test('sweep --store records the sweep, its runs and cells in the results database, equal to the document; the results URL is not in the document', async () => {
  const { testResultsDatabase } = await import('../helpers/results-db.js')
  const db = await testResultsDatabase()
  try {
    const dir = join(tmp, 'stored')
    const r = await runCli(['sweep', 'tpcb', '--url', url, '--scale', '1', '--clients', '1,2', '--repeat', '1', '--duration', '1s', '--warmup', '0',
      '--no-server-stats', '--dir', dir, '--store', '--results-url', db.url], { timeoutMs: 60_000 })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /stored in the results database/)
    const doc = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'))
    assert.doesNotMatch(JSON.stringify(doc), new RegExp(db.name), 'no results URL in the document')
    const runs = await db.query(`select clients, tps, run_id is not null from pgload.sweep_runs where sweep_id = '${doc.id}' order by clients`)
    assert.deepEqual(runs.rows.map((x) => [Number(x[0]), Number(x[1]), x[2]]),
      [...doc.runs].sort((a, b) => a.cell.clients - b.cell.clients).map((x) => [x.cell.clients, x.tps, 't']))
    const cells = await db.query(`select count(*) from pgload.sweep_cells where sweep_id = '${doc.id}'`)
    assert.equal(Number(cells.rows[0][0]), doc.cells.length)
  } finally {
    await db.drop()
  }
})
