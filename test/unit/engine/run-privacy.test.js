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

// What a presenter of a run may read of it: the run handle's members (lib/engine/run-handle.js)
const HANDLE = new Set(['on', 'off', 'once', 'removeListener', 'status', 'settings', 'terminalCount', 'poolSize',
  'execute', 'stop', 'abort', 'terminalStates', 'progressText'])
const MEMBER = /(?<![\w.])(?:this\.)?run\??\.(\w+)/g

/**
 * The lines of a presenter's source that read a run's members other than the handle's.
 * @param {string} text
 * @returns {{ line: number, text: string }[]}
 */
export function beyondHandle (text) {
  const found = []
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '')
    for (const m of code.matchAll(MEMBER)) if (!HANDLE.has(m[1])) found.push({ line: i + 1, text: line.trim() })
  })
  return found
}

test('the presenters\' check finds a run\'s members beyond the handle', () => {
  assert.equal(beyondHandle('  const types = run.recorder?.types').length, 1)
  assert.equal(beyondHandle('    durationS: run.opts?.durationS ?? null,').length, 1)
  assert.equal(beyondHandle('    types: (run.workload?.transactions ?? []).map((t) => t.name)').length, 1)
  assert.deepEqual(beyondHandle([
    "run.on('interval', (e) => {})",
    'const s = run.settings',
    'terminals: run.terminalCount,',
    ' * @param {any} run the run.recorder is not read',
    '// run.opts in a comment'
  ].join('\n')), [])
})

test('the live view (lib/live) reads a run through its handle only', async () => {
  const hits = []
  for await (const path of sources(join(ROOT, 'lib/live'))) {
    for (const h of beyondHandle(await readFile(path, 'utf8'))) hits.push(`${relative(ROOT, path)}:${h.line}: ${h.text}`)
  }
  assert.deepEqual(hits, [])
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
