// The compare verdict at the top of a report of A and B runs (`ab --report`): the answer first
// (which side is faster, by how much, how sure), then every metric's row; the runs follow.

import { escapeHtml as h } from './escape.js'
import { table } from './header.js'

const num = (v) => (v === null || v === undefined || !Number.isFinite(v) ? '-' : Number(v.toPrecision(4)).toLocaleString('en-US'))
const pct = (v) => (v === null || v === undefined || !Number.isFinite(v) ? '-' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)} %`)
const pText = (p) => (p === null || p === undefined ? 'no test' : p < 0.001 ? 'p < 0.001' : `p ${p.toFixed(3)}`)
const VERDICT = { better: 'better', worse: 'worse', '~': 'no difference beyond the noise' }

/**
 * One sentence on throughput: which side is faster and by how much, or that neither is.
 * @param {any} v the verdict (lib/compare/verdict.js)
 * @returns {string}
 */
export function verdictHeadline (v) {
  const tps = v.rows.find((r) => r.metric === 'tps' && !r.txn && !r.stage)
  if (!tps) return 'The runs have no throughput to compare.'
  const figures = `${num(tps.a?.median)} tps (A) against ${num(tps.b?.median)} tps (B), ${pct(tps.change?.estimate)}, ${pText(tps.p)}`
  if (tps.verdict === 'better') return `B is faster than A by ${pct(tps.change.estimate).replace('+', '')}: ${figures}.`
  if (tps.verdict === 'worse') return `B is slower than A by ${pct(tps.change.estimate).replace('-', '')}: ${figures}.`
  return `Neither side is faster beyond the noise band of ±${(v.noise * 100).toFixed(1)} % at alpha ${v.alpha}: ${figures}.`
}

/**
 * The verdict as the report's first section.
 * @param {any} v the verdict
 * @param {{ a?: string, b?: string }} [sides] what each side is (ab: its settings)
 * @returns {string}
 */
export function verdictHtml (v, sides = {}) {
  const rows = v.rows.map((r) => [
    `${r.stage ? `stage ${r.stage} ` : ''}${r.metric}${r.unit === 'ms' || r.unit === 's' ? ` ${r.unit}` : ''}${r.txn ? ` (${r.txn})` : ''}`,
    num(r.a?.median), num(r.b?.median), pct(r.change?.estimate), pText(r.p), VERDICT[r.verdict] + (r.note ? ` (${r.note})` : '')
  ])
  const tally = `${v.regressions} regression${v.regressions === 1 ? '' : 's'}, ${v.improvements} improvement${v.improvements === 1 ? '' : 's'} over ${v.rows.length} metrics`
  const what = [sides.a ? `A: ${sides.a}` : '', sides.b ? `B: ${sides.b}` : ''].filter(Boolean).join('; ')
  return [
    '<section class="verdict">',
    '<h2>Verdict: B against A</h2>',
    `<p><strong>${h(verdictHeadline(v))}</strong></p>`,
    `<p>${h([what, `${v.a.runs} against ${v.b.runs} runs`, tally, v.method].filter(Boolean).join('. '))}.</p>`,
    ...v.warnings.map((w) => `<p class="note">${h(w)}</p>`),
    table(['metric', 'A median', 'B median', 'change', 'p', 'verdict'], rows, 'numbers'),
    '</section>'
  ].join('\n')
}
