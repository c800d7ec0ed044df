import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sweepSpec, runPlan, sweepDifference, recordedOptions } from '../../../lib/sweep/spec.js'

const tpcb = (extra = {}, wo = {}) => ({ workload: 'tpcb', scripts: [], durationS: '60s', warmupS: '10s', ...extra, workloadOptions: { ...wo } })

test('a tpcb sweep: its axes, cells, the options every run shares, and each run\'s plan', async () => {
  const spec = await sweepSpec(tpcb({ clients: '4,1,2' }, { scale: '10,1' }), { repeat: '3' })
  assert.equal(spec.name, 'tpcb')
  assert.deepEqual(spec.axes, { scale: [1, 10], clients: [1, 2, 4], rate: null })
  assert.equal(spec.repeat, 3)
  assert.equal(spec.cells.length, 6)
  assert.equal(spec.plannedS, 70)
  assert.equal(spec.options.durationS, 60)
  assert.equal(spec.options.warmupS, 10)
  assert.equal(spec.options.clients, undefined, 'swept: not a common option')
  assert.equal(spec.options.workloadOptions.scale, undefined)
  assert.equal(spec.options.rate, 0, 'not swept: recorded as resolved')
  assert.equal(spec.options.seed, undefined, 'a seed not given is drawn for each run')
  const plan = await runPlan(spec, { scale: 10, clients: 4, rate: null }, { out: '/tmp/x/runs/s10-c4-r1.json', label: null })
  assert.equal(plan.clients, 4)
  assert.equal(plan.workloadOptions.scale, 10)
  assert.equal(plan.durationS, 60)
  assert.equal(plan.out, '/tmp/x/runs/s10-c4-r1.json')
  assert.equal(plan.writeFile, true)
  const labelled = await runPlan(spec, { scale: 1, clients: 2, rate: null }, { out: 'a.json', label: 'pg18 tuned' })
  assert.equal(labelled.label, 'pg18 tuned scale 1, clients 2')
})

test('the default repeat is three; rate lists; a given seed is every run\'s', async () => {
  const spec = await sweepSpec(tpcb({ clients: '64', rate: '2000,1000', seed: '7' }))
  assert.equal(spec.repeat, 3)
  assert.deepEqual(spec.axes, { scale: null, clients: [64], rate: [1000, 2000] })
  assert.equal(spec.options.seed, '7')
  const plan = await runPlan(spec, { scale: null, clients: 64, rate: 2000 }, { out: 'a.json' })
  assert.equal(plan.rate, 2000)
  assert.equal(plan.seed, '7')
})

test('tpcc: sized by warehouses, its clients are the connections of its fixed terminals', async () => {
  const input = { workload: 'tpcc', scripts: [], clients: '50,10', durationS: '5s', workloadOptions: { warehouses: '10', wait: false } }
  const spec = await sweepSpec(input)
  assert.deepEqual(spec.axes, { warehouses: [10], clients: [10, 50], rate: null })
  const plan = await runPlan(spec, { warehouses: 10, clients: 50, rate: null }, { out: 'a.json' })
  assert.equal(plan.connections, 50)
  assert.equal(plan.workloadOptions.warehouses, 10)
  await assert.rejects(sweepSpec({ ...input, clients: '10,101' }), { message: 'tpcc: --clients 101 is more than the 100 terminals of 10 warehouses' })
  await assert.rejects(sweepSpec({ ...input, connections: '20' }), /give --clients or --connections, not both/)
  await assert.rejects(sweepSpec({ ...input, workloadOptions: { scale: '2' } }), { message: 'tpcc is sized by --warehouses, not --scale' })
})

test('every mistake is one line before anything runs: bad lists, bad repeat, a combination refused in any cell', async () => {
  const cases = [
    [tpcb({ clients: '1,,4' }), '--clients must be a comma-separated list of integers >= 1, got "1,,4"'],
    [tpcb({}, { scale: '0,1' }), '--scale must be a comma-separated list of integers >= 1, got "0,1"'],
    [tpcb({ rate: 'fast' }), '--rate must be a comma-separated list of numbers > 0, got "fast"'],
    [tpcb({ latencyLimitMs: '50' }), '--latency-limit needs --rate: the limit is measured against the schedule that --rate sets'],
    [tpcb({ durationS: 'soon' }), '--duration must be a duration like 30s, 10m or 1h, got "soon"']
  ]
  for (const [input, message] of cases) await assert.rejects(sweepSpec(input), { message }, message)
  await assert.rejects(sweepSpec(tpcb(), { repeat: '0' }), { message: '--repeat must be an integer in 1..1000, got "0"' })
})

test('two sweeps differ where their workload, axes, repeat or common options do', async () => {
  const a = await sweepSpec(tpcb({ clients: '1,2' }, { scale: '1' }))
  const doc = { workload: a.name, axes: a.axes, repeat: a.repeat, options: a.options }
  assert.equal(sweepDifference(doc, await sweepSpec(tpcb({ clients: '2,1' }, { scale: '1' }))), null, 'the same sweep')
  assert.equal(sweepDifference(doc, await sweepSpec(tpcb({ clients: '1,4' }, { scale: '1' }))), 'axes.clients: [1,2] there, [1,4] here')
  assert.equal(sweepDifference(doc, await sweepSpec(tpcb({ clients: '1,2' }, { scale: '1' }), { repeat: 5 })), 'repeat: 3 there, 5 here')
  assert.equal(sweepDifference(doc, await sweepSpec(tpcb({ clients: '1,2', protocol: 'simple' }, { scale: '1' }))), 'options.protocol: "prepared" there, "simple" here')
  assert.equal(sweepDifference(doc, await sweepSpec(tpcb({ clients: '1,2', seed: '3' }, { scale: '1' }))), 'options.seed: none there, "3" here')
  assert.equal(sweepDifference(doc, await sweepSpec(tpcb({ clients: '1,4' }))), 'axes.scale: [1] there, none here; axes.clients: [1,2] there, [1,4] here', 'every difference')
})

test('recorded options: no address, no cell values, script files by the SHA-256 of their text (as sha256sum gives it)', () => {
  const plan = { planVersion: 1, workload: 'tpcb', resultName: 'script', scripts: [{ kind: 'file', name: 'my.sql', weight: 1, text: 'select 1;\n' }], clients: 8, url: 'postgres://u:secret@h/db', seed: '1', seedGiven: false, workloadOptions: { scale: 5 } }
  const options = recordedOptions(plan, 'tpcb', { scale: [5], clients: [8], rate: null })
  assert.deepEqual(options, {
    workload: 'tpcb',
    scripts: [{ kind: 'file', name: 'my.sql', weight: 1, sha256: '4a45092ccf992ea92250053a80b931b787924ba61648f420555511b84f10ab6c' }],
    workloadOptions: {}
  })
})
