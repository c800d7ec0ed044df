// The shards' start barrier, through the target database itself (no other service): every shard
// LISTENs on the run's channel and announces itself there; the coordinator (shard 0), once all
// have arrived, announces a start time on the server's clock a little ahead, and each shard
// starts when its own clock, corrected by its measured offset, reaches it.

import { createHash } from 'node:crypto'
import { PgloadError } from '../errors.js'
import { shardName } from '../plan/shard.js'
import { measureClockOffset, localNowMs, waitUntil } from './clock.js'
import { round3 } from '../format/round.js'

// ms between a shard's announcements: one made before another shard listened is heard again
const ANNOUNCE_MS = 500
// ms the start lies ahead of the coordinator's reading of the server clock, at least; more with
// slow round trips, so that the start reaches every shard before it is due
const MIN_LEAD_MS = 300
const LEAD_RTTS = 4
// ms a shard waits past the timeout for the coordinator's word on who is missing
const ABORT_WAIT_MS = 2000

/**
 * The LISTEN/NOTIFY channel of a run: a plain identifier whatever the run id.
 * @param {string} runId
 */
export function barrierChannel (runId) {
  return `pgload_shard_${createHash('sha256').update(runId).digest('hex').slice(0, 16)}`
}

/**
 * What pg_stat_activity shows for a shard's barrier connection (at most 63 bytes are kept: the
 * shard first, so only the run id is cut).
 * @param {{ index: number, count: number, runId: string }} shard
 */
export function barrierApplicationName (shard) {
  return `pgload-shard ${shard.index}/${shard.count} ${shard.runId}`.slice(0, 63)
}

/**
 * @typedef {object} ShardStart
 * @property {number} clockOffsetMs the server's clock minus this machine's
 * @property {number} clockRttMs the round trip the offset was measured on
 * @property {string} scheduledStart the common start, on the server's clock (ISO 8601)
 * @property {number} scheduledStartMs the same in ms since the epoch, unrounded
 * @property {number} startedLateMs how much later than that this shard started (server clock)
 * @property {number} waitedMs how long this shard waited for the others
 */

export class ShardBarrier {
  /**
   * @param {{ openConnection: (opts: { applicationName: string }) => Promise<any>,
   *   shard: import('../plan/shard.js').ShardPlan, fingerprint: string, log?: any, nowMs?: () => number }} opts
   *   fingerprint: what the shard runs; shards of one run id that run different commands are refused
   */
  constructor ({ openConnection, shard, fingerprint, log, nowMs = localNowMs }) {
    this.open = openConnection
    this.shard = shard
    this.fingerprint = fingerprint
    this.log = log
    this.nowMs = nowMs
    this.channel = barrierChannel(shard.runId)
    this.conn = null
    /** @type {Map<number, { pid: number, rttMs: number }>} shard index -> its barrier backend */
    this.arrived = new Map()
  }

  /** Connect, listen, and measure the clock offset: before the shard is ready to start. */
  async connect () {
    this.conn = await this.open({ applicationName: barrierApplicationName(this.shard) })
    await this.conn.query(`LISTEN ${this.channel}`)
    this.clock = await measureClockOffset(this.conn, { nowMs: this.nowMs })
    return this.clock
  }

  /**
   * Announce this shard, wait for the others and for the start, and return at the start.
   * @param {{ stopped?: () => boolean }} [opts] stopped: Ctrl-C before the start ends the wait
   * @returns {Promise<ShardStart|null>} null when stopped before the start
   */
  async meet ({ stopped = () => false } = {}) {
    const arrivedAtMs = this.nowMs()
    const startAtServerMs = await this._waitForStart(stopped)
    if (startAtServerMs === null) return null
    const lateMs = await waitUntil(startAtServerMs - this.clock.offsetMs, { nowMs: this.nowMs })
    return {
      clockOffsetMs: this.clock.offsetMs,
      clockRttMs: this.clock.rttMs,
      scheduledStart: new Date(Math.round(startAtServerMs)).toISOString(),
      scheduledStartMs: startAtServerMs,
      startedLateMs: round3(lateMs),
      waitedMs: Math.round(this.nowMs() - arrivedAtMs)
    }
  }

  /** Close the barrier's connection. */
  async close () {
    await this.conn?.close().catch(() => {})
    this.conn = null
  }

