import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ClientAbortError } from '../../../lib/errors.js'
import { formatG15, rint } from '../../../lib/script/values.js'
import { makeRun } from './fake.js'

const DEFINES = { foo: '-10.1', bla: 'false', i: '+3', n: 'null', t: 't', f: 'of', d: '1.0', badtrue: 'trueXXX', maxint: '9223372036854775807', minint: '-9223372036854775808', e: '', sp: ' 42', big: '9223372036854775808', word: 'bla' }

/** The debug() line of one expression. */
async function debugOf (expr, opts = {}) {
  const { workload, ctx, debug } = makeRun([{ text: `\\set x debug(${expr})\n` }], { variables: DEFINES, ...opts })
  await workload.transactions[0].run(ctx)
  return debug[0].replace(/^debug\(script=0,command=1\): /, '').trimEnd()
}

async function abortOf (text) {
  const { workload, ctx } = makeRun([{ text }], { variables: DEFINES })
  try {
    await workload.transactions[0].run(ctx)
  } catch (e) {
    assert.ok(e instanceof ClientAbortError, e.stack)
    assert.equal(e.exitCode, 2)
    return e.message
  }
  assert.fail(`no abort for ${text}`)
}

test('values pgbench\'s own tests assert', async () => {
  const table = [
    ['int(7.3)', 'int 7'],
    ['17/(4|1) + (4 + (7>>2))', 'int 8'],
    ['-(3*4 - (-(~1) + -(~0)))/-1 + 3 % -1', 'int 9'],
    ['64 % (((2 + 1*2 + (1#2) | 4*(2&11)) - (1<<2)) + 2)', 'int 12'],
    ['sqrt(+1.5*2.0)*abs(-0.8E1)', 'double 13.856406460551'],
    ['double(1+1)*(-75.0/:foo)', 'double 14.8514851485149'],
    ['pi()*4.9', 'double 15.39380400259'],
    ['greatest(4,2,-1.17)*4.0*Ln(Exp(1.0))', 'double 16'],
    ['least(-5.18,.0E0,1.0/0)*-3.3', 'double 17.094'],
    ['10 + mod(13*7+12,13) - mod(-19*11-17,19)', 'int 39'],
    ['CASE WHEN NOT FALSE THEN 3*12.3333334 END', 'double 37.0000002'],
    ['pow(10,30)', 'double 1e+30'],
    ['pow(9223372036854775807, 2)', 'double 8.50705917302346e+37'],
    ['hash(10,5432)', 'int -5817877081768721676'],
    ['hash_fnv1a(10,5432)', 'int -7793829335365542153'],
    ['hash(10)', 'int 4313776982099445391'],
    ['-9223372036854775808', 'int -9223372036854775808'],
    [':maxint', 'int 9223372036854775807'],
    ['abs(:minint)', 'int -9223372036854775808'],
    ['random(10, 19)', 'int 17'],
    ['1 << 63', 'int -9223372036854775808'],
    ['-8 >> 1', 'int -4'],
    ['-7 / 2', 'int -3'],
    ['-7 % 3', 'int -1'],
    ['5.5 % 2', 'int 0'],
    ['int(2.5) + int(3.5) * 10 + int(-2.5) * 100', 'int -158'],
    ['1.0 / 0', 'double Infinity'],
    ['sqrt(-1.0)', 'double NaN'],
    ['1 IS TRUE', 'boolean false'],
    ['NULL IS NULL', 'boolean true'],
    ['NULL = NULL', 'null'],
    ['NULL AND false', 'null'],
    ['false AND 1/0 = 1', 'boolean false'],
    ['true OR 1/0 = 1', 'boolean true'],
    [':n IS NULL AND NOT :f AND :t', 'boolean true'],
    [':i + 1', 'int 4'],
    [':d', 'double 1'],
    [':sp + 0', 'int 42'],
    [':bla OR false', 'boolean false'],
    ['CASE WHEN 0 THEN 1 WHEN 2.5 THEN 2 ELSE 3 END', 'int 2'],
    ['CASE WHEN false THEN 1 END', 'null'],
    ['greatest(1, 2.5, 2)', 'double 2.5'],
    ['least(3, 1, 2)', 'int 1'],
    ['1 < 2 AND 2 > 1 AND 2 >= 2 AND 1 <= 1 AND 1 <> 2 AND 1 != 2', 'boolean true'],
    ['permute(0, 2, 5431)', 'int 0'],
    ['permute(1, 2, 5433)', 'int 0'],
    ['9223372036854775797 - 10 + 10', 'int 9223372036854775797'],
    ['0.1 + 0.2', 'double 0.3'],
    ['1.0/3', 'double 0.333333333333333'],
    ['1e16 * 1.0', 'double 1e+16'],
    ['123456789012345678.0', 'double 1.23456789012346e+17'],
    ['0.000001234', 'double 1.234e-06'],
    ['~0', 'int -1'],
    ['- - 3', 'int 3']
  ]
  for (const [expr, want] of table) assert.equal(await debugOf(expr), want, expr)
})

