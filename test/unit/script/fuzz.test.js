// Seeded fuzzing of the script parser: mutated pgbench scripts (the conformance corpus when it is
// present, the built-in scripts) and generated deep or long expressions either compile and run
// against a stand-in connection, or fail with one `file:line:column` error; never a stack trace.
// PGLOAD_FUZZ_SEED replays another seed; a failure names the seed and the case.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PgloadError } from '../../../lib/errors.js'
import { BUILTIN_SCRIPTS, compileScript } from '../../../lib/script/index.js'
import { MAX_EXPR_DEPTH } from '../../../lib/script/expr-parser.js'
import { CORPUS_DIR } from '../../conformance/cases.js'
import { makeCompiledRun } from './fake.js'
import { seededRandom } from '../../helpers/seeded-random.js'

const SEED = Number(process.env.PGLOAD_FUZZ_SEED ?? 20261125)
const MUTATED = 1200
const CASE_LIMIT_MS = 2000

function sources () {
  const out = BUILTIN_SCRIPTS.map((b) => b.script)
  if (existsSync(CORPUS_DIR)) {
    for (const f of readdirSync(CORPUS_DIR).sort()) if (f.endsWith('.sql')) out.push(readFileSync(join(CORPUS_DIR, f), 'utf8'))
  }
  return out
}

const TOKENS = ['(', ')', 'abs(', 'case when ', ' then ', ' else ', ' end', 'not ', '-', '+', '~', ':', ':x', ':aid',
  '\\set x ', '\\set y ', '\\if ', '\\elif ', '\\else', '\\endif', '\\sleep ', '\\gset', '\\aset', '\\startpipeline',
  '\\endpipeline', '\\syncpipeline', '\\shell echo 1', '\\setshell v echo 1', ';', '\n', '\\\n', "'", '"', '$$', '$a$',
  '/*', '*/', '--', '9223372036854775808', '99999999999999999999999', '1e999', '.5e-999', '3000000 s', '2147483648 ms',
  'NULL', 'true', ' is ', ' isnull', ' notnull', ' and ', ' or ', '<>', '<<', '>>', '%', ',', 'random(', 'hash(',
  'permute(', 'greatest(', 'debug(', '\0', '\ud800', '\uffff', 'é', '\t', '\r\n', ':scale', '\\;', 'select :x;']
const REPEATED = ['(', 'abs(', 'not ', '- ', '~', 'case when true then ', ' + 1', ' and true', ' or false', ' * 1',
  ' | 0', ' - :x', ' isnull = true', 'greatest(1, ', ') + (', '\\if true\n', '\\endif\n', 'select 1;\n']
// an expression opening (what closes it) or continuing a chain (nothing)
const NESTED = [['(', ')'], ['abs(', ')'], ['case when true then ', ' end'], ['not ', ''], ['- ', ''], ['least(2, ', ')'],
  ['1 + ', ''], ['true and ', ''], ['false or ', ''], ['1 * ', ''], ['0 | ', ''], ['2 - (', ')'], ['1 isnull = ', '']]

/** A `\set` or `\if` line whose expression nests or chains up to 6000 times. */
function expressionLine (r) {
  const [open, close] = r.pick(NESTED)
  const count = Math.floor(Math.exp(r.next() * Math.log(6000)))
  const expr = open.repeat(count) + r.pick(['1', ':x', 'true', 'NULL', '2.5']) + close.repeat(count)
  return r.next() < 0.8 ? `\n\\set z ${expr}\n` : `\n\\if ${expr}\n\\endif\n`
}

/** One mutation of a script (a string, or bytes when it inserts raw bytes). */
function mutate (r, text) {
  const at = r.int(text.length + 1)
  switch (r.int(9)) {
    case 0: return text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + r.int(40)))
    case 1: { const span = text.slice(at, at + 1 + r.int(80)); return text.slice(0, at) + span + span + text.slice(at) }
    case 2: case 3: return text.slice(0, at) + r.pick(TOKENS) + text.slice(at)
    case 4: {
      const count = Math.floor(Math.exp(r.next() * Math.log(6000)))
      return text.slice(0, at) + r.pick(REPEATED).repeat(count) + text.slice(at)
    }
    case 5: return r.next() < 0.5 ? text.slice(0, at) : text.slice(0, at) + expressionLine(r) + text.slice(at)
    case 6: return text.slice(0, at) + String.fromCharCode(r.int(256)) + text.slice(at + 1)
    case 7: return text.slice(0, at) + expressionLine(r) + text.slice(at)
    default: {
      const bytes = Buffer.from(Array.from({ length: 1 + r.int(16) }, () => r.int(256)))
      const b = Buffer.from(text)
      const cut = Math.min(at, b.length)
      return Buffer.concat([b.subarray(0, cut), bytes, b.subarray(cut)])
    }
  }
}

