// The summary's `trigger:` and `failover:` lines (results.run.trigger, results.failover, lib/failover): when the first error came,
// when the run reconnected, the write outage the server's rows show, the recovery of the
// throughput, failures by phase, and the RPO check.

import { plural } from '../format/plural.js'

const s1 = (x) => x.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
const ms = (x) => x >= 10_000 ? `${s1(x / 1000)} s` : `${Math.round(x).toLocaleString('en-US')} ms`

/**
 * The --trigger line: when the command ran and how it ended.
 * @param {Record<string, any>} results
 * @returns {string[]}
 */
export function formatTrigger (results) {
  const t = results.run?.trigger
  if (!t || typeof t !== 'object') return []
  if (t.atS === null) return [`trigger: not run (${t.error})`]
  return [`trigger: at ${s1(t.atS)} s, ${t.error === null ? `done in ${s1(t.seconds)} s` : t.error}`]
}

/**
 * @param {Record<string, any>} results
 * @returns {string[]} the lines (none without a failover section)
 */
export function formatFailover (results) {
  const f = results.failover
  if (!f || typeof f !== 'object') return []
  if (!f.detected) return ['failover: none seen (no transaction failed and no reconnect was needed)']
  const lines = []
  const back = f.reconnectedS === null ? 'never reconnected' : `reconnected at ${s1(f.reconnectedS)} s (re-opening failed for ${ms(f.reconnectMs)})`
  lines.push(`failover: first error at ${s1(f.firstErrorS)} s; ${back}`)
  if (f.outageMs !== null && f.outageMs !== undefined) lines.push(`failover: write outage ${ms(f.outageMs)} (last commit before ${f.lastCommitBefore}, first after ${f.firstCommitAfter}, server time)`)
  const recovered = f.recoveredS === null
    ? `throughput not back to 95 % of the ${s1(f.tpsBefore ?? 0)} tps before`
    : `throughput back to 95 % of the ${s1(f.tpsBefore)} tps before at ${s1(f.recoveredS)} s (${ms(f.recoveryMs)} after the first error)`
  lines.push(`failover: ${recovered}`)
  lines.push(`failover: failed transactions ${f.failed.before} before, ${f.failed.during} during, ${f.failed.after} after; ${plural(f.outcomeUnknown, 'commit')} of unknown outcome`)
  if (f.rpo) {
    const verdict = f.rpo.missing === 0 ? 'none missing' : `${plural(f.rpo.missing, 'acknowledged commit')} MISSING`
    lines.push(`failover: RPO check on ${f.rpo.server}: ${f.rpo.checked.toLocaleString('en-US')} acknowledged commits, ${f.rpo.found.toLocaleString('en-US')} rows found, ${verdict}`)
  } else if (f.serverCheck) {
    lines.push(`failover: no RPO check: ${f.serverCheck}`)
  }
  return lines
}
