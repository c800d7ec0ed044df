// The legends of transaction types follow the run's order: TPC-C's five, then q1..q22 by number.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { RUN_CHARTS, fillSpec } from '../../../lib/report/charts.js'

const doc = JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k1.json', import.meta.url), 'utf8'))

function typeColours (node, out = []) {
  if (Array.isArray(node)) node.forEach((n) => typeColours(n, out))
  else if (node && typeof node === 'object') {
    if (node.encoding?.color?.field === 'type') out.push(node.encoding.color)
    for (const [k, v] of Object.entries(node)) if (k !== 'datasets') typeColours(v, out)
  }
  return out
}

for (const id of ['throughput', 'percentile-spectrum', 'latency-distribution']) {
  test(`${id}: the legend lists TPC-C's types first, then the queries by number`, () => {
    const chart = RUN_CHARTS.find((c) => c.id === id)
    const spec = fillSpec(chart, chart.data(doc), {}, doc)
    const colours = typeColours(spec)
    assert.ok(colours.length > 0)
    for (const c of colours) {
      const order = c.sort ?? c.scale?.domain
      assert.deepEqual(order.slice(0, 7), ['new-order', 'payment', 'order-status', 'delivery', 'stock-level', 'q1', 'q2'])
      assert.ok(order.indexOf('q2') < order.indexOf('q10'))
    }
  })
}
