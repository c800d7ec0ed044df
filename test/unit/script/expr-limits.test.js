// Long and deep expressions: flat chains of any length evaluate as pgbench's nested operators do,
// nesting past MAX_EXPR_DEPTH is one script error at its column, and \sleep stays within a timer.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { ClientAbortError, PgloadError } from '../../../lib/errors.js'
import { compileScript } from '../../../lib/script/index.js'
import { MAX_EXPR_DEPTH } from '../../../lib/script/expr-parser.js'
import { makeRun } from './fake.js'
import { seededRandom } from '../../helpers/seeded-random.js'

/** Run `\set x debug(expr)`: the debug line, or the abort message. */
async function evaluate (expr) {
  const { workload, ctx, debug } = makeRun([{ text: `\\set x debug(${expr})\n` }], { variables: { v: '7', s: '2.5' } })
  try {
    await workload.transactions[0].run(ctx)
  } catch (e) {
    assert.ok(e instanceof ClientAbortError, e.stack)
    return e.message
  }
  return debug[0].replace(/^debug\(script=0,command=1\): /, '').trimEnd()
}

function compileError (text) {
  try {
    compileScript({ name: 't.sql', text })
  } catch (e) {
    assert.ok(e instanceof PgloadError, e.stack)
    return e.message
  }
  assert.fail(`compiled: ${text.slice(0, 60)}`)
}

// make(k): k levels; value(k): what debug() prints for it
const NESTINGS = {
  parentheses: [(k) => '('.repeat(k - 1) + '5' + ')'.repeat(k - 1), () => 'int 5'],
  calls: [(k) => 'abs('.repeat(k - 1) + '5' + ')'.repeat(k - 1), () => 'int 5'],
  case: [(k) => 'case when true then '.repeat(k - 1) + '5' + ' end'.repeat(k - 1), () => 'int 5'],
  not: [(k) => 'not '.repeat(k - 1) + 'true', (k) => `boolean ${(k - 1) % 2 === 0}`],
  minus: [(k) => '- '.repeat(k - 1) + '5', (k) => `int ${(k - 1) % 2 === 0 ? 5 : -5}`],
  'right operands': [(k) => '1 + ('.repeat(k / 2 - 1) + '1' + ')'.repeat(k / 2 - 1), (k) => `int ${k / 2}`]
}

for (const [name, [make, value]] of Object.entries(NESTINGS)) {
  test(`${name}: nested just under the limit evaluates, over it is one line at its column`, async () => {
    // debug() adds one level
    const k = MAX_EXPR_DEPTH - 2
    assert.equal(await evaluate(make(k)), value(k))
    for (const k of [MAX_EXPR_DEPTH + 2, 10000]) {
      const msg = compileError(`select 1;\n\\set x ${make(k)}\n`)
      assert.match(msg, new RegExp(`^t\\.sql:2:\\d+: expression nested too deeply \\(limit ${MAX_EXPR_DEPTH}\\) in command "set"$`))
    }
  })
}

test('expressions at the limit need well under half of Node\'s default stack', () => {
  // the default is 984 KB; a run on 400 KB shows the limit leaves room for whatever is below it
  const code = `
    import { makeRun } from ${JSON.stringify(new URL('./fake.js', import.meta.url).href)}
    const make = ${JSON.stringify(Object.fromEntries(Object.entries(NESTINGS).map(([name, [make]]) => [name, make(MAX_EXPR_DEPTH - 2)])))}
    for (const [name, expr] of Object.entries(make)) {
      const { workload, ctx, debug } = makeRun([{ text: '\\\\set x debug(' + expr + ')\\n' }])
      await workload.transactions[0].run(ctx)
      console.log(name, debug[0].trim().replace(/^.*: /, ''))
    }`
  const r = spawnSync(process.execPath, ['--stack-size=400', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 })
  assert.equal(r.status, 0, r.stderr)
  const k = MAX_EXPR_DEPTH - 2
  assert.deepEqual(r.stdout.trim().split('\n'), Object.entries(NESTINGS).map(([name, [, value]]) => `${name} ${value(k)}`))
})

test('the column of a too deep expression is where the limit is crossed', () => {
  // `\set x ` is 7 columns; the top level and 255 parentheses are 256 levels
  assert.equal(compileError('\\set x ' + '('.repeat(3000) + '1' + ')'.repeat(3000)),
    `t.sql:1:${7 + MAX_EXPR_DEPTH}: expression nested too deeply (limit ${MAX_EXPR_DEPTH}) in command "set"`)
  assert.match(compileError('\\if ' + 'not '.repeat(50000) + 'true\n\\endif\n'), /^t\.sql:1:\d+: expression nested too deeply .* in command "if"$/)
})

