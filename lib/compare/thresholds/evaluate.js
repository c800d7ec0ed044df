// Evaluating thresholds against a results document (and a baseline for relative ones). A
// threshold whose metric has no data fails, unless allowEmpty (k6 passes it silently).

import { PgloadError } from '../../errors.js'
import { parseThreshold } from './parser.js'
import { wholeRunValue, windowValues } from './values.js'
import { stageDocument, scenarioDocument } from './window-view.js'

export { parseThreshold } from './parser.js'

/** Display unit per value kind. */
const UNITS = { time: 'ms', rate: '/s', count: '', fraction: '', number: '', percent: '%' }

const COMPARE = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b
}

const round = (v) => typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v

/**
 * The value a threshold compares: the whole run's, or the worst window's (the largest for < and
 * <=, the smallest for > and >=, the first failing for == and !=) against `limit`.
 */
function measure (results, t, limit) {
  if (t.scenario) results = scenarioDocument(results, t.scenario)
  if (t.stage !== null && t.stage !== undefined) results = stageDocument(results, t.stage)
  if (t.windowS === null) return wholeRunValue(results, t)
  const r = windowValues(results, t)
  if (r.noData) return r
  let worst = r.windows[0]
  for (const w of r.windows) {
    if (t.op === '<' || t.op === '<=') { if (w.value > worst.value) worst = w } else if (t.op === '>' || t.op === '>=') {
      if (w.value < worst.value) worst = w
    } else if (limit !== undefined && !COMPARE[t.op](w.value, limit) && COMPARE[t.op](worst.value, limit)) worst = w
  }
  return { value: worst.value, window: { startS: worst.startS, endS: worst.endS }, note: r.note }
}

/**
 * A threshold on a scenario needs a scenario run with that scenario: one line otherwise.
 * @param {any} results @param {import('./parser.js').Threshold} t @param {string} which
 * @returns {any} the document the threshold's stage is looked for in
 */
function scenarioCheck (results, t, which) {
  if (!t.scenario) return results
  const scenarios = results.scenarios
  const file = results.file ? `${results.file}: ` : ''
  if (scenarios === null || typeof scenarios !== 'object' || !Object.hasOwn(scenarios, t.scenario)) {
    const names = scenarios && typeof scenarios === 'object' ? Object.keys(scenarios) : []
    throw new PgloadError(`--threshold '${t.expr}': ${file}${which}run has no scenario ${t.scenario}${names.length ? `: its scenarios are ${names.join(', ')}` : ' (it ran without --scenarios)'}`, { code: 'THRESHOLD_SCENARIO' })
  }
  return scenarios[t.scenario]
}

/**
 * A threshold on stage N needs a run with stages, and stage N in it: one line otherwise.
 * @param {any} results @param {import('./parser.js').Threshold} t @param {string} which
 */
function stageCheck (results, t, which) {
  if (t.stage === null || t.stage === undefined) return
  const stages = results.stages
  const file = results.file ? `${results.file}: ` : ''
  if (!Array.isArray(stages) || stages.length === 0) {
    throw new PgloadError(`--threshold '${t.expr}': ${file}${which}run has no stages (it ran without --stages or --clients-stages)`, { code: 'THRESHOLD_STAGE' })
  }
  if (t.stage > stages.length) {
    throw new PgloadError(`--threshold '${t.expr}': ${file}${which}run has no stage ${t.stage}: it has ${stages.length} stage${stages.length === 1 ? '' : 's'}`, { code: 'THRESHOLD_STAGE' })
  }
}

const short = (v) => String(Number(v.toPrecision(6)))

function describe (v, kind) {
  if (kind === 'fraction') return `${short(v * 100)} %`
  const u = UNITS[kind]
  return u ? `${short(v)} ${u}`.replace(' /s', '/s') : short(v)
}

/**
 * Evaluate thresholds.
 * @param {object} results a results document
 * @param {(string | import('./parser.js').Threshold)[]} thresholds expressions or parsed thresholds
 * @param {{ baseline?: object|null, allowEmpty?: boolean }} [options]
 * @returns {{ expr: string, pass: boolean, actual: number|null, limit: number|null, unit: string, kind: string,
 *   reason: string|null, window?: { startS: number, endS: number }, baseline?: number }[]}
 * @throws {PgloadError} on a syntax error, or a relative threshold without a baseline
 */
export function evaluateThresholds (results, thresholds, { baseline = null, allowEmpty = false } = {}) {
  const parsed = thresholds.map(t => typeof t === 'string' ? parseThreshold(t) : t)
  for (const t of parsed) {
    stageCheck(scenarioCheck(results, t, ''), t, '')
    if (t.relative !== null && baseline) stageCheck(scenarioCheck(baseline, t, 'the baseline '), t, 'the baseline ')
    if (t.relative !== null && !baseline) {
      throw new PgloadError(`--threshold '${t.expr}': a relative threshold needs --baseline`, { code: 'THRESHOLD_BASELINE', hint: 'give the results of the reference run with --baseline FILE' })
    }
  }
  return parsed.map((t) => {
    const unit = t.kind === 'fraction' ? '' : UNITS[t.kind]
    const out = { expr: t.expr, pass: false, actual: null, limit: null, unit, kind: t.kind, reason: null }
    let limit = t.value
    if (t.relative !== null) {
      const base = measure(baseline, t)
      if (base.noData) {
        out.pass = allowEmpty
        out.reason = `baseline has no data: ${base.noData}${allowEmpty ? ' (allowed by --allow-empty)' : ''}`
        return out
      }
      out.baseline = round(base.value)
      limit = base.value * (1 + t.relative)
    }
    out.limit = round(limit)
    const got = measure(results, t, limit)
    if (got.noData) {
      out.pass = allowEmpty
      out.reason = `no data: ${got.noData}${allowEmpty ? ' (allowed by --allow-empty)' : ''}`
      return out
    }
    out.actual = round(got.value)
    if (got.window) out.window = got.window
    out.pass = COMPARE[t.op](got.value, limit)
    const where = got.window ? ` in the window ${got.window.startS}-${got.window.endS} s` : ''
    const rel = t.relative !== null ? ` (baseline ${describe(out.baseline, t.kind)} ${t.relative >= 0 ? '+' : ''}${round(t.relative * 100)} %)` : ''
    out.reason = out.pass
      ? (got.note ?? null)
      : `${describe(got.value, t.kind)}${where} is not ${t.op} ${describe(limit, t.kind)}${rel}${got.note ? `; ${got.note}` : ''}`
    return out
  })
}
