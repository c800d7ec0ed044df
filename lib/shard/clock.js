// The offset between this machine's clock and the database server's, so that shards on several
// machines start at one instant of the server's clock and their intervals line up on it.

import { performance } from 'node:perf_hooks'
import { round3 } from '../format/round.js'

/** Round trips measured; the one with the smallest round-trip time gives the offset. */
export const CLOCK_ROUNDS = 8

/** This machine's clock in ms since the epoch, with the monotonic clock's resolution. */
export const localNowMs = () => performance.timeOrigin + performance.now()

/**
 * Measure the server's clock against ours: several round trips of `clock_timestamp()`, the
 * offset taken from the shortest one, assuming the server read its clock halfway through it
 * (the error is at most half that round trip).
 * @param {{ query: (text: string) => Promise<{ rows: any[][] }> }} conn
 * @param {{ rounds?: number, nowMs?: () => number }} [opts]
 * @returns {Promise<{ offsetMs: number, rttMs: number }>} offsetMs: server time minus local time
 */
export async function measureClockOffset (conn, { rounds = CLOCK_ROUNDS, nowMs = localNowMs } = {}) {
  let best = null
  for (let i = 0; i < rounds; i++) {
    const sentMs = nowMs()
    const r = await conn.query('SELECT extract(epoch FROM clock_timestamp())::float8 * 1000')
    const receivedMs = nowMs()
    const serverMs = Number(r.rows[0][0])
    const rttMs = receivedMs - sentMs
    if (best === null || rttMs < best.rttMs) best = { offsetMs: serverMs - (sentMs + receivedMs) / 2, rttMs }
  }
  return { offsetMs: round3(best.offsetMs), rttMs: round3(best.rttMs) }
}

/**
 * Wait until the local clock reaches `atMs` (ms since the epoch): a timer for most of the
 * wait, then a short spin, since timers fire up to a few ms late.
 * @param {number} atMs
 * @param {{ nowMs?: () => number }} [opts]
 * @returns {Promise<number>} how late the wait ended, in ms
 */
export async function waitUntil (atMs, { nowMs = localNowMs } = {}) {
  const SPIN_MS = 3
  const ahead = atMs - nowMs() - SPIN_MS
  if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead))
  while (nowMs() < atMs) { /* spin: a few ms at most, before the run starts */ }
  return nowMs() - atMs
}
