// Bad load profiles (--stages, --clients-stages, --max-queue, --ramp): one line, exit 1, before
// any connection (the server given cannot be reached: a connect error would show it was tried).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runCli } from '../helpers/cli.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'

const cases = [
  [['--stages', '30s:500,:100'], /^pgload: --stages: stage 2 must be DUR:RATE, got ":100"$/],
  [['--stages', '30s:500,,1m:0'], /^pgload: --stages: stage 2 must be DUR:RATE, got ""$/],
  [['--stages', '30s'], /^pgload: --stages: stage 1 must be DUR:RATE, got "30s"$/],
  [['--stages', '0s:100'], /^pgload: --stages: stage 1 \(0s:100\): the duration must be above zero$/],
  [['--stages', 'soon:100'], /^pgload: --stages: stage 1 \(soon:100\): the duration must be like 30s, 2m or 1h$/],
  [['--stages', '10s:-5'], /^pgload: --stages: stage 1 \(10s:-5\): the target must be a rate \(transactions per second\) in 0..10000000$/],
  [['--stages', '10s:99999999999'], /^pgload: --stages: stage 1 \(10s:99999999999\): the target must be a rate \(transactions per second\) in 0..10000000$/],
  [['--stages', '9000h:5'], /^pgload: --stages: stage 1 \(9000h:5\): the duration must be at most 31536000 s \(365 days\), got 32400000 s$/],
  [['--stages', '10s:50~'], /^pgload: --stages: stage 1 must be DUR:RATE, got "10s:50~"$/],
  [['--stages', '1.5s:50'], /^pgload: --stages: stage 1 lasts 1.5 s, not a whole number of --interval \(1 s\)/],
  [['--stages', '10s:50', '--clients-stages', '10s:4'], /^pgload: --stages and --clients-stages cannot be combined/],
  [['--stages', '10s:50', '-T', '20s'], /^pgload: --duration "20s" does not agree with --stages, which last 10 s/],
  [['--stages', '10s:50', '-t', '5'], /^pgload: --stages sets the run's duration: it cannot be combined with --transactions$/],
  [['--stages', '10s:50', '--warmup', '5s'], /^pgload: --warmup with --stages needs --rate/],
  [['--stages', '10s:50', '--max-queue', '-1'], /^pgload: --max-queue must be an integer in 0..10000000, got "-1"$/],
  [['--max-queue', '10'], /^pgload: --max-queue goes with --stages/],
  [['--clients-stages', '10s:2.5'], /^pgload: --clients-stages: stage 1 \(10s:2.5\): the target must be a whole number of clients in 0..1000000$/],
  [['--clients-stages', '10s:0'], /^pgload: --clients-stages needs a stage with at least one client$/],
  [['--clients-stages', '10s:4', '--rate', '100'], /^pgload: --clients-stages and --rate cannot be combined/],
  [['--clients-stages', '10s:4', '-c', '8'], /^pgload: --clients-stages and --clients cannot be combined/],
  [['--ramp', '0s', '-T', '5s'], /^pgload: --ramp must be positive, got "0s"$/],
  [['--ramp', '10s', '--rate', '50', '-T', '5s'], /^pgload: --ramp starts closed-model terminals evenly: it cannot be combined with --rate$/]
]

for (const [args, pattern] of cases) {
  test(`pgload run ${args.join(' ')}`, async () => {
    const r = await runCli(['run', ...args, '--url', UNREACHABLE])
    assert.equal(r.code, 1, `exit code ${r.code}; stderr: ${r.stderr}`)
    const lines = r.stderr.trim().split('\n')
    assert.equal(lines.length, 1, r.stderr)
    assert.match(lines[0], pattern)
  })
}
