// What each server of a routed run (--route) counted itself over the run: pg_stat_database's
// deltas for the run's database over the measured window, and how far its replay was behind (a
// standby: now() - pg_last_xact_replay_timestamp(); a primary: the largest replay_lag of
// pg_stat_replication), at each interval and at the end. Read on a connection of its own per
// server, outside the run's pools; one reading at a time (a slow server skips intervals).

import { openConnection } from '../../db/connection.js'
import { closeWithin } from '../../db/close-within.js'

const APPLICATION = 'pgload-target-stats'
const COUNTERS = ['xact_commit', 'xact_rollback', 'tup_returned', 'tup_fetched', 'tup_inserted', 'tup_updated', 'tup_deleted', 'blks_hit', 'blks_read']
const READ = `select pg_is_in_recovery(), ${COUNTERS.map((c) => `d.${c}`).join(', ')},
  case when pg_is_in_recovery() then round((extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::numeric, 3) end,
  (select round((max(extract(epoch from replay_lag)) * 1000)::numeric, 3) from pg_stat_replication)
  from pg_stat_database d where d.datname = current_database()`
// the run's backends publish their last figures as they exit: wait for them this long at most
const EXIT_WAIT_MS = 3000
const CLOSE_MS = 1000

/**
 * @typedef {{ standby: boolean, counters: Record<string, number>, replayLagMs: number|null }} TargetReading
 */

/** @param {import('../../db/connection.js').PgConnection} conn @returns {Promise<TargetReading>} */
async function read (conn) {
  const row = (await conn.simpleQuery(READ)).rows[0]
  const counters = {}
  COUNTERS.forEach((c, i) => { counters[c] = Number(row[1 + i]) })
  const standby = String(row[0]) === 't' || row[0] === true
  const lag = standby ? row[1 + COUNTERS.length] : row[2 + COUNTERS.length]
  return { standby, counters, replayLagMs: lag === null || lag === undefined ? null : Number(lag) }
}

/** Until the run's own backends (application_name pgload) are gone, or a few seconds. */
async function runBackendsGone (conn) {
  const until = Date.now() + EXIT_WAIT_MS
  while (Date.now() < until) {
    const r = await conn.simpleQuery("select count(*) from pg_stat_activity where application_name = 'pgload' and pid <> pg_backend_pid()")
    if (Number(r.rows[0][0]) === 0) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export class TargetStats {
  /**
   * @param {{ name: string, target: any }[]} targets
   * @param {{ log?: any }} [opts]
   */
  constructor (targets, { log } = {}) {
    this.targets = targets
    this.log = log
    /** @type {({ conn: any, before: TargetReading, last: TargetReading, series: object[] }|{ error: string })[]} */
    this.open = []
    this.reading = null // the readings under way, if any
  }

  /**
   * Read every server now: `rebase` makes it the start of the deltas (the measured window opens),
   * else it is an entry of their series at `t` seconds: commits since the last, replay lag.
   * @param {number} t @param {boolean} [rebase]
   */
  sample (t, rebase = false) {
    if (this.reading) {
      if (rebase) this.reading.then(() => this.sample(t, true))
      return
    }
    this.reading = Promise.all(this.open.map(async (o) => {
      if (!o || 'error' in o) return
      const r = await read(o.conn)
      if (rebase) { o.before = r; o.series.length = 0 } else o.series.push({ t, commits: r.counters.xact_commit - o.last.counters.xact_commit, replayLagMs: r.replayLagMs })
      o.last = r
    })).catch((err) => this.log?.warn({ err: err.message }, 'a routed server could not be read')).finally(() => { this.reading = null })
  }

  /** Read each server's counters before the run; a server that cannot be read is said so in the results. */
  async start () {
    this.open = await Promise.all(this.targets.map(async ({ target }) => {
      let conn = null
      try {
        conn = await openConnection(target, { protocol: 'simple', applicationName: APPLICATION })
        const before = await read(conn)
        return { conn, before, last: before, series: [] }
      } catch (err) {
        if (conn) await closeWithin(conn, CLOSE_MS)
        return { error: err.message.split('\n')[0] }
      }
    }))
  }

  /**
   * After the run: each server's deltas, by target name; closes the connections.
   * @returns {Promise<Record<string, object>>}
   */
  async finish () {
    await this.reading
    const out = {}
    await Promise.all(this.targets.map(async ({ name }, i) => {
      const o = this.open[i]
      if (!o || 'error' in o) { out[name] = { error: o?.error ?? 'not read' }; return }
      try {
        await runBackendsGone(o.conn)
        const after = await read(o.conn)
        const deltas = {}
        for (const c of COUNTERS) deltas[c] = after.counters[c] - o.before.counters[c]
        const lags = o.series.map((e) => e.replayLagMs).filter((v) => v !== null)
        out[name] = { standby: after.standby, ...deltas, replayLagMs: after.replayLagMs, maxReplayLagMs: lags.length ? Math.max(...lags) : null, series: o.series }
      } catch (err) {
        out[name] = { error: err.message.split('\n')[0] }
      }
    }))
    this.abandon()
    return out
  }

  /** Close what is open, without waiting. */
  abandon () {
    for (const o of this.open) if (o && 'conn' in o) closeWithin(o.conn, CLOSE_MS)
    this.open = []
  }
}
