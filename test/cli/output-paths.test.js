// An empty output name (`-o ""`) is refused before anything runs, naming the flag; it used to
// run and write nothing (run, compare --report, check --junit) or write into the working directory.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../helpers/cli.js'

const F = (n) => fileURLToPath(new URL(`../fixtures/compare/${n}.json`, import.meta.url))
const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'
const cwd = mkdtempSync(join(tmpdir(), 'pgload-output-paths-'))
process.on('exit', () => rmSync(cwd, { recursive: true, force: true }))

const cases = [
  [['run', 'tpcb', '-T', '1s', '--url', UNREACHABLE, '-o', ''], '--out needs a file name, got ""'],
  [['run', 'tpcb', '-T', '1s', '--url', UNREACHABLE, '--out='], '--out needs a file name, got ""'],
  [['run', 'tpcb', '-T', '1s', '--url', UNREACHABLE, '--log-file', ''], '--log-file needs a file name, got ""'],
  [['report', F('base-1'), '-o', ''], '--out needs a directory name, got ""'],
  [['compare', F('base-1'), F('base-2'), '--report', ''], '--report needs a file name, got ""'],
  [['check', F('base-1'), '--threshold', 'p(99) < 500ms', '--junit', ' '], '--junit needs a file name, got " "'],
  [['ab', '--a-url', UNREACHABLE, '--b-url', UNREACHABLE, '--out-dir', '', '--', 'run', 'tpcb'], '--out-dir needs a directory name, got ""']
]

for (const [args, message] of cases) {
  test(`pgload ${args.join(' ')}: refused, one line, nothing written`, async () => {
    const r = await runCli(args, { cwd, timeoutMs: 60_000 })
    assert.equal(r.code, 1, r.stderr)
    assert.equal(r.stderr, `pgload: ${message}\n`)
    assert.deepEqual(readdirSync(cwd), [])
  })
}
