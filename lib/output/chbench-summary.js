// The CH-benCHmark block of the end-of-run summary: the analytic streams' throughput, the
// geometric mean of the 22 queries' times, each stream's complete sets and the slowest queries.

import { plural } from '../format/plural.js'

const f1 = (x) => x === null || x === undefined ? '-' : x.toFixed(1)

/**
 * The summary's `transaction type:` of a CH-benCHmark run: both halves of the mix.
 * @param {{ streams: number }} c the results' `chbench` section
 * @returns {string}
 */
export function chbenchTransactionType (c) {
  if (!(c.streams > 0)) return 'CH-benCHmark: TPC-C (5 types), no analytic stream'
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
    `CH-benCHmark: ${plural(c.streams, 'analytic stream')} beside the TPC-C terminals`,
    `queries per hour = ${f1(c.queriesPerHour)}   (${plural(c.queries, 'query', 'queries')} in ${f1(results.run.durationS)} s)`,
    c.geoMeanMs === null
      ? 'geometric mean of the 22 queries = - (not every query ran in the measured window)'
      : `geometric mean of the 22 queries' mean times = ${f1(c.geoMeanMs)} ms`,
    `complete sets of 22: ${c.sets.map((s) => `stream ${s.stream + 1}: ${s.complete}${s.meanS === null ? '' : ` (${s.meanS.toFixed(2)} s each)`}`).join(', ')}`
  ]
  const slowest = Object.entries(c.perQuery).filter(([, q]) => q.meanMs !== null).sort((a, b) => b[1].meanMs - a[1].meanMs).slice(0, 3)
  if (slowest.length) lines.push(`slowest queries: ${slowest.map(([name, q]) => `${name} ${f1(q.meanMs)} ms`).join(', ')}`)
  return lines
}
