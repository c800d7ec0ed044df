// The first seconds of a run from its per-transaction log (pgbench's format, which pgload's
// --log writes too): throughput per short bucket relative to the run's own steady state, and
// the latency p99 per bucket. pgbench and pgload are read by the same code, so what differs
// between them is the runners, not the accounting.

/**
 * @typedef {object} LoggedTransaction
 * @property {number} endS when it completed, seconds since the epoch
 * @property {number} latencyUs
 */

/**
 * Completed transactions from per-transaction log lines
 * (`client_id transaction_no time script_no time_epoch time_us [schedule_lag ...]`).
 * Skipped and failed ones have no latency and are left out, as from pgbench's own figures.
 * @param {string} text
 * @returns {LoggedTransaction[]}
 */
export function parseTransactionLog (text) {
  const out = []
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f.length < 6) continue
    const latencyUs = Number(f[2])
    const epochS = Number(f[4])
    const us = Number(f[5])
    if (!Number.isFinite(latencyUs) || !Number.isInteger(epochS) || !Number.isInteger(us)) continue
    out.push({ endS: epochS + us / 1e6, latencyUs })
  }
  return out
}

/**
 * @typedef {object} WarmupProfile
 * @property {number} steadyTps transactions per second from `steadyFromS` to half a second before the last end
 * @property {number} steadyP99Ms
 * @property {{ fromS: number, toS: number, relTps: number, p99Ms: number|null }[]} buckets
 * @property {number} lostS throughput lost over the buckets, in seconds of steady throughput
 */

/**
 * Buckets from the run's start: the earliest transaction start (end minus latency).
 * @param {LoggedTransaction[]} txns
 * @param {{ bucketS?: number, firstS?: number, steadyFromS?: number }} [opts]
 * @returns {WarmupProfile}
 */
export function warmupProfile (txns, { bucketS = 0.25, firstS = 2, steadyFromS = 3 } = {}) {
  if (txns.length === 0) throw new Error('no completed transaction in the log')
  let startS = Infinity
  let lastS = -Infinity
  for (const t of txns) {
    startS = Math.min(startS, t.endS - t.latencyUs / 1e6)
    lastS = Math.max(lastS, t.endS)
  }
  const steadyToS = lastS - startS - 0.5
  if (!(steadyToS - steadyFromS >= 1)) throw new Error(`the run is too short for a steady state after ${steadyFromS} s`)
  const n = Math.round(firstS / bucketS)
  const lat = Array.from({ length: n }, () => [])
  const steady = []
  for (const t of txns) {
    const at = t.endS - startS
    const k = Math.floor(at / bucketS)
    if (k < n) lat[k].push(t.latencyUs)
    if (at >= steadyFromS && at < steadyToS) steady.push(t.latencyUs)
  }
  const steadyTps = steady.length / (steadyToS - steadyFromS)
  let lostS = 0
  const buckets = lat.map((l, k) => {
    const relTps = l.length / bucketS / steadyTps
    lostS += (1 - relTps) * bucketS
    return { fromS: k * bucketS, toS: (k + 1) * bucketS, relTps, p99Ms: l.length === 0 ? null : p99(l) / 1000 }
  })
  return { steadyTps, steadyP99Ms: p99(steady) / 1000, buckets, lostS }
}

// The nearest-rank 99th percentile.
function p99 (values) {
  const v = values.slice().sort((a, b) => a - b)
  return v[Math.min(v.length - 1, Math.ceil(v.length * 0.99) - 1)]
}
