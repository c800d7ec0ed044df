// Differential tests against the real pgbench (skipped when it is not installed): the same
// `\set ... debug(...)` scripts with the same --random-seed must print the same values, over
// thousands of draws of every distribution, and with several clients (seed derivation order).

import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { compileScript, scriptWorkload } from '../../lib/script/index.js'

const havePgbench = spawnSync('pgbench', ['--version']).status === 0
const skip = havePgbench ? false : 'pgbench is not installed'
let server

before(async () => { if (!skip) server = await getTestServer() })

function pgbenchDebug (text, { seed, transactions = 1, clients = 1 }) {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-diff-'))
  try {
    writeFileSync(join(dir, 'd.sql'), text)
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')))
    const r = spawnSync('pgbench', ['-n', '-t', String(transactions), '-c', String(clients), '--random-seed', String(seed), '-f', 'd.sql', server.url],
      { cwd: dir, encoding: 'utf8', env: base, maxBuffer: 64 * 1024 * 1024 })
    assert.equal(r.status, 0, r.stderr)
    return r.stderr.split('\n').filter((l) => l.startsWith('debug('))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function pgloadDebug (text, { seed, transactions = 1, clients = 1 }) {
  const lines = []
  const w = scriptWorkload([compileScript({ name: 'd.sql', text }, { protocol: 'simple' })],
    { randomSeed: BigInt(seed), clients, noVacuum: true, debugWrite: (l) => lines.push(l.trimEnd()) })
  for (let id = 0; id < clients; id++) {
    const ctx = { terminalId: id, random: w.seeds.clientPrngs[id], state: w.createTerminalState(id), conn: null, nowUs: () => 0, sleepUs: async () => {} }
    for (let t = 0; t < transactions; t++) await w.transactions[0].run(ctx)
  }
  return lines
}

const DRAWS = `\\set a debug(random(1, 100000))
\\set b debug(random(-4611686018427387903, 4611686018427387903))
\\set c debug(random_exponential(1, 1000, 2.5))
\\set d debug(random_exponential(-50, 50, 0.1))
\\set e debug(random_gaussian(1, 1000, 2.0))
\\set f debug(random_gaussian(1, 1000000, 7.5))
\\set g debug(random_zipfian(1, 1000, 1.07))
\\set h debug(random_zipfian(1, 100000, 2.5))
\\set i debug(permute(:a, 100000))
\\set j debug(hash(:a) # hash_fnv1a(:a, :b))
\\set k debug(random(1, 10) * 1.5 / 7)
`

test('the same seed prints the same values as pgbench over thousands of draws', { skip, timeout: 120_000 }, async () => {
  for (const seed of [5432, 1, '18446744073709551615']) {
    const opts = { seed, transactions: 400 }
    const theirs = pgbenchDebug(DRAWS, opts)
    const ours = await pgloadDebug(DRAWS, opts)
    assert.equal(theirs.length, 11 * 400)
    const diff = theirs.findIndex((l, i) => l !== ours[i])
    assert.equal(diff, -1, `seed ${seed}, line ${diff}: pgbench "${theirs[diff]}" pgload "${ours[diff]}"`)
  }
})

test('several clients: per-client generators and default_seed in pgbench\'s order', { skip }, async () => {
  const text = '\\set x debug(:client_id * 1000000 + random(1, 999999))\n\\set y debug(:default_seed)\n\\set z debug(:random_seed)\n'
  const opts = { seed: 77, clients: 4, transactions: 3 }
  // clients interleave in pgbench's output: compare as sorted multisets
  assert.deepEqual((await pgloadDebug(text, opts)).sort(), pgbenchDebug(text, opts).sort())
})

test('distributions: draw counts per bucket match pgbench on 20000 draws', { skip, timeout: 120_000 }, async () => {
  const text = '\\set e debug(random_exponential(1, 20, 3.0))\n\\set g debug(random_gaussian(1, 20, 2.5))\n\\set z debug(random_zipfian(1, 20, 1.5))\n'
  const opts = { seed: 99, transactions: 20000 }
  const histogram = (lines) => {
    const h = {}
    for (const l of lines) {
      const key = l.replace(/^debug\(script=0,command=(\d)\): int (\d+)$/, '$1:$2')
      h[key] = (h[key] ?? 0) + 1
    }
    return h
  }
  const theirs = histogram(pgbenchDebug(text, opts))
  const ours = histogram(await pgloadDebug(text, opts))
  assert.deepEqual(ours, theirs)
  // and the shapes are the documented ones: exponential and zipfian favour the low end
  assert.ok(ours['1:1'] > ours['1:20'] * 10)
  assert.ok(ours['3:1'] > ours['3:2'])
})

test('simple protocol: the SQL text after substitution is the text pgbench sends', { skip }, async () => {
  const text = "\\set a 5\n\\set b 2.5\n\\set c -1.0E-7\n\\set d true\nselect :a::int + 1, ':a', $$:b$$, 'x:::a', :b * 2, :c, :d, ':nope' \\; select :\"a\";\n"
  const dir = mkdtempSync(join(tmpdir(), 'pgload-diff-'))
  let sent
  try {
    writeFileSync(join(dir, 'd.sql'), text)
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')))
    const r = spawnSync('pgbench', ['-n', '-t', '1', '--debug', '-M', 'simple', '-f', 'd.sql', server.url], { cwd: dir, encoding: 'utf8', env: base })
    sent = r.stderr.split('\n').filter((l) => l.includes(' sending ')).map((l) => l.replace(/^.*client 0 sending /, ''))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const ours = []
  const w = scriptWorkload([compileScript({ name: 'd.sql', text }, { protocol: 'simple' })], { randomSeed: 1n, noVacuum: true })
  const conn = { transactionStatus: 'I', lastResults: [], simpleQuery: async (q) => { ours.push(q); return { rows: [], fields: [] } } }
  await w.transactions[0].run({ terminalId: 0, random: w.seeds.clientPrngs[0], state: w.createTerminalState(0), conn, nowUs: () => 0, sleepUs: async () => {} })
  assert.equal(sent.length, 1)
  assert.deepEqual(ours, sent)
})