  /** The start time on the server's clock, once the coordinator sent it (null when stopped); rejects on timeout. */
  _waitForStart (stopped) {
    const client = this.conn.client
    const { index, count, timeoutS } = this.shard
    return new Promise((resolve, reject) => {
      let announcer = null
      let closing = false // settled, or telling the others why not
      const timers = []
      const finish = (err, value) => {
        closing = true
        clearInterval(announcer)
        for (const t of timers) clearTimeout(t)
        client.off('notification', onNotification)
        if (err) reject(err)
        else resolve(value)
      }
      const fail = (message, code = 'SHARD_BARRIER') => finish(new PgloadError(message, { code }))
      const onNotification = (msg) => {
        if (msg.channel !== this.channel || closing) return
        const m = parseMessage(msg.payload)
        if (m?.t === 'here') {
          const problem = this._arrival(m, msg.processId)
          // the others are told before this shard's connection closes
          if (problem) {
            closing = true
            return this._notify({ t: 'abort', why: problem }).catch(() => {}).finally(() => fail(problem))
          }
          if (index === 0 && this.arrived.size === count && !this.startSent) this._sendStart().catch((err) => fail(`cannot send the start: ${err.message}`))
        } else if (m?.t === 'start' && Number.isFinite(m.at)) {
          finish(null, m.at)
        } else if (m?.t === 'abort' && typeof m.why === 'string') {
          fail(m.why)
        }
      }
      client.on('notification', onNotification)
      const announce = () => {
        if (stopped()) {
          // Ctrl-C or SIGTERM: the run ends here, with nothing measured; the others are told
          closing = true
          return this._notify({ t: 'abort', why: `${shardName(this.shard)} of run id ${this.shard.runId} was interrupted before the start` }).catch(() => {}).finally(() => finish(null, null))
        }
        this._notify({ t: 'here', k: index, fp: this.fingerprint, rtt: this.clock.rttMs }).catch((err) => fail(`lost the database connection at the shard barrier: ${err.message}`))
      }
      announce()
      announcer = setInterval(announce, ANNOUNCE_MS)
      const timeoutMs = timeoutS * 1000
      timers.push(setTimeout(() => {
        const why = this._missingMessage()
        if (index === 0) {
          closing = true
          this._notify({ t: 'abort', why }).catch(() => {}).finally(() => fail(why))
        } else {
          // the others wait a little for the coordinator's word, which names who it missed
          timers.push(setTimeout(() => fail(this._missingMessage()), ABORT_WAIT_MS))
        }
      }, timeoutMs))
    })
  }

  /** Record a shard's announcement; a reason to refuse the run, or null. */
  _arrival (m, pid) {
    const { count, runId } = this.shard
    if (!Number.isInteger(m.k) || m.k < 0 || m.k >= count) return `a shard outside 0..${count - 1} (${m.k}) announced itself for run id ${runId}: are two sharded runs using one --run-id?`
    if (m.fp !== this.fingerprint) return `${shardName({ index: m.k, count })} runs another command than ${shardName(this.shard)} under the same run id ${runId}: give each run its own --run-id`
    const seen = this.arrived.get(m.k)
    if (seen && seen.pid !== pid) return `${shardName({ index: m.k, count })} of run id ${runId} was started twice (server backends ${seen.pid} and ${pid})`
    if (!seen) this.log?.debug({ shard: m.k, pid }, 'shard arrived')
    this.arrived.set(m.k, { pid, rttMs: Number(m.rtt) || 0 })
    return null
  }

  /** Coordinator: all have arrived; the start, ahead of the server's clock by a few round trips. */
  async _sendStart () {
    this.startSent = true
    const slowest = Math.max(...[...this.arrived.values()].map((a) => a.rttMs))
    const r = await this.conn.query('SELECT extract(epoch FROM clock_timestamp())::float8 * 1000')
    const at = Number(r.rows[0][0]) + Math.max(MIN_LEAD_MS, LEAD_RTTS * slowest)
    await this._notify({ t: 'start', at })
  }

  _notify (message) {
    return this.conn.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(message)])
  }

  /** The one line every shard prints when the shards did not all arrive in time. */
  _missingMessage () {
    const { count, runId, timeoutS } = this.shard
    const missing = []
    for (let k = 0; k < count; k++) if (!this.arrived.has(k)) missing.push(`${k}/${count}`)
    const who = missing.length === 0
      ? 'the coordinator (shard 0) sent no start'
      : `${missing.length === 1 ? 'shard' : 'shards'} ${missing.join(', ')} did not arrive`
    return `shard barrier of run id ${runId}: ${who} within ${timeoutS} s (--shard-timeout)`
  }
}

function parseMessage (payload) {
  try {
    const m = JSON.parse(payload)
    return m !== null && typeof m === 'object' ? m : null
  } catch {
    return null
  }
}
