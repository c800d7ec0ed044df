import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { loadSpec } from '../../../../lib/report/charts.js'
import { packageRoot } from '../../../../lib/report/assets.js'
import { SWEEP_CHARTS, buildSweepCharts } from '../../../../lib/report/sweep/charts.js'
import { sweepShape } from '../../../../lib/report/sweep/axes.js'
import { loadSweep, withFailedCell, asTpcc, asRateSweep, asChbench } from '../../../fixtures/sweep/variants.js'

const require = createRequire(import.meta.url)

/** vega-lite's own JSON schema through ajv (present through eslint's dependencies), or null. */
function schemaValidator () {
  let Ajv
  try { Ajv = require('ajv') } catch { return null }
  const schema = JSON.parse(readFileSync(join(packageRoot('vega-lite'), 'build', 'vega-lite-schema.json'), 'utf8'))
  const ajv = new Ajv({ allErrors: false, extendRefs: true, schemaId: 'auto', unknownFormats: 'ignore' })
  ajv.addFormat('color-hex', /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/)
  return ajv.compile(schema)
}
const validate = schemaValidator()

/** Names of the datasets a spec reads; static specs hold no inline values. */
function namedData (spec) {
  const names = []
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node || typeof node !== 'object') return
    if (node.data) {
      assert.equal(node.data.values, undefined, 'static specs hold no inline values')
      names.push(node.data.name)
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'datasets') walk(v)
  }
  walk(spec)
  return names
}

test('every spec in reports/sweep/ is a chart of the catalogue and reads named data only', () => {
  const files = readdirSync(new URL('../../../../reports/sweep/', import.meta.url)).filter((f) => f.endsWith('.vl.json'))
  const specs = [...new Set(SWEEP_CHARTS.map((c) => c.spec ?? c.id))]
  assert.deepEqual(files.map((f) => f.replace('.vl.json', '')).sort(), specs.sort())
  for (const id of specs) {
    const spec = loadSpec(`sweep/${id}`)
    assert.equal(spec.datasets, undefined, id)
    assert.ok(namedData(spec).length > 0, id)
  }
})

const variants = [['tpcb', loadSweep, 4], ['failed cell', () => withFailedCell(), 4], ['tpcc', asTpcc, 4], ['rate', asRateSweep, 4], ['chbench', asChbench, 7]]

for (const [name, make, count] of variants) {
  for (const logScale of [false, true]) {
    test(`filled sweep specs (${name}${logScale ? ', log scale' : ''}) validate and compile without warnings`, async (t) => {
      const vl = await import('vega-lite')
      const sweep = make()
      const { charts } = buildSweepCharts(sweep, sweepShape(sweep), { logScale })
      assert.equal(charts.length, count)
      if (!validate) t.diagnostic('ajv not installed: structural checks only')
      for (const c of charts) {
        for (const n of namedData(c.spec)) assert.ok(Array.isArray(c.spec.datasets[n]) && c.spec.datasets[n].length > 0, `${c.name}: dataset ${n}`)
        if (validate) assert.ok(validate(c.spec), `${c.name}: ${JSON.stringify(validate.errors?.slice(0, 2))}`)
        const warnings = []
        const logger = { level () { return this }, warn: (...a) => warnings.push(a.join(' ')), info () {}, debug () {}, error: (...a) => warnings.push(a.join(' ')) }
        const compiled = vl.compile(c.spec, { logger }).spec
        assert.deepEqual(warnings, [], c.name)
        assert.ok(Array.isArray(compiled.marks) && compiled.marks.length > 0, c.name)
        assert.doesNotMatch(JSON.stringify(c.spec.datasets), /"(x|tps|ms|ratio)":null/, `${c.name}: null values in data`)
      }
      const latency = charts.find((c) => c.id === 'latency').spec
      assert.equal(latency.spec.layer[1].encoding.y.scale.type, logScale ? 'log' : undefined)
    })
  }
}

test('a chbench sweep draws tpmC, New-Order p90 and queries per hour against the streams, each from its own dataset', () => {
  const sweep = asChbench()
  const { charts } = buildSweepCharts(sweep, sweepShape(sweep))
  const figures = charts.filter((c) => c.spec.data?.name?.startsWith('sweep-') && c.name !== 'sweep-throughput')
  assert.deepEqual(figures.map((c) => c.title), ['tpmC against analytic streams', 'New-Order p90 against analytic streams', 'Analytic queries per hour against analytic streams'])
  for (const c of figures) {
    assert.deepEqual(Object.keys(c.spec.datasets), [c.name], 'one dataset named after the chart: the stacked SVG keeps each')
    assert.equal(c.spec.encoding.x.title, 'analytic streams')
    assert.deepEqual(c.spec.encoding.x.axis.values, [0, 1, 2])
    assert.equal(c.spec.datasets[c.name].length, 6, 'two warehouse counts by three stream counts')
  }
  const tpmc = figures[0].spec.datasets['sweep-tpmc'].find((r) => r.series === '10 warehouses' && r.x === 2)
  const cell = sweep.cells.find((c) => c.cell.warehouses === 10 && c.cell.streams === 2)
  assert.deepEqual([tpmc.value, tpmc.valueMin, tpmc.valueMax], [cell.tpmC.median, cell.tpmC.min, cell.tpmC.max])
  // another workload's report has none of them
  assert.equal(buildSweepCharts(loadSweep(), sweepShape(loadSweep())).charts.some((c) => c.id === 'tpmc'), false)
})
