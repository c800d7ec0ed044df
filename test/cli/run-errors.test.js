// Bad input to `pgload run` and `pgload init`: one clear line on stderr, exit 1, nothing lost.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, assertOneLineError } from '../helpers/cli.js'
import { getTestServer } from '../helpers/server.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'

const cases = [
  [['run', 'tpcx'], /unknown workload "tpcx": valid workloads are tpcb, tpcc/],
  [['run', '-b', 'nosuch'], /no builtin script found for name "nosuch"/],
  [['run', '-T', 'ten'], /--duration must be a duration like 30s, 10m or 1h, got "ten"/],
  [['run', '-R', '-5'], /--rate must be a number > 0 and <= 10000000, got "-5"/],
  [['run', '--think-time', 'normal:5'], /--think-time must be fixed:MS, uniform:MIN-MAX or exp:MEAN\[:CAP\]/],
  [['run', '-L', '50'], /--latency-limit needs --rate/],
  [['run', '-c', '0'], /--clients must be an integer in 1..1000000, got "0"/],
  [['run', '-t', '5', '-T', '5s'], /either a number of transactions .* or a duration/],
  [['run', '--protocol', 'fast'], /--protocol must be one of simple, extended, prepared, got "fast"/],
  [['run', '--no-such-flag'], /^pgload: unknown option --no-such-flag$/],
  [['run', '-D', 'scale'], /^pgload: invalid variable definition: "scale"$/],
  // negative values: yargs took -5s for the flags -5 and -s ("Unknown argument: 5")
  [['run', '-T', '-5s'], /^pgload: --duration must be a duration like 30s, 10m or 1h, not negative, got "-5s"$/],
  [['run', '--duration', '-1.5m'], /^pgload: --duration must be a duration like 30s, 10m or 1h, not negative, got "-1.5m"$/],
  [['run', '--grace', '-3s'], /^pgload: --grace must be a duration like 30s, 10m or 1h, not negative, got "-3s"$/],
  [['run', '-c', '-1'], /^pgload: --clients must be an integer in 1..1000000, got "-1"$/],
  [['run', '--rate', '-5'], /^pgload: --rate must be a number > 0 and <= 10000000, got "-5"$/],
  [['run', '-D', '9x=1'], /^pgload: option: invalid variable name: "9x"$/],
  // --help says unsigned: a minus sign is refused, not wrapped to 2^64-1 as pgbench's sscanf does
  [['run', '--seed', '-1'], /^pgload: --seed must be time, rand or an unsigned integer, got "-1"$/],
  [['run', '--random-seed=-7'], /^pgload: --seed must be time, rand or an unsigned integer, got "-7"$/],
  [['run', '--seed', 'one'], /^pgload: unrecognized random seed option "one"$/],
  // above 2^64-1 pgbench saturates to 2^64-1: a seed nobody typed
  [['run', '--seed', '18446744073709551616'], /^pgload: --seed must be at most 18446744073709551615 \(an unsigned 64-bit integer\), got "18446744073709551616"$/],
  [['run', '--seed', '99999999999999999999999'], /^pgload: --seed must be at most 18446744073709551615 /],
  // --route: refused before anything connects, a URL's password never shown
  [['run', '--route', 'reads.sql=replicas'], /^pgload: --route "reads.sql=replicas": no target named "replicas"$/],
  [['run', '--route', 'reads.sql'], /^pgload: --route "reads.sql" is not TYPE=TARGET$/],
  [['run', '--route', 'r=postgres://u:secret@a/db', '--route', 'r=postgres://u:secret@b/db'], /^pgload: --route r is given twice, to different targets: each transaction runs on one server$/],
  [['run', '--target', 'replicas=postgres://u:secret@a/db'], /^pgload: --target replicas is not used by any --route$/],
  [['run', '--staleness'], /^pgload: --staleness measures routed reads: it goes with --route TYPE=TARGET/],
  [['run', '--staleness', '-j', '2', '--route', 'select-only=postgres://a/db'], /^pgload: --staleness is measured in one process/],
  [['init', 'tpcx'], /unknown workload/]
]

for (const [args, pattern] of cases) {
  test(`pgload ${args.join(' ')}`, async () => {
    assertOneLineError(await runCli([...args, '--url', UNREACHABLE]), pattern)
  })
}