test('an operator chain that is not one precedence level still counts its depth', () => {
  // `a isnull = b isnull = ...` nests left without parentheses (pgbench accepts it)
  assert.match(compileError('\\set x 1' + ' isnull = true'.repeat(MAX_EXPR_DEPTH)), /expression nested too deeply/)
})

test('100,000-term chains evaluate to their values', async () => {
  const n = 100000
  assert.equal(await evaluate('1' + ' + 1'.repeat(n - 1)), `int ${n}`)
  assert.equal(await evaluate('0' + ' + 2 - 1'.repeat(n / 2)), `int ${n / 2}`)
  assert.equal(await evaluate(':v' + ' * 1'.repeat(n - 1)), 'int 7')
  assert.equal(await evaluate('1' + ' + 1'.repeat(n - 2) + ' + 0.5'), `double ${n - 0.5}`)
  assert.equal(await evaluate('true' + ' and true'.repeat(n - 1)), 'boolean true')
  assert.equal(await evaluate('true' + ' and true'.repeat(n / 2) + ' and false' + ' and 1'.repeat(n / 2)), 'boolean false')
  assert.equal(await evaluate('true' + ' and true'.repeat(10) + ' and null' + ' and 1'.repeat(n)), 'null')
  assert.equal(await evaluate('false' + ' or false'.repeat(n - 1)), 'boolean false')
  assert.equal(await evaluate('false' + ' or false'.repeat(n / 2) + ' or true' + ' or 1'.repeat(n / 2)), 'boolean true')
  assert.equal(await evaluate('0' + ' | 1 # 1'.repeat(n / 2)), 'int 0')
  assert.match(await evaluate('1' + ' + 1'.repeat(n) + ' + true'), /evaluation of meta-command failed: cannot coerce boolean to int$/)
  assert.match(await evaluate('9223372036854775807' + ' + 0'.repeat(n) + ' + 1'), /bigint add out of range$/)
})

test('a long chain gives what the same operators nested by parentheses give (value, type or error)', async () => {
  const { int: rand } = seededRandom(5432)
  const operands = ['1', '-3', ':v', ':s', '0', '2.5', 'null', 'true', '9223372036854775807', '(-9223372036854775807 - 1)', 'random(1, 3)', '4611686018427387904']
  const levels = [['+', '-'], ['*', '/', '%'], ['|', '#', '&', '<<', '>>'], ['and'], ['or']]
  for (let c = 0; c < 150; c++) {
    const ops = levels[rand(levels.length)]
    const logical = ops[0] === 'and' || ops[0] === 'or'
    const n = 17 + rand(30) // over the length nested as binary nodes
    const terms = Array.from({ length: n }, () => logical ? ['true', 'false', 'null', '1'][rand(4)] : operands[rand(operands.length)])
    const used = Array.from({ length: n - 1 }, () => ops[rand(ops.length)])
    let flat = terms[0]
    let nested = terms[0]
    for (let i = 1; i < n; i++) {
      flat += ` ${used[i - 1]} ${terms[i]}`
      nested = `(${nested} ${used[i - 1]} ${terms[i]})`
    }
    assert.equal(await evaluate(flat), await evaluate(nested), flat)
  }
})

test('a \\sleep longer than a timer holds is refused when written, and aborts the client when read from a variable', async () => {
  assert.equal(compileError('\\sleep 2147484 s\n'),
    't.sql:1:8: sleep time too long, must be at most 2147483647 ms, about 24.8 days (2147484 s) in command "sleep"\n\\sleep 2147484 s\n       ^ error found here')
  assert.match(compileError('select 1;\n\\sleep 2147483648ms\n'), /^t\.sql:2:8: sleep time too long, .* \(2147483648 ms\) in command "sleep"/)
  assert.match(compileError('\\sleep 99999999999999999999999\n'), /^t\.sql:1:8: sleep time too long/)
  // the longest one is accepted
  const r = makeRun([{ text: '\\sleep 2147483647 ms\n\\set t 2147483647000\n\\sleep :t us\n' }])
  const slept = []
  r.ctx.sleepUs = async (us) => { slept.push(us) }
  await r.workload.transactions[0].run(r.ctx)
  assert.deepEqual(slept, [2147483647000, 2147483647000])
  const bad = makeRun([{ text: '\\set t 3000000\n\\sleep :t s\n' }])
  bad.ctx.sleepUs = async () => assert.fail('slept')
  await assert.rejects(bad.workload.transactions[0].run(bad.ctx), (e) => {
    assert.ok(e instanceof ClientAbortError)
    assert.equal(e.message, 'client 0 aborted in command 1 (sleep) of script 0; execution of meta-command failed: ' +
      'sleep: sleep time "3000000" for variable "t" is too long, must be at most 2147483647 ms, about 24.8 days')
    return true
  })
})
