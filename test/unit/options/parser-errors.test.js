// The option parser's complaints as pgload's own lines: closest names, choices, switch values.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { editDistance, closestName, parserMessage, checkSwitchValues } from '../../../lib/options/parser-errors.js'

const RUN = { args: ['run', 'tpcb'], optionNames: ['duration', 'T', 'clients', 'c', 'delivery', 'server-host-stats'], commandNames: ['run', 'init', 'server'] }

test('editDistance counts insertions, deletions and substitutions', () => {
  assert.equal(editDistance('duraton', 'duration'), 1)
  assert.equal(editDistance('rn', 'run'), 1)
  assert.equal(editDistance('kitten', 'sitting'), 3)
  assert.equal(editDistance('', 'abc'), 3)
})

test('closestName: a typo or the one name a word begins, never a far one', () => {
  assert.equal(closestName('duraton', ['clients', 'duration']), 'duration')
  assert.equal(closestName('stat', ['start', 'stop', 'status']), 'status')
  assert.equal(closestName('xyzzy', ['clients', 'duration']), undefined)
  assert.equal(closestName('q', ['c', 'T']), undefined)
})

test('parserMessage: unknown options with a suggestion when one is close', () => {
  assert.equal(parserMessage('Unknown argument: duraton', RUN), 'unknown option --duraton (did you mean --duration?)')
  assert.equal(parserMessage('Unknown arguments: bogus-option, bogusOption, x', RUN), 'unknown options --bogus-option, -x')
})

test('parserMessage: unknown commands', () => {
  assert.equal(parserMessage('Did you mean run?', { ...RUN, args: ['rn', 'tpcb'] }), 'unknown command rn (did you mean run?)')
  assert.equal(parserMessage('Unknown commands: zz', { ...RUN, args: ['zz'] }), 'unknown command zz')
})

test('parserMessage: a value outside the choices, for a flag and for a positional', () => {
  assert.equal(parserMessage('Invalid values:\n  Argument: delivery, Given: "foo", Choices: "deferred", "inline"', { ...RUN, args: ['run', '--delivery', 'foo'] }),
    '--delivery must be deferred or inline, got "foo"')
  assert.equal(parserMessage('Invalid values:\n  Argument: action, Given: "stat", Choices: "start", "stop", "status"', { ...RUN, args: ['server', 'stat'] }),
    'server action must be start, stop or status, got "stat" (did you mean status?)')
})

test('checkSwitchValues refuses a switch given a value other than true or false', () => {
  assert.throws(() => checkSwitchValues(['run', '--server-host-stats=maybe'], ['server-host-stats']), { message: /^--server-host-stats is a switch: .* got "maybe"$/ })
  assert.throws(() => checkSwitchValues(['run', '--no-server-host-stats=0'], ['server-host-stats']), { message: /got "0"$/ })
  checkSwitchValues(['run', '--server-host-stats=false', '--label=x', '--', '--server-host-stats=maybe'], ['server-host-stats'])
})

test('parserMessage names a negated unknown option as typed', () => {
  assert.equal(parserMessage('Unknown argument: such-flag', { ...RUN, args: ['run', '--no-such-flag'] }), 'unknown option --no-such-flag')
})
