// --failover as an output of the run session: it follows the run's errors, reconnects and
// intervals, and once the run ended adds the results' `failover` section: the client's timeline
// (timeline.js) and, read on the server the run ended on (the new primary), the write outage from
// the commits' own timestamps and the RPO check (history-check.js).

import { performance } from 'node:perf_hooks'
import { openConnection } from '../db/connection.js'
import { closeWithin } from '../db/close-within.js'
import { resolveTarget } from '../server/target/resolve-target.js'
import { failoverTimeline } from './timeline.js'
import { serverClock, rowsSince, commitRows, missingCommits } from './history-check.js'
import { keptCommits } from './acknowledged-commits.js'

const CLOSE_MS = 1000 // ms the check's connection may take to close politely

/**
 * @param {Readonly<Record<string, any>>} plan
 * @param {{ env?: Record<string, string|undefined> }} [opts]
 * @returns {{ name: string, phase: Function, start: Function, interval: Function, finish: Function, close: Function }}
 *   an output (lib/session/output.js)
 */
export function failoverOutput (plan, { env = process.env } = {}) {
  const target = resolveTarget({ url: plan.url, env })
  const seen = { errorsAtMs: [], reconnects: [], intervals: [], windowOpenMs: null }
  let baseline = null // the server's clock before the run: { since } or { error }
  let unfollow = () => {}
  return {
    name: 'failover',
    phase (name) {
      // read before the run starts: its history rows are those stamped from then on
      if (name === 'connected' && target && !baseline) baseline = readClock(target).then((since) => ({ since }), (err) => ({ error: err.message }))
    },
    start ({ run }) {
      const onError = () => seen.errorsAtMs.push(performance.now())
      const onReconnected = ({ failedForMs }) => seen.reconnects.push({ atMs: performance.now(), failedForMs })
      run.on('transaction-error', onError)
      run.on('connection-error', onError)
      run.on('terminal-aborted', onError)
      run.on('reconnected', onReconnected)
      unfollow = () => {
        run.off('transaction-error', onError)
        run.off('connection-error', onError)
        run.off('terminal-aborted', onError)
        run.off('reconnected', onReconnected)
      }
    },
    interval (e) {
      // the measured window's clock: an interval is told as it closes
      seen.windowOpenMs ??= performance.now() - e.elapsedS * 1000
      seen.intervals.push({ t: e.interval.t, lengthS: e.interval.lengthS, tps: e.interval.tps, failed: e.interval.failed, errors: errorsOf(e.types) })
    },
    async finish (results) {
      unfollow()
      results.failover = await failoverSection(results, { seen, target, baseline })
    },
    close () { unfollow() }
  }
}

/** The `failover` section: the timeline, the outage on the server and the RPO check. */
async function failoverSection (results, { seen, target, baseline }) {
  const toS = (ms) => seen.windowOpenMs === null ? 0 : (ms - seen.windowOpenMs) / 1000
  const firstErrorMs = seen.errorsAtMs.length ? Math.min(...seen.errorsAtMs) : null
  const timeline = failoverTimeline({
    firstErrorS: firstErrorMs === null ? null : Math.max(0, toS(firstErrorMs)),
    reconnects: seen.reconnects.map((r) => ({ atS: toS(r.atMs), failedForMs: r.failedForMs })),
    intervals: seen.intervals
  })
  const section = { detected: timeline !== null, ...(timeline ?? {}), outcomeUnknown: results.summary?.outcomeUnknown ?? 0 }
  const server = await serverSide(results, { target, baseline })
  return { ...section, ...server }
}

/** The outage from the history rows' timestamps and the RPO check, or why they are not there. */
async function serverSide (results, { target, baseline }) {
  const commits = commitRows(results)
  if (!commits) return { outageMs: null, rpo: null, serverCheck: 'only for pgbench\'s tpcb-like and simple-update and TPC-C, whose commits each insert a row' }
  // the warm-up's commits have their rows too, but are not in the results' counts
  if (results.run?.options?.warmupS > 0) return { outageMs: null, rpo: null, serverCheck: `the warm-up's commits are in ${commits.table} but not in the results: run --failover without --warmup (TPC-C: --warmup 0)` }
  if (!target) return { outageMs: null, rpo: null, serverCheck: 'the run used the embedded server, which has no standby to fail over to: give the servers with --url' }
  const clock = (await baseline) ?? { error: 'it was not read before the run started' }
  if (clock.error) return { outageMs: null, rpo: null, serverCheck: `the server's clock before the run could not be read: ${clock.error}` }
  let conn
  try {
    conn = await openConnection(target, { protocol: 'simple', applicationName: 'pgload-failover' })
    const h = await rowsSince(conn, commits, clock.since)
    const missing = Math.max(0, commits.committed - h.rows)
    return {
      outageMs: h.gapMs,
      lastCommitBefore: h.lastBefore,
      firstCommitAfter: h.firstAfter,
      rpo: { checked: commits.committed, found: h.rows, missing, server: `${conn.server?.host ?? target.config.host}:${conn.server?.port ?? target.config.port}`, ...await listed(conn, results, commits, clock.since) },
      serverCheck: null
    }
  } catch (err) {
    return { outageMs: null, rpo: null, serverCheck: `the server could not be read after the run: ${err.message.split('\n')[0]}` }
  } finally {
    if (conn) await closeWithin(conn, CLOSE_MS)
  }
}

/**
 * The RPO check's list: the first missing commits by their values, and how many, or why not.
 * @returns {Promise<{ missingCommits: object|null, notListed?: string }>}
 */
async function listed (conn, results, commits, since) {
  const log = keptCommits(results)
  if (!log || log.count === 0) return { missingCommits: null, notListed: 'the commits were not kept (worker threads, -j, keep their own)' }
  const m = await missingCommits(conn, log, since)
  return 'reason' in m ? { missingCommits: null, notListed: m.reason } : { missingCommits: m }
}

async function readClock (target) {
  const conn = await openConnection(target, { protocol: 'simple', applicationName: 'pgload-failover' })
  try {
    return await serverClock(conn)
  } finally {
    await closeWithin(conn, CLOSE_MS)
  }
}

/** An interval's failures by SQLSTATE over its types (only types that failed carry them). */
function errorsOf (types) {
  const out = {}
  for (const t of Object.values(types ?? {})) {
    for (const [code, n] of Object.entries(t.errors ?? {})) out[code] = (out[code] ?? 0) + n
  }
  return out
}