test('permute is pgbench\'s bijection at the largest sizes', async () => {
  const size = 9223372036854775797n
  const want = ['520382784483822430', '1143715004660802862', '447293596416496998', '916527772266572956', '2763809008686028849', '8648551549198294572']
  for (let k = 1; k <= want.length; k++) assert.equal(await debugOf(`permute(${size - BigInt(k)}, ${size}, 5432)`), `int ${want[k - 1]}`)
})

test('the evaluation order is pgbench\'s: a > b evaluates b first', async () => {
  const { workload, ctx, debug } = makeRun([{ text: '\\set x debug(1) > debug(2)\n' }])
  await workload.transactions[0].run(ctx)
  assert.deepEqual(debug, ['debug(script=0,command=1): int 2\n', 'debug(script=0,command=1): int 1\n'])
})

test('run-time errors abort the client with pgbench\'s messages', async () => {
  const table = [
    ['\\set i 1/0', 'division by zero'],
    ['\\set i :nosuchvariable', 'undefined variable "nosuchvariable"'],
    ['\\set i :word + 1', 'malformed variable "word" value: "bla"'],
    ['\\set i :e + 1', 'malformed variable "e" value: ""'],
    ['\\set i :big + 1', 'value "9223372036854775808" is out of range for type bigint'],
    ['\\set b NOT 0.0', 'cannot coerce double to boolean'],
    ['\\set i TRUE + 2', 'cannot coerce boolean to int'],
    ['\\set d ln(TRUE)', 'cannot coerce boolean to double'],
    ['\\set b random(FALSE, TRUE)', 'cannot coerce boolean to int'],
    ['\\set b :badtrue or true', 'malformed variable "badtrue" value: "trueXXX"'],
    ['\\set i int(1E32)', 'double to int overflow for 100000000000000005366162204393472.000000'],
    ['\\set i (1<<62) + (1<<62)', 'bigint add out of range'],
    ['\\set i 0 - (1<<62) - (1<<62) - (1<<62)', 'bigint sub out of range'],
    ['\\set i 2 * (1<<62)', 'bigint mul out of range'],
    ['\\set i :minint / -1', 'bigint div out of range'],
    ['\\set i -(-9223372036854775808)', 'bigint sub out of range'],
    ['\\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)', 'too many function arguments, maximum is 16'],
    ['\\set i random(5,3)', 'empty range given to random'],
    ['\\set i random(:minint, :maxint)', 'random range is too large'],
    ['\\set i random_gaussian(0, 10, 1.0)', 'gaussian parameter must be at least 2.000000 (not 1.000000)'],
    ['\\set i random_exponential(0, 10, 0.0)', 'exponential parameter must be greater than zero (not 0.000000)'],
    ['\\set i random_zipfian(0, 10, 1)', 'zipfian parameter must be in range [1.001, 1000] (not 1.000000)'],
    ['\\set i random_zipfian(0, 10, 1000000)', 'zipfian parameter must be in range [1.001, 1000] (not 1000000.000000)'],
    ['\\set i permute(0, 0)', 'permute size parameter must be greater than zero'],
    ['\\set i 5 % 0.4', 'division by zero'],
    ['\\set i TRUE = TRUE', 'cannot coerce boolean to int']
  ]
  for (const [text, detail] of table) {
    const msg = await abortOf(text)
    assert.match(msg, /^client 0 aborted in command 0 \(set\) of script 0; evaluation of meta-command failed/, text)
    if (detail) assert.ok(msg.endsWith(': ' + detail), `${text}: ${msg}`)
  }
  assert.equal(await abortOf('\\set . 1'), 'client 0 aborted in command 0 (set) of script 0; assignment of meta-command failed: set: invalid variable name: "."')
})

