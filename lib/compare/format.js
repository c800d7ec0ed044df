// Presenting compare verdicts and threshold results: a terminal table and GitHub markdown.

import { answerChangeLines, queryVerdictLine } from './answers.js'
import { planChangeLines } from './plan-changes.js'

const fmtNum = (v) => {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-'
  const a = Math.abs(v)
  if (a >= 1000) return v.toFixed(0)
  if (a >= 100) return v.toFixed(1)
  if (a >= 10) return v.toFixed(2)
  return v.toFixed(3)
}
const fmtPct = (v) => v === null || v === undefined || !Number.isFinite(v) ? '-' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}%`

function side (s) {
  if (!s) return '-'
  if (s.lo === null || s.hi === null) return fmtNum(s.median)
  return `${fmtNum(s.median)} [${fmtNum(s.lo)}, ${fmtNum(s.hi)}]`
}

function change (c) {
  if (!c) return '-'
  if (c.lo === null || c.hi === null) return fmtPct(c.estimate)
  return `${fmtPct(c.estimate)} [${fmtPct(c.lo)}, ${fmtPct(c.hi)}]`
}

const metricName = (r) => (r.scenario ? `scenario ${r.scenario} ` : '') + (r.stage ? `stage ${r.stage} ` : '') + (r.unit === 'ms' || r.unit === 's' ? `${r.metric} ${r.unit}` : r.metric)
const txnName = (r) => r.txn ?? (r.unit === 'ms' ? '(all)' : '')
const pName = (r) => r.p === null || r.p === undefined ? '-' : r.p < 0.001 ? '<0.001' : r.p.toFixed(3)
const VERDICT_MARK = { better: 'better', worse: 'WORSE', '~': '~' }

function confidenceNote (v) {
  const low = v.rows.flatMap(r => [r.a, r.b, r.change]).filter(x => x && x.confidence && x.confidence < v.confidence - 1e-9)
  if (low.length === 0) return null
  const lowest = Math.min(...low.map(x => x.confidence))
  return `some intervals have only ${(lowest * 100).toFixed(1)} % confidence: too few runs for ${(v.confidence * 100).toFixed(0)} %`
}

/**
 * Align rows of cells into columns (first column left, others left too: values carry units).
 * @param {string[][]} rows first row = headers
 * @returns {string}
 */
export function alignTable (rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map(r => String(r[i]).length)))
  return rows.map(r => r.map((c, i) => i === r.length - 1 ? String(c) : String(c).padEnd(widths[i])).join('  ').trimEnd()).join('\n')
}

function differenceLines (v) {
  const lines = []
  const list = (d) => `${d.name}: ${d.a.join(' / ')} -> ${d.b.join(' / ')}`
  if (v.differences.blocking.length) lines.push(`runs differ (compared with --force): ${v.differences.blocking.map(list).join('; ')}`)
  if (v.differences.informative.length) lines.push(`other differences: ${v.differences.informative.map(list).join('; ')}`)
  if (v.differences.settings.length) {
    lines.push('server settings that differ (A -> B):')
    for (const d of v.differences.settings) lines.push(`  ${list(d)}`)
  }
  return lines
}

/**
 * The compare verdict as a terminal table with notes.
 * @param {object} v the result of compareRuns()
 * @returns {string}
 */
export function formatCompareText (v) {
  const ci = `${Math.round(v.confidence * 100)}% CI`
  const rows = [['metric', 'txn', `A median [${ci}]`, `B median [${ci}]`, `change [${ci}]`, 'p', 'verdict']]
  for (const r of v.rows) rows.push([metricName(r), txnName(r), side(r.a), side(r.b), change(r.change), pName(r), VERDICT_MARK[r.verdict] + (r.note ? ` (${r.note})` : '')])
  const out = [
    `A: ${v.a.files.join(' ')} (${v.a.runs} run${v.a.runs === 1 ? '' : 's'})`,
    `B: ${v.b.files.join(' ')} (${v.b.runs} run${v.b.runs === 1 ? '' : 's'})`,
    `${v.method}; noise band +/-${(v.noise * 100).toFixed(1)}%, alpha ${v.alpha}`,
    '',
    alignTable(rows),
    ''
  ]
  out.push(v.regressions ? `${v.regressions} regression${v.regressions === 1 ? '' : 's'} (WORSE beyond the noise band)` : 'no regression')
  if (v.improvements) out.push(`${v.improvements} improvement${v.improvements === 1 ? '' : 's'}`)
  const queries = queryVerdictLine(v)
  if (queries) out.push(queries)
  out.push(...answerChangeLines(v))
  out.push(...explanationLines(v), ...planChangeLines(v))
  const note = confidenceNote(v)
  for (const w of [...v.warnings, ...(note ? [note] : [])]) out.push(`warning: ${w}`)
  out.push(...differenceLines(v))
  return out.join('\n') + '\n'
}

const ms = (x) => x === null || x === undefined ? '-' : `${fmtNum(x)} ms`

/**
 * Why the latency got worse: per type, the server's wait events whose time per transaction grew
 * (B vs A, with the growth's 95 % interval), and the time outside the server.
 * @param {{ regressions: number, explanation?: object[]|null }} v
 * @returns {string[]}
 */
export function explanationLines (v) {
  if (v.explanation === undefined || (Array.isArray(v.explanation) && v.explanation.length === 0)) return []
  if (v.explanation === null) return v.regressions ? ['why: not known: a side\'s runs have no wait samples (--wait-sampling off, or results of an older pgload)'] : []
  const lines = ['why: the server\'s wait events whose time per transaction grew (A -> B, the growth with its 95% CI):']
  for (const x of v.explanation) {
    const outside = `outside the server ${ms(x.outsideMs.a)} -> ${ms(x.outsideMs.b)}`
    const events = x.events.map((e) => `${e.event} ${ms(e.aMs)} -> ${ms(e.bMs)} (+${fmtNum(e.deltaMs)} [${fmtNum(e.lo)}, ${fmtNum(e.hi)}])`)
    lines.push(`  ${x.type}: ${events.length ? events.join(', ') : 'no wait event grew beyond its interval'}; ${outside}`)
  }
  return lines
}

const mdEscape = (s) => String(s).replace(/\|/g, '\\|')

/**
 * The compare verdict as GitHub-flavoured markdown.
 * @param {object} v the result of compareRuns()
 * @returns {string}
 */
export function formatCompareMarkdown (v) {
  const ci = `${Math.round(v.confidence * 100)}% CI`
  const icon = { better: ':green_circle: better', worse: ':red_circle: **worse**', '~': '~' }
  const lines = [
    `### pgload compare: ${v.regressions ? `${v.regressions} regression${v.regressions === 1 ? '' : 's'}` : 'no regression'}`,
    '',
    `A: ${v.a.files.map(f => `\`${f}\``).join(', ')} · B: ${v.b.files.map(f => `\`${f}\``).join(', ')}  `,
    `${v.method}; noise band ±${(v.noise * 100).toFixed(1)} %, alpha ${v.alpha}`,
    '',
    `| metric | txn | A median [${ci}] | B median [${ci}] | change [${ci}] | p | verdict |`,
    '| --- | --- | ---: | ---: | ---: | ---: | --- |'
  ]
  for (const r of v.rows) {
    lines.push(`| ${mdEscape(metricName(r))} | ${mdEscape(txnName(r))} | ${side(r.a)} | ${side(r.b)} | ${change(r.change)} | ${pName(r)} | ${icon[r.verdict]}${r.note ? ` (${mdEscape(r.note)})` : ''} |`)
  }
  const note = confidenceNote(v)
  const why = explanationLines(v).map((l, i) => i === 0 ? `**${mdEscape(l)}**` : `- ${mdEscape(l.trim())}`)
  why.push(...planChangeLines(v).map((l) => `- ${mdEscape(l)}`))
  const queries = queryVerdictLine(v)
  const extra = [...(queries ? [mdEscape(queries)] : []), ...answerChangeLines(v).map(l => `**${mdEscape(l)}**`), ...why, ...v.warnings.map(w => `> warning: ${w}`), ...(note ? [`> warning: ${note}`] : []), ...differenceLines(v).map(l => `- ${mdEscape(l.trim())}`)]
  if (extra.length) lines.push('', ...extra)
  return lines.join('\n') + '\n'
}

const fmtValue = (v, unit, kind) => {
  if (v === null || v === undefined) return '-'
  if (kind === 'fraction') return `${Number((v * 100).toPrecision(3))} %` // failed/skipped rate
  return `${fmtNum(v)}${unit ? (unit === '/s' ? '/s' : ` ${unit}`) : ''}`
}

/**
 * A threshold's measured value as check's table and run's summary spell it: "9.255 ms", "12 %".
 * @param {{ actual: number|null, unit: string, kind: string }} r
 * @returns {string}
 */
export const thresholdActual = (r) => fmtValue(r.actual, r.unit, r.kind)

/**
 * Threshold results as terminal lines.
 * @param {{ expr: string, pass: boolean, actual: number|null, limit: number|null, unit: string, reason: string|null }[]} results
 * @returns {string}
 */
export function formatCheckText (results) {
  const windowed = results.some((r) => r.window)
  const rows = [['', 'threshold', 'actual', 'limit', ...(windowed ? ['worst window'] : []), '']]
  for (const r of results) {
    rows.push([r.pass ? 'ok' : 'FAIL', r.expr, fmtValue(r.actual, r.unit, r.kind), fmtValue(r.limit, r.unit, r.kind), ...(windowed ? [windowText(r)] : []), r.reason ?? ''])
  }
  return alignTable(rows) + '\n' + thresholdTally(results) + '\n'
}

/**
 * The one line that sums up threshold results, as check prints it on stdout and on stderr:
 * "1 of 1 threshold failed", "2 of 3 thresholds failed", "all 3 thresholds passed".
 * @param {{ pass: boolean }[]} results
 * @returns {string}
 */
export function thresholdTally (results) {
  const n = results.length
  const failed = results.filter((r) => !r.pass).length
  const noun = `threshold${n === 1 ? '' : 's'}`
  if (failed) return `${failed} of ${n} ${noun} failed`
  return n === 1 ? `the ${noun} passed` : `all ${n} ${noun} passed`
}

// The window a windowed threshold measured at its worst ("30-60 s"); '-' for a whole-run one.
const windowText = (r) => r.window ? `${Number(r.window.startS.toFixed(3))}-${Number(r.window.endS.toFixed(3))} s` : '-'

/**
 * Threshold results as GitHub-flavoured markdown.
 * @param {object[]} results from evaluateThresholds()
 * @param {{ title?: string }} [opts]
 * @returns {string}
 */
export function formatCheckMarkdown (results, { title = 'pgload check' } = {}) {
  const windowed = results.some((r) => r.window)
  const lines = [
    `### ${title}: ${thresholdTally(results)}`,
    '',
    `| | threshold | actual | limit |${windowed ? ' worst window |' : ''} note |`,
    `| --- | --- | ---: | ---: |${windowed ? ' ---: |' : ''} --- |`
  ]
  for (const r of results) {
    lines.push(`| ${r.pass ? ':white_check_mark:' : ':x:'} | \`${mdEscape(r.expr)}\` | ${fmtValue(r.actual, r.unit, r.kind)} | ${fmtValue(r.limit, r.unit, r.kind)} |${windowed ? ` ${windowText(r)} |` : ''} ${mdEscape(r.reason ?? '')} |`)
  }
  return lines.join('\n') + '\n'
}
