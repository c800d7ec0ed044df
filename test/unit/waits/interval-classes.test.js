// Sampled sessions by wait class per interval: the classes of a pg_stat_activity row, the counts on
// the results' intervals, and the sampler's reads counted in the interval they were sent in.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { IntervalClasses } from '../../../lib/waits/interval-classes.js'
import { waitClassOf, orderWaitClasses, WAIT_CLASSES } from '../../../lib/results/wait-classes.js'
import { ActivitySlots } from '../../../lib/engine/activity-slots.js'
import { WaitSampler } from '../../../lib/waits/wait-sampler.js'

test('a row\'s class: CPU, its wait_event_type, idle in transaction; idle and hidden rows are no active session', () => {
  assert.equal(waitClassOf('active', null), 'CPU')
  assert.equal(waitClassOf('active', 'Lock'), 'Lock')
  assert.equal(waitClassOf('fastpath function call', 'IO'), 'IO')
  assert.equal(waitClassOf('idle in transaction', 'Client'), 'idle in transaction')
  assert.equal(waitClassOf('idle in transaction (aborted)', 'Client'), 'idle in transaction')
  assert.equal(waitClassOf('idle', 'Client'), null)
  assert.equal(waitClassOf(null, null), null)
})

test('classes in a stable order: CPU first, the known types, then others by name', () => {
  assert.deepEqual(orderWaitClasses(['Lock', 'Zeta', 'idle in transaction', 'CPU', 'Alpha', 'IO']), ['CPU', 'IO', 'Lock', 'idle in transaction', 'Alpha', 'Zeta'])
  assert.equal(WAIT_CLASSES[0], 'CPU')
})

test('counts per interval as average active sessions, on the results\' intervals; late reads fold into the last', () => {
  const c = new IntervalClasses(1000)
  for (let i = 0; i < 4; i++) {
    const k = c.read(i * 250)
    c.add(k, 'CPU', null)
    c.add(k, 'Lock', 'Lock:transactionid')
  }
  const k = c.read(1100)
  c.add(k, 'Lock', 'Lock:tuple')
  c.add(c.read(2600), 'IO', 'IO:DataFileRead') // after the last interval's start: counts in it
  const series = c.series([{ t: 1, lengthS: 1 }, { t: 1.5, lengthS: 0.5 }])
  assert.deepEqual(series, [
    { t: 1, lengthS: 1, ticks: 4, samples: { CPU: 4, Lock: 4 }, sessions: { CPU: 1, Lock: 1 }, events: { 'Lock:transactionid': 4 } },
    { t: 1.5, lengthS: 0.5, ticks: 2, samples: { IO: 1, Lock: 1 }, sessions: { IO: 0.5, Lock: 0.5 }, events: { 'IO:DataFileRead': 1, 'Lock:tuple': 1 } }
  ])
  assert.deepEqual(new IntervalClasses(1000).series([{ t: 1, lengthS: 1 }])[0], { t: 1, lengthS: 1, ticks: 0, samples: {}, sessions: {}, events: {} })
})

test('the sampler counts each read in the interval it was sent in, by class, idle backends left out', async () => {
  const activity = new ActivitySlots(4)
  for (const pid of [101, 102, 103]) activity.bind({ backendPid: pid })
  let rows = []
  const conn = {
    async prepare () {},
    async simpleQuery () { return { rows: [['f']] } },
    async execute (stmt) { return { rows: stmt.text.includes('pg_stat_clear_snapshot') ? [['']] : rows } },
    async close () {}
  }
  let now = 0
  const sampler = new WaitSampler({ openConnection: async () => conn, activity, hz: 50, typeCount: 1, intervalMs: 1000, nowMs: () => now })
  await sampler.start()
  sampler.begin()
  rows = [['101', 'active', 'Lock', 'transactionid'], ['102', 'active', null, null], ['103', 'idle', 'Client', 'ClientRead'], ['999', 'active', null, null]]
  now = 500
  await sampler.tick()
  rows = [['101', 'active', 'Lock', 'transactionid'], ['102', 'idle in transaction', 'Client', 'ClientRead'], ['103', 'active', 'IO', 'WALSync']]
  now = 1500
  await sampler.tick()
  await sampler.finish()
  const series = sampler.classes.series([{ t: 1, lengthS: 1 }, { t: 2, lengthS: 1 }])
  assert.deepEqual(series.map((e) => [e.ticks, e.samples, e.events]), [
    [1, { CPU: 1, Lock: 1 }, { 'Lock:transactionid': 1 }],
    [1, { IO: 1, Lock: 1, 'idle in transaction': 1 }, { 'IO:WALSync': 1, 'Lock:transactionid': 1 }]
  ])
})