test('number formatting and rounding helpers', () => {
  assert.equal(formatG15(-0), '-0')
  assert.equal(formatG15(100), '100')
  assert.equal(formatG15(1e15), '1e+15')
  assert.equal(formatG15(123456789012345), '123456789012345')
  assert.equal(formatG15(0.0001), '0.0001')
  assert.equal(formatG15(0.00001), '1e-05')
  assert.equal(formatG15(-Infinity), '-Infinity')
  assert.deepEqual([rint(0.5), rint(1.5), rint(-0.5), rint(-1.5), rint(2.4)], [0, 2, -0, -2, 2])
})

test('examples from pgbench\'s documentation (operator and function tables)', async () => {
  const table = [
    ['abs(-17)', 'int 17'], ['debug(5432.1)', 'double 5432.1'], ['double(5432)', 'double 5432'],
    ['exp(1.0)', 'double 2.71828182845905'], ['greatest(5, 4, 3, 2)', 'int 5'], ['int(5.4 + 3.8)', 'int 9'],
    ['least(5, 4, 3, 2.1)', 'double 2.1'], ['ln(2.718281828459045)', 'double 1'], ['mod(54, 32)', 'int 22'],
    ['pi()', 'double 3.14159265358979'], ['pow(2.0, 10)', 'double 1024'], ['power(2.0, 10)', 'double 1024'],
    ['sqrt(2.0)', 'double 1.4142135623731'],
    ['5 & 3', 'int 1'], ['5 | 3', 'int 7'], ['5 # 3', 'int 6'], ['~5', 'int -6'], ['1 << 2', 'int 4'], ['8 >> 2', 'int 2'],
    ['5 = 4', 'boolean false'], ['5 <> 4', 'boolean true'], ['5 != 5', 'boolean false'], ['5 < 4', 'boolean false'],
    ['5 <= 4', 'boolean false'], ['5 > 4', 'boolean true'], ['5 >= 4', 'boolean true'],
    ['1 is null', 'boolean false'], ['1 isnull', 'boolean false'], ['1 notnull', 'boolean true'],
    ['1 is not null', 'boolean true'], ['1 is true', 'boolean false'], ['1 is not true', 'boolean true'],
    ['2 + 3', 'int 5'], ['2 - 3', 'int -1'], ['2 * 3', 'int 6'], ['5 / 3', 'int 1'], ['5 % 3', 'int 2'], ['- 2.0', 'double -2'],
    ['true and false', 'boolean false'], ['true or false', 'boolean true'], ['not false', 'boolean true'],
    // the value pgbench 15 prints for the first draw with --random-seed 5432
    ['(1021 * random(1, 100000 * :scale)) % (100000 * :scale) + 1', 'int 52216'],
    ['CASE WHEN :x <> 0 THEN :y/:x ELSE NULL END', 'int 3'],
    ['CASE WHEN :z <> 0 THEN :y/:z ELSE NULL END', 'null']
  ]
  for (const [expr, want] of table) assert.equal(await debugOf(expr, { variables: { x: '4', y: '13', z: '0' } }), want, expr)
  // the documentation says `5 or 0` is TRUE; pgbench really refuses to treat integers as booleans
  assert.match(await abortOf('\\set b 5 or 0'), /cannot coerce int to boolean$/)
})
