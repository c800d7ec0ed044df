// The run handle is the only way in (docs/architecture.md, "The run handle"): outside the files
// that own a run, no code reads or writes a run's `_` members, and none assigns to a run's state.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
// the files whose own run these are
const OWNERS = new Set(['lib/engine/run.js', 'lib/engine/threaded-run.js'])
// a run by the names code gives it: run, currentRun, threadedRun, this.run, this.currentRun ...
const RUN = String.raw`(?<![\w.])(?:this\.)?(?:run|currentRun|threadedRun|threaded)`
const PRIVATE = new RegExp(String.raw`${RUN}\??\._\w`)
const WRITE = new RegExp(String.raw`${RUN}\.\w+\s*(?:[-+*/]?=(?!=)|\+\+|--)`)

/**
 * The lines of a source that reach into a run.
 * @param {string} text
 * @returns {{ line: number, text: string }[]}
 */
export function runAccess (text) {
  const found = []
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '')
    if (PRIVATE.test(code) || WRITE.test(code)) found.push({ line: i + 1, text: line.trim() })
  })
  return found
}

async function * sources (dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name)
    if (e.isDirectory()) yield * sources(path)
    else if (e.name.endsWith('.js')) yield path
  }
}

test('the check finds what it is for', () => {
  assert.equal(runAccess('      currentRun.interrupted = true // also when ...').length, 1)
  assert.equal(runAccess('  run._threadCpuStart = threadCpu()').length, 1)
  assert.equal(runAccess('  const cpu = run._threadCpuStart ? x : null').length, 1)
  assert.equal(runAccess('    if (this.currentRun) this.currentRun.stopReason = "x"').length, 1)
  assert.equal(runAccess('  run.hurry++').length, 1)
  // the handle's own members, comparisons and the results document's `run` section are fine
  assert.deepEqual(runAccess([
    "run.on('interval', (e) => {})",
    "if (run.status.state === 'starting') run.stop('interrupted')",
    'results.run.shard = shardRecord(plan)',
    'const stalled = run?.status.cancelled.grace > 0',
    '// run._x = 1 in a comment'
  ].join('\n')), [])
})

test('no module outside lib/engine/run.js and threaded-run.js reaches into a run', async () => {
  const hits = []
  for (const room of ['lib', 'bench', 'bin', 'workloads']) {
    for await (const path of sources(join(ROOT, room))) {
      const rel = relative(ROOT, path)
      if (OWNERS.has(rel)) continue
      for (const h of runAccess(await readFile(path, 'utf8'))) hits.push(`${rel}:${h.line}: ${h.text}`)
    }
  }
  assert.deepEqual(hits, [])
})
