// -V and --version: the same line (`pgload VERSION`) at the top level and after any command.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { runCli } from '../helpers/cli.js'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

for (const args of [['-V'], ['--version'], ['run', '-V'], ['run', '--version'], ['run', 'tpcb', '-V'], ['sweep', '-V'], ['compare', '--version']]) {
  test(`pgload ${args.join(' ')} prints pgload ${version}`, async () => {
    const r = await runCli(args)
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, `pgload ${version}\n`)
    assert.equal(r.stderr, '')
  })
}