/** Generated long chains (they must compile) and nestings just under (compile) and over the limit (refused). */
function generated (r) {
  const out = []
  const operands = ['1', ':x', '2.5', 'NULL', 'random(1, 10)', '(1 * 2)', '-1', 'true']
  for (const n of [17, 1000, 100000]) {
    for (const ops of [[' + ', ' - '], [' * '], [' / '], [' | ', ' # ', ' & '], [' and '], [' or ']]) {
      let e = r.pick(operands)
      for (let i = 1; i < n; i++) e += r.pick(ops) + r.pick(operands)
      out.push({ text: `\\set y ${e}\nselect :y;\n`, compiles: true })
    }
  }
  const nest = {
    paren: (k) => '('.repeat(k - 1) + '1' + ')'.repeat(k - 1),
    call: (k) => 'abs('.repeat(k - 1) + '1' + ')'.repeat(k - 1),
    case: (k) => 'case when true then '.repeat(k - 1) + '1' + ' end'.repeat(k - 1),
    not: (k) => 'not '.repeat(k - 1) + 'true',
    minus: (k) => '- '.repeat(k - 1) + '1',
    tilde: (k) => '~'.repeat(k - 1) + '1',
    least: (k) => 'least(1, '.repeat(k - 1) + '1' + ')'.repeat(k - 1),
    isnull: (k) => '1' + ' isnull = true'.repeat(k / 2)
  }
  for (const make of Object.values(nest)) {
    for (const k of [MAX_EXPR_DEPTH - 1, MAX_EXPR_DEPTH + 2, 3000, 50000]) {
      out.push({ text: `\\set y ${make(k)}\nselect :y;\n`, compiles: k < MAX_EXPR_DEPTH })
    }
  }
  return out
}

const noShell = async () => ({ code: 0, stdout: '1\n' })

/** Compile a case and run it once; any failure must be the user's one-line error. */
async function check (label, text, protocol) {
  const t0 = performance.now()
  const where = `seed ${SEED} ${label} (${protocol}): ${JSON.stringify(String(text).slice(0, 200))}`
  let compiled = null
  try {
    compiled = compileScript({ name: 'fuzz.sql', text }, { protocol })
  } catch (e) {
    assert.ok(e instanceof PgloadError, `${where}\n${e?.stack}`)
    const first = e.message.split('\n')[0]
    if (e.code === 'SCRIPT_SYNTAX') assert.match(first, /^fuzz\.sql:\d+:\d+: \S/, where)
    else assert.ok(e.code === 'SCRIPT_EMPTY' || e.code === 'SCRIPT_ENCODING', `${where}: ${e.code} ${first}`)
    assert.doesNotMatch(e.message, /^\s+at \S/m, where)
  }
  let ran = false
  let run = null
  if (compiled !== null) {
    run = makeCompiledRun([compiled], { protocol, runShell: noShell, variables: { x: '3' } })
    try {
      await run.workload.transactions[0].run(run.ctx)
      ran = true
    } catch (e) {
      assert.ok(e instanceof PgloadError, `${where}\n${e?.stack}`)
      assert.doesNotMatch(e.message, /\n|^\s+at \S/, where)
    }
  }
  const ms = performance.now() - t0
  assert.ok(ms < CASE_LIMIT_MS, `${where}: took ${Math.round(ms)} ms`)
  return { compiled: compiled !== null, ran, sent: run?.conn.sent }
}

test(`${MUTATED} mutated scripts compile and run, or fail with one file:line:column line`, async () => {
  const r = seededRandom(SEED)
  const base = sources()
  const tally = { compiled: 0, ran: 0, refused: 0 }
  for (let i = 0; i < MUTATED; i++) {
    let text = r.pick(base)
    for (let m = 1 + r.int(3); m > 0; m--) text = mutate(r, typeof text === 'string' ? text : text.toString('latin1'))
    const res = await check(`mutated case ${i}`, text, r.pick(['simple', 'extended', 'prepared']))
    if (res.compiled) tally.compiled++
    else tally.refused++
    if (res.ran) tally.ran++
  }
  // the mutations keep a good share of the scripts valid, and break a good share
  assert.ok(tally.compiled > MUTATED / 5, JSON.stringify(tally))
  assert.ok(tally.refused > MUTATED / 5, JSON.stringify(tally))
  assert.ok(tally.ran > 0, JSON.stringify(tally))
})

test('generated long chains compile and run; nestings over the limit are refused', async () => {
  const cases = generated(seededRandom(SEED))
  for (let i = 0; i < cases.length; i++) {
    const res = await check(`generated case ${i}`, cases[i].text, 'simple')
    assert.equal(res.compiled, cases[i].compiles, `generated case ${i}: ${cases[i].text.slice(0, 80)}`)
  }
  // the 100,000-term sum gives its value
  const sum = await check('sum', `\\set y 1${' + 1'.repeat(99999)}\nselect :y;\n`, 'simple')
  assert.deepEqual(sum.sent, ['select 100000;'])
})
