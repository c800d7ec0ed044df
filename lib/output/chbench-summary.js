// The CH-benCHmark block of the end-of-run summary: the analytic streams' throughput, the
// geometric mean of the 22 queries' times, each stream's complete sets and the slowest queries.

import { plural } from '../format/plural.js'

/** The analytic queries' transaction types: q1 ... q22. */
const QUERY_TYPE = /^q\d+$/

/**
 * A CH-benCHmark run's transactions and rates, TPC-C's apart from the analytic queries'.
 * @param {{ transactions: Record<string, { count: number, tps: number|null }> }} results
 * @returns {{ transactions: number, tps: number, queries: number, qps: number }}
 */
export function chbenchSplit (results) {
  const split = { transactions: 0, tps: 0, queries: 0, qps: 0 }
  for (const [name, t] of Object.entries(results.transactions)) {
    if (QUERY_TYPE.test(name)) {
      split.queries += t.count
      split.qps += t.tps ?? 0
    } else {
      split.transactions += t.count
      split.tps += t.tps ?? 0
    }
  }
  return split
}

const f1 = (x) => x === null || x === undefined ? '-' : x.toFixed(1)

/**
 * The summary's `transaction type:` of a CH-benCHmark run: both halves of the mix.
 * @param {{ streams: number }} c the results' `chbench` section
 * @returns {string}
 */
export function chbenchTransactionType (c) {
  if (!(c.streams > 0)) return 'CH-benCHmark: TPC-C (5 types), no analytic stream'
  if (c.tpcc === false) return `CH-benCHmark: 22 analytic queries on ${plural(c.streams, 'stream')}, no TPC-C terminal`
  return `CH-benCHmark: TPC-C (5 types) + 22 analytic queries on ${plural(c.streams, 'stream')}`
}

/**
 * @param {{ chbench: { streams: number, queries: number, queriesPerHour: number, geoMeanMs: number|null,
 *   sets: { stream: number, complete: number, meanS: number|null }[], perQuery: Record<string, { count: number, meanMs: number|null, rows: number }> },
 *   run: { durationS: number } }} results
 * @returns {string[]} lines
 */
export function formatChbench (results) {
  const c = results.chbench
  if (c.streams === 0) return ['CH-benCHmark: no analytic stream (--streams 0): the TPC-C figures above are the baseline']
  const lines = [
    `CH-benCHmark: ${plural(c.streams, 'analytic stream')} ${c.tpcc === false ? 'alone (--no-tpcc)' : 'beside the TPC-C terminals'}`,
    `queries per hour = ${f1(c.queriesPerHour)}   (${plural(c.queries, 'query', 'queries')} in ${f1(results.run.durationS)} s)`,
    c.geoMeanMs === null
      ? 'geometric mean of the 22 queries = - (not every query ran in the measured window)'
      : `geometric mean of the 22 queries' mean times = ${f1(c.geoMeanMs)} ms`,
    `complete sets of 22: ${c.sets.map((s) => `stream ${s.stream + 1}: ${s.complete}${s.meanS === null ? '' : ` (${s.meanS.toFixed(2)} s each)`}`).join(', ')}`
  ]
  const slowest = Object.entries(c.perQuery).filter(([, q]) => q.meanMs !== null).sort((a, b) => b[1].meanMs - a[1].meanMs).slice(0, 3)
  if (slowest.length) lines.push(`slowest queries: ${slowest.map(([name, q]) => `${name} ${f1(q.meanMs)} ms`).join(', ')}`)
  return [...lines, ...answerLines(c.perQuery)]
}

/**
 * What the answers' checksums say: which queries were checked, and any whose executions disagreed.
 * @param {Record<string, { answer?: { checked: boolean, agreed: number, differing: { count: number }[] } | null }>} perQuery
 * @returns {string[]}
 */
export function answerLines (perQuery) {
  const answered = Object.entries(perQuery).filter(([, q]) => q.answer)
  if (answered.length === 0) return []
  const checked = answered.filter(([, q]) => q.answer.checked)
  const lines = [checked.length === answered.length
    ? `answers checked: ${plural(checked.length, 'query', 'queries')} on data that held still`
    : `answers checked: ${checked.map(([n]) => n).join(', ') || 'none'} (the others read what the TPC-C terminals change; --no-tpcc checks all)`]
  for (const [name, q] of checked) {
    const differing = q.answer.differing.reduce((n, d) => n + d.count, 0)
    if (differing > 0) lines.push(`warning: ${name}'s answer changed: ${differing} of ${differing + q.answer.agreed} executions differ from its first`)
  }
  return lines
}
