// The pooler lines of the end-of-run summary: which PgBouncer, how it pools, and whether and how
// long clients queued in it for a server connection (the results' `pooler` section).

import { plural } from '../format/plural.js'

const ms = (v) => v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)

/**
 * @param {any} pooler the results' `pooler` section (undefined: the run had none)
 * @returns {string} lines separated by '\n' (no trailing newline); '' when there is no pooler
 */
export function formatPoolerSummary (pooler) {
  if (!pooler || typeof pooler !== 'object') return ''
  const mode = pooler.poolMode ? `, ${pooler.poolMode} pooling` : ''
  const size = pooler.poolSize === null || pooler.poolSize === undefined ? '' : `, pool of ${plural(pooler.poolSize, 'server connection')}`
  const used = pooler.maxServersActive === null || pooler.maxServersActive === undefined ? '' : ` (at most ${pooler.maxServersActive} in use)`
  const lines = [`pooler: PgBouncer ${pooler.version}${mode}${size}${used}`]
  const series = Array.isArray(pooler.series) ? pooler.series : []
  if (series.length === 0) {
    lines.push('        no reading of the pooler during the run')
  } else if (!(pooler.waitingIntervals > 0)) {
    lines.push(`        no client queued for a server connection (${plural(series.length, 'interval')} read)`)
  } else {
    const longest = pooler.longestWaitMs > 0 ? `, longest wait seen ${ms(pooler.longestWaitMs)} ms` : ''
    const perTxn = pooler.waitMs === null || pooler.waitMs === undefined ? '' : `; ${ms(pooler.waitMs)} ms of waiting per transaction on average`
    lines.push(`        clients queued for a server connection in ${pooler.waitingIntervals} of ${series.length} intervals (${pooler.waitingS} s), at most ${pooler.maxClientsWaiting ?? 0} waiting${longest}${perTxn}`)
  }
  return lines.join('\n')
}
