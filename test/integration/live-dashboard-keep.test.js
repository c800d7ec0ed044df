// After a run with --dashboard, the final report stays served (--dashboard-keep): fetched once
// the results file is written, the page is that report; the process then ends by itself with the
// run's exit status, and a Ctrl-C during the wait exits with the run's status, not 130.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { startWithDashboard } from '../helpers/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-keep-'))
const script = join(dir, 'one.sql')
let server

before(async () => {
  server = await getTestServer()
  writeFileSync(script, 'SELECT 1;\n')
})
after(() => rmSync(dir, { recursive: true, force: true }))

/** Resolves once `pattern` appears in what the child wrote to stderr (rejects if it exits first). */
async function stderrMatch (run, pattern) {
  for (;;) {
    if (pattern.test(run.output.stderr)) return
    const exited = await Promise.race([run.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 100))])
    if (exited && !pattern.test(run.output.stderr)) throw new Error(`pgload exited without ${pattern}: ${run.output.stderr}`)
  }
}

test('--dashboard-keep 3s: the report is served after the results are written, then pgload exits by itself', { timeout: 90_000 }, async () => {
  const out = join(dir, 'kept.json')
  const run = startWithDashboard(['run', script, '-c', '1', '-T', '2', '--url', server.url, '--out', out, '--dashboard', '127.0.0.1:0', '--dashboard-keep', '3s'])
  try {
    const url = await run.url
    assert.match(run.output.stderr, /dashboard at \S+ \(live until the run ends, then the report, served for 3 s after the end\)/)
    await stderrMatch(run, /results written to/)
    assert.ok(existsSync(out), 'the results file is written before the wait')
    const page = await fetch(url)
    assert.equal(page.status, 200)
    assert.match(await page.text(), /<title>pgload report: script<\/title>/)
    const report = await fetch(new URL('report.html', url))
    assert.equal(report.status, 200)
    const { code, stderr } = await run.exited
    assert.equal(code, 0, stderr)
    assert.match(stderr, /the report stays at \S+ for 3 s/)
  } finally {
    run.child.kill('SIGKILL')
  }
})

test('--dashboard-keep forever: Ctrl-C ends the wait with the run\'s own exit status', { timeout: 90_000 }, async () => {
  const out = join(dir, 'forever.json')
  const run = startWithDashboard(['run', script, '-c', '1', '-T', '1', '--url', server.url, '--out', out, '--dashboard', '127.0.0.1:0', '--dashboard-keep', 'forever'])
  try {
    const url = await run.url
    await stderrMatch(run, /the report stays at \S+ until Ctrl-C/)
    assert.ok(existsSync(out))
    assert.equal((await fetch(url)).status, 200)
    run.child.kill('SIGINT')
    const { code, stderr } = await run.exited
    assert.equal(code, 0, stderr)
    assert.doesNotMatch(stderr, /interrupted/)
  } finally {
    run.child.kill('SIGKILL')
  }
})
