// `pgload --help` and `pgload run --help` as a new user reads them: every built-in workload named,
// each option's aliases and choices once, and the defaults a run falls back on.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runCli } from '../helpers/cli.js'
import { workloadNames } from '../../workloads/index.js'

/** Help text on one line per option: yargs wraps long descriptions. */
const flat = (text) => text.replace(/\s+/g, ' ')

test('pgload --help and run --help name every built-in workload in the description of run', async () => {
  for (const args of [['--help'], ['run', '--help']]) {
    const r = await runCli(args, { env: { COLUMNS: '100' } })
    assert.equal(r.code, 0)
    assert.match(flat(r.stdout), new RegExp(`a built-in workload \\(${workloadNames.join(', ')}\\)`))
    assert.ok(workloadNames.includes('chbench'))
  }
})

test('run, sweep and capacity --help list a workload option\'s alias and choices once', async () => {
  for (const command of ['run', 'sweep', 'capacity']) {
    const r = await runCli([command, '--help'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /^ {2}-w, --warehouses /m, command)
    assert.doesNotMatch(r.stdout, /-w, -w/, command)
    const choices = flat(r.stdout).match(/\[choices: [^\]]*\]/g)
    assert.deepEqual(choices, ['[choices: "deferred", "inline"]'], command)
  }
})

test('run --help states the defaults of the timing and retry options, and what --scale loads', async () => {
  const text = flat((await runCli(['run', '--help'])).stdout)
  const help = (flag) => text.slice(text.indexOf(flag)).split(/ {2,}-/)[0]
  assert.match(help('--warmup '), /\[default: 0; spec-paced tpcc and chbench ramp up first/)
  assert.match(help('--max-tries '), /\[default: 1\]/)
  assert.match(help('-P, --progress '), /\[default: off\]/)
  assert.match(help('--think-time '), /\[default: none\]/)
  assert.match(help('-T, --duration '), /\[default: none: -t 10/)
  assert.match(help('-s, --scale '), /load pgbench's tables at this scale when they are missing/)
  assert.match(help('--exit-on-abort '), /other than a serialization failure or deadlock/)
})
