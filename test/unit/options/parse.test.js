import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseDurationS, parseInteger, parseNumber } from '../../../lib/options/parse.js'
import { parseDistribution } from '../../../lib/options/distribution.js'
import { Prng } from '../../../lib/random/prng.js'

test('durations', () => {
  assert.equal(parseDurationS('30s', '--duration'), 30)
  assert.equal(parseDurationS('10m', '--duration'), 600)
  assert.equal(parseDurationS('1h', '--duration'), 3600)
  assert.equal(parseDurationS('500ms', '--duration'), 0.5)
  assert.equal(parseDurationS('45', '--duration'), 45)
  assert.throws(() => parseDurationS('ten', '--duration'), /--duration must be a duration like 30s, 10m or 1h, got "ten"/)
  assert.throws(() => parseDurationS('5x', '--warmup'), /--warmup/)
})

test('integers and numbers name the flag and the value', () => {
  assert.equal(parseInteger(4, '--clients', { min: 1 }), 4)
  assert.throws(() => parseInteger(0, '--clients', { min: 1 }), /--clients must be an integer >= 1, got 0/)
  assert.throws(() => parseInteger('1.5', '--clients', { min: 1 }), /got "1.5"/)
  assert.equal(parseNumber('2.5', '--rate', { min: 0, exclusiveMin: true }), 2.5)
  assert.throws(() => parseNumber(0, '--rate', { min: 0, exclusiveMin: true }), /--rate must be a number > 0, got 0/)
})

test('distributions: syntax, ranges and means', () => {
  const r = Prng.fromSeed(42n)
  const fixed = parseDistribution('fixed:50', '--think-time')
  assert.equal(fixed.sampleUs(r), 50000)
  const uni = parseDistribution('uniform:100-300', '--think-time')
  let sum = 0
  for (let i = 0; i < 20000; i++) {
    const v = uni.sampleUs(r)
    assert.ok(v >= 100000 && v <= 300000)
    sum += v
  }
  assert.ok(Math.abs(sum / 20000 - 200000) < 3000)
  const exp = parseDistribution('exp:1000', '--think-time')
  assert.equal(exp.maxUs, 10_000_000, 'exp is truncated at 10x its mean by default')
  sum = 0
  for (let i = 0; i < 50000; i++) {
    const v = exp.sampleUs(r)
    assert.ok(v >= 0 && v <= 10_000_000)
    sum += v
  }
  assert.ok(Math.abs(sum / 50000 - exp.meanUs) / exp.meanUs < 0.02, `mean ${sum / 50000}`)
  assert.ok(Math.abs(exp.meanUs - 1000000 * (1 - Math.exp(-10))) < 1)
  assert.equal(parseDistribution('exp:500:2000', '--think-time').maxUs, 2_000_000)
  assert.throws(() => parseDistribution('gauss:5', '--think-time'), /--think-time must be fixed:MS, uniform:MIN-MAX or exp:MEAN\[:CAP\] \(milliseconds\), got "gauss:5"/)
  assert.throws(() => parseDistribution('uniform:5-1', '--think-time'), /MIN <= MAX/)
})

test('parseDurationS: a duration within a range with a shortest value (--interval takes units)', () => {
  assert.equal(parseDurationS('500ms', '--interval', { min: 0.01, max: 3600 }), 0.5)
  assert.equal(parseDurationS('0.5s', '--interval', { min: 0.01, max: 3600 }), 0.5)
  assert.equal(parseDurationS('1m', '--interval', { min: 0.01, max: 3600 }), 60)
  assert.throws(() => parseDurationS('5ms', '--interval', { min: 0.01, max: 3600 }), { message: '--interval must be a duration of at least 0.01 s, got "5ms"' })
  assert.throws(() => parseDurationS('2h', '--interval', { min: 0.01, max: 3600 }), { message: '--interval must be a duration of at most 3600 s, got "2h"' })
})
