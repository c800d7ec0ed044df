import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { loadSpec } from '../../../../lib/report/charts.js'
import { packageRoot } from '../../../../lib/report/assets.js'
import { SWEEP_CHARTS, buildSweepCharts } from '../../../../lib/report/sweep/charts.js'
import { sweepShape } from '../../../../lib/report/sweep/axes.js'
import { loadSweep, withFailedCell, asTpcc, asRateSweep } from '../../../fixtures/sweep/variants.js'

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
  assert.deepEqual(files.map((f) => f.replace('.vl.json', '')).sort(), SWEEP_CHARTS.map((c) => c.id).sort())
  for (const { id } of SWEEP_CHARTS) {
    const spec = loadSpec(`sweep/${id}`)
    assert.equal(spec.datasets, undefined, id)
    assert.ok(namedData(spec).length > 0, id)
  }
})

const variants = [['tpcb', loadSweep], ['failed cell', () => withFailedCell()], ['tpcc', asTpcc], ['rate', asRateSweep]]

for (const [name, make] of variants) {
  for (const logScale of [false, true]) {
    test(`filled sweep specs (${name}${logScale ? ', log scale' : ''}) validate and compile without warnings`, async (t) => {
      const vl = await import('vega-lite')
      const sweep = make()
      const { charts } = buildSweepCharts(sweep, sweepShape(sweep), { logScale })
      assert.equal(charts.length, 4)
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
