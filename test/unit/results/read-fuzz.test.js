// Seeded fuzzing of the one results reader: every damaged file is either accepted (and then
// decodes and feeds report, compare and check without a crash) or refused with one line naming
// the file and the damaged field. PGLOAD_FUZZ_SEED=<n> replays another seed.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readResults } from '../../../lib/results/read.js'
import { PgloadError } from '../../../lib/errors.js'
import { decodeHistogram } from '../../../lib/metrics/histogram.js'
import { decodeSparse } from '../../../lib/compare/statistics/interval-series.js'
import { buildCharts } from '../../../lib/report/charts.js'
import { labelRuns } from '../../../lib/report/render-report.js'
import { buildHtml } from '../../../lib/report/html.js'
import { compareRuns } from '../../../lib/compare/verdict.js'
import { evaluateThresholds, parseThreshold } from '../../../lib/compare/thresholds/evaluate.js'
import { mutate, pathText } from './mutate.js'
import { seededRandom } from '../../helpers/seeded-random.js'

const SEED = Number(process.env.PGLOAD_FUZZ_SEED ?? 20261125)
const BASES = ['results/tpcb-a.json', 'results/tpcc.json', 'results/recorded-tpcb.json', 'compare/base-1.json', 'compare/tpcc-1.json', 'compare/clients16.json']
const bases = BASES.map((name) => {
  const text = readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')
  return { name, text, doc: JSON.parse(text) }
})
const dir = mkdtempSync(join(tmpdir(), 'pgload-results-fuzz-'))
process.on('exit', () => rmSync(dir, { recursive: true, force: true }))

const THRESHOLDS = ['p(99) < 50ms', 'tps > 1', 'p(99)[3s] < 80ms', 'tps: min < 1', 'failed: rate < 1%', 'lag: p(99) < 1', 'tpmC > 1', 'efficiency > 10%', 'latency{txn:new-order}: max < 900']
  .map(parseThreshold)

/** Both decoders read every histogram of an accepted document into finite values. */
function assertDecodes (doc, where) {
  const encoded = [
    ...Object.values(doc.transactions).map((t) => t.histogram),
    ...doc.intervals.flatMap((iv) => Object.values(iv.histograms ?? {}))
  ].filter((h) => h !== undefined)
  for (const h of encoded) {
    const full = decodeHistogram(h)
    const sparse = decodeSparse(h)
    assert.ok(Number.isFinite(full.totalCount), `${where}: histogram total`)
    assert.equal(sparse.total, full.totalCount, `${where}: both decoders count the same`)
    assert.ok(sparse.values.every(Number.isFinite), `${where}: sparse values finite`)
  }
}

/** The field a one-line error names, and that it is the damaged one, one of its parents or children. */
function assertNamesField (err, file, keys, where) {
  assert.ok(err.message.startsWith(`${file}: `), `${where}: names the file: ${err.message}`)
  if (!keys) return
  const rest = err.message.slice(file.length + 2)
  const named = /^(\S+?)(?:: | is )/.exec(rest)?.[1] ?? rest.split(': ')[0]
  const touched = pathText(keys)
  const related = (a, b) => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`)
  // a damaged count is named as the count its histogram contradicts, a damaged source as the
  // figure derived from it, with the source's fields after "but"
  const contradicted = / values?, but (\S+) (is|adds up to) /.exec(err.message)?.[1]
  const sources = / is .*?, but (.*)$/.exec(rest)?.[1].match(/[A-Za-z_$][\w$-]*(?:\.[\w$-]+|\[[^\]]*\])*/g) ?? []
  const namesDamage = related(named, touched) || related(touched, named) || (contradicted && (related(contradicted, touched) || related(touched, contradicted))) ||
    sources.some((s) => related(s, touched) || related(touched, s))
  assert.ok(namesDamage, `${where}: names ${named}, the damage was at ${touched}: ${err.message}`)
}

/** Read one mutation: accepted (returns the document) or one RESULTS_INVALID line (returns null). */
async function readMutation (i, rnd) {
  const base = rnd.pick(bases)
  const m = mutate(base.doc, base.text, rnd)
  const file = join(dir, `m${i}.json`)
  writeFileSync(file, m.bytes)
  const where = `seed ${SEED}, mutation ${i} (${m.kind}${m.keys ? ` at ${pathText(m.keys)}` : ''} of ${base.name})`
  try {
    const doc = await readResults(file)
    assertDecodes(doc, where)
    return { doc, base, where, kind: m.kind }
  } catch (err) {
    assert.ok(err instanceof PgloadError, `${where}: ${err?.stack ?? err}`)
    assert.equal(err.code, 'RESULTS_INVALID', where)
    assert.equal(err.exitCode, 1, where)
    assert.equal(err.hint, undefined, `${where}: one line, no hint`)
    assert.doesNotMatch(err.message, /[\n\r]/, `${where}: one line`)
    assertNamesField(err, file, m.keys, where)
    return { doc: null, where, kind: m.kind }
  } finally {
    rmSync(file)
  }
}

test('1,200 seeded mutations of real results files: each accepted and decodable, or one line naming file and field', async () => {
  const rnd = seededRandom(SEED)
  const seen = {}
  for (let i = 0; i < 1200; i++) {
    const r = await readMutation(i, rnd)
    const tally = (seen[r.kind] ??= { accepted: 0, refused: 0 })
    if (r.doc) tally.accepted++
    else tally.refused++
  }
  // Every kind of damage happened, and most were refused: the test exercised the reader.
  for (const kind of ['truncate-json', 'truncate-gzip', 'number-text', 'histogram', 'delete', 'replace', 'intervals-order']) {
    assert.ok(seen[kind]?.refused > 0, `seed ${SEED}: no ${kind} mutation was refused (${JSON.stringify(seen)})`)
  }
  assert.equal(seen['truncate-json'].accepted, 0, `seed ${SEED}: truncated JSON accepted`)
  assert.equal(seen['truncate-gzip'].accepted, 0, `seed ${SEED}: truncated gzip accepted`)
  assert.ok(seen.replace.accepted > 0 && seen.delete.accepted > 0, `seed ${SEED}: lenient fields accept changes`)
})

test('accepted mutations feed the report, compare and check without a crash', async () => {
  const rnd = seededRandom(SEED + 1)
  let fed = 0
  for (let i = 0; i < 160; i++) {
    const { doc, base, where } = await readMutation(i, rnd)
    if (!doc) continue
    fed++
    try {
      const labelled = labelRuns([doc])
      buildHtml(labelled.runs, buildCharts(labelled))
      evaluateThresholds(doc, THRESHOLDS, { baseline: base.doc, allowEmpty: true })
      compareRuns([base.doc], [doc], { iterations: 20, force: true })
    } catch (err) {
      assert.ok(err instanceof PgloadError && !/\n/.test(err.message), `${where}: ${err?.stack ?? err}`)
    }
  }
  assert.ok(fed > 20, `seed ${SEED}: only ${fed} mutations were accepted`)
})
