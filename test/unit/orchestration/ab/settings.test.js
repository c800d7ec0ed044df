import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseSettingList, normalizeSetting, sessionOptions } from '../../../../lib/orchestration/ab/settings.js'
import { abSequence, withStartupOptions } from '../../../../lib/orchestration/ab/runner.js'

test('setting lists: name=value pairs, quoted values keep commas', () => {
  assert.deepEqual(parseSettingList('work_mem=64MB, random_page_cost = 1.1', '--a'), [
    { name: 'work_mem', value: '64MB' }, { name: 'random_page_cost', value: '1.1' }])
  assert.deepEqual(parseSettingList("search_path='a, b',x.y=it''s", '--b'), [
    { name: 'search_path', value: 'a, b' }, { name: 'x.y', value: "it''s" }])
  assert.deepEqual(parseSettingList("app='it''s'", '--b'), [{ name: 'app', value: "it's" }])
  assert.deepEqual(parseSettingList(undefined, '--a'), [])
  assert.throws(() => parseSettingList('work_mem', '--a'), /--a: expected name=value/)
  assert.throws(() => parseSettingList('1x=3', '--a'), /invalid setting name "1x"/)
  assert.throws(() => parseSettingList('a=1,a=2', '--b'), /a is given twice/)
  assert.throws(() => parseSettingList("a='x", '--b'), /unterminated quote/)
})

test('setting values compare in base units', () => {
  assert.equal(normalizeSetting('64MB', { vartype: 'integer', unit: 'kB' }), normalizeSetting('65536kB', { vartype: 'integer', unit: 'kB' }))
  assert.equal(normalizeSetting('65536', { vartype: 'integer', unit: 'kB' }), normalizeSetting('64MB', { vartype: 'integer', unit: 'kB' }))
  assert.equal(normalizeSetting('16384', { vartype: 'integer', unit: '8kB' }), normalizeSetting('128MB', { vartype: 'integer', unit: '8kB' }))
  assert.equal(normalizeSetting('5min', { vartype: 'integer', unit: 's' }), normalizeSetting('300', { vartype: 'integer', unit: 's' }))
  assert.notEqual(normalizeSetting('64MB', { vartype: 'integer', unit: 'kB' }), normalizeSetting('32MB', { vartype: 'integer', unit: 'kB' }))
  assert.equal(normalizeSetting('true', { vartype: 'bool' }), 'on')
  assert.equal(normalizeSetting('OFF', { vartype: 'bool' }), 'off')
  assert.equal(normalizeSetting('1.10', { vartype: 'real' }), normalizeSetting('1.1', { vartype: 'real' }))
  assert.equal(normalizeSetting("'Replica'", { vartype: 'enum' }), 'replica')
})

test('session options escape spaces for the startup packet', () => {
  assert.equal(sessionOptions([{ name: 'work_mem', value: '64MB' }, { name: 'application_name', value: 'a b' }]), '-c work_mem=64MB -c application_name=a\\ b')
  assert.equal(withStartupOptions('postgres://u:p@h:5/db', '-c work_mem=64MB'), 'postgres://u:p@h:5/db?options=-c+work_mem%3D64MB')
  assert.equal(withStartupOptions('host=h port=5', '-c x=1'), "host=h port=5 options='-c x=1'")
  assert.equal(withStartupOptions('postgres://h/db', ''), 'postgres://h/db')
})

test('run order: ABBA blocks, or seeded random AB/BA rounds', () => {
  assert.deepEqual(abSequence(3, 'abba', 1), ['A', 'B', 'B', 'A', 'A', 'B'])
  assert.deepEqual(abSequence(2, 'abba', 1), ['A', 'B', 'B', 'A'])
  const r1 = abSequence(8, 'random', 5)
  assert.deepEqual(r1, abSequence(8, 'random', 5))
  assert.equal(r1.filter(s => s === 'A').length, 8)
  for (let i = 0; i < r1.length; i += 2) assert.notEqual(r1[i], r1[i + 1])
  assert.notDeepEqual(r1, abSequence(8, 'random', 6))
})
