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
  if (!f.detected) {
    const gap = f.outageMs === null || f.outageMs === undefined ? [] : [`failover: longest gap between two commits ${ms(f.outageMs)} (server time)`]
    return ['failover: none seen (no transaction failed and no reconnect was needed)', ...gap, ...rpoLines(f)]
  }
  const lines = []
  const back = f.reconnectedS === null ? 'never reconnected' : `reconnected at ${s1(f.reconnectedS)} s (re-opening failed for ${ms(f.reconnectMs)})`
  lines.push(`failover: first error at ${s1(f.firstErrorS)} s; ${back}`)
  if (f.outageMs !== null && f.outageMs !== undefined) lines.push(`failover: write outage ${ms(f.outageMs)} (last commit before ${f.lastCommitBefore}, first after ${f.firstCommitAfter}, server time)`)
  const recovered = f.recoveredS === null
    ? `throughput not back to 95 % of the ${s1(f.tpsBefore ?? 0)} tps before`
    : `throughput back to 95 % of the ${s1(f.tpsBefore)} tps before at ${s1(f.recoveredS)} s (${ms(f.recoveryMs)} after the first error)`
  lines.push(`failover: ${recovered}`)
  lines.push(`failover: failed transactions ${f.failed.before} before, ${f.failed.during} during, ${f.failed.after} after; ${plural(f.outcomeUnknown, 'commit')} of unknown outcome`)
  const during = codesText(f.errors?.during)
  if (during) lines.push(`failover: failures during it, by SQLSTATE or pgload's code: ${during}`)
  return [...lines, ...rpoLines(f)]
}

// missing commits the summary names; the results list more (lib/failover/history-check.js)
const SHOWN_MISSING = 3

/** The RPO check's line, or why there is none. */
function rpoLines (f) {
  if (f.rpo) {
    const verdict = f.rpo.missing === 0 ? 'none missing' : `${f.rpo.missing.toLocaleString('en-US')} acknowledged commit${f.rpo.missing === 1 ? '' : 's'} MISSING`
    return [`failover: RPO check on ${f.rpo.server}: ${f.rpo.checked.toLocaleString('en-US')} acknowledged commits, ${f.rpo.found.toLocaleString('en-US')} rows found, ${verdict}`, ...missingLines(f.rpo)]
  }
  return f.serverCheck ? [`failover: no RPO check: ${f.serverCheck}`] : []
}

/** The first missing commits by their pgbench_history values or orders keys (the results list more). */
function missingLines (rpo) {
  const m = rpo.missingCommits
  if (!m || m.count === 0) return rpo.missing > 0 && rpo.notListed ? [`failover: the missing commits are not listed: ${rpo.notListed}`] : []
  const orders = m.first[0]?.oId !== undefined
  const shown = m.first.slice(0, SHOWN_MISSING).map((c) => orders ? `(w ${c.w}, d ${c.d}, o_id ${c.oId})` : `(tid ${c.tid}, bid ${c.bid}, aid ${c.aid}, delta ${c.delta})`).join(', ')
  const more = m.count > SHOWN_MISSING ? `, and ${(m.count - SHOWN_MISSING).toLocaleString('en-US')} more (the results list the first ${m.first.length})` : ''
  return [`failover: missing ${orders ? 'New-Orders by their orders key' : 'by their pgbench_history values'}: ${shown}${more}`]
}

/** `57P01 2, 08006 1`: codes by count, most first. */
function codesText (codes) {
  return Object.entries(codes ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([code, n]) => `${code} ${n}`).join(', ')
}