test('a 10,000-character value is named and cut in the error, not echoed whole', async () => {
  const cases = [
    [['run', '--label', 'x'.repeat(10_000)], /^pgload: --label must be one line of 1 to 80 characters, got "x{56}\.\.\." \(10,000 characters\)$/],
    [['run', '--protocol', 'y'.repeat(10_000)], /^pgload: --protocol must be one of simple, extended, prepared, got "y{56}\.\.\." \(10,000 characters\)$/],
    [['run', `--nope-${'z'.repeat(10_000)}`], /^pgload: unknown option --nope-z{50}\.\.\. \(10,007 characters\)/],
  ]
  for (const [args, pattern] of cases) {
    const r = await runCli([...args, '--url', UNREACHABLE])
    assert.ok(r.stderr.length < 400, `${args[1].slice(0, 20)}...: ${r.stderr.length} characters of stderr`)
    assertOneLineError(r, pattern)
  }
})

test('an unreachable server names host and port', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    assertOneLineError(await runCli(['run', 'tpcb', '-t', '1', '--url', UNREACHABLE, '--out', join(dir, 'r.json')]), /cannot connect to PostgreSQL at 127\.0\.0\.1:1: connection refused/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a results path that cannot be written is refused before the run starts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    const file = join(dir, 'a-file')
    writeFileSync(file, 'x')
    const r = await runCli(['run', 'tpcb', '-t', '1', '--url', UNREACHABLE, '--out', join(file, 'r.json')])
    assertOneLineError(r, /--out: cannot write results to/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a directory given as the results file is refused before the run starts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    assertOneLineError(await runCli(['run', 'tpcb', '-t', '1', '--url', UNREACHABLE, '--out', dir]), /--out: .* is a directory/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('script syntax errors are reported before connecting, with file:line:column', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    const file = join(dir, 'bad.sql')
    writeFileSync(file, 'select 1;\n\\set x 1 +\n')
    const r = await runCli(['run', '-f', file, '--url', UNREACHABLE])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /^pgload: .*bad\.sql:2:\d+: /m)
    assert.doesNotMatch(r.stderr, /cannot connect/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a script file that does not exist, or is not UTF-8, is named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    assertOneLineError(await runCli(['run', '-f', join(dir, 'nope.sql'), '--url', UNREACHABLE]), /could not read script file ".*nope\.sql": no such file/)
    const bad = join(dir, 'latin1.sql')
    writeFileSync(bad, Buffer.from([0x73, 0x65, 0x6c, 0x65, 0x63, 0x74, 0x20, 0x27, 0xe9, 0x27, 0x3b, 0x0a]))
    assertOneLineError(await runCli(['run', '-f', bad, '--url', UNREACHABLE]), /is not valid UTF-8/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a wrong password is refused without echoing it', async () => {
  const { url } = await getTestServer()
  const u = new URL(url)
  if (!u.password) return
  u.password = 'Sekr1t-wrong-pw'
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    const r = await runCli(['run', 'tpcb', '-t', '1', '--url', u.toString(), '--out', join(dir, 'r.json')])
    assertOneLineError(r, /password authentication failed for user "postgres"/)
    assert.doesNotMatch(r.stderr + r.stdout, /Sekr1t-wrong-pw/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the seed is shown and recorded unsigned, as it can be given back', async () => {
  const { url } = await getTestServer()
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    const script = join(dir, 'one.sql')
    writeFileSync(script, 'select 1;\n')
    const seed = '18446744073709551615'
    const out = join(dir, 'r.json')
    const r = await runCli(['run', '-f', script, '-t', '1', '-c', '1', '--seed', seed, '--url', url, '--out', out])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, new RegExp(`^pgload: setting random seed to ${seed}$`, 'm'))
    const doc = JSON.parse(readFileSync(out, 'utf8'))
    assert.equal(String(doc.run.seed), seed)
    assert.equal(String(doc.run.options.seed), seed)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a failed run --threshold is said once, its value spelled as check spells it', async () => {
  const { url } = await getTestServer()
  const dir = mkdtempSync(join(tmpdir(), 'pgload-cli-'))
  try {
    const script = join(dir, 'one.sql')
    writeFileSync(script, 'select 1;\n')
    const args = ['run', '-f', script, '-t', '3', '-c', '1', '--threshold', 'p(99) < 0.0001ms', '--url', url, '--out', join(dir, 'r.json')]
    const r = await runCli(args)
    assert.equal(r.code, 99, r.stderr)
    assert.match(r.stdout, /^✗ p\(99\) < 0\.0001ms: [\d.]+ ms \([\d.]+ ms is not < 0\.0001 ms\)\n1 of 1 threshold failed\n$/m)
    assert.doesNotMatch(r.stderr, /threshold/)
    // --json: stdout is the document alone, so stderr says it
    const j = await runCli([...args, '--json'])
    assert.equal(j.code, 99, j.stderr)
    assert.equal(j.stderr.match(/threshold/g)?.length, 1, j.stderr)
    assert.match(j.stderr, /^pgload: 1 of 1 threshold failed$/m)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
