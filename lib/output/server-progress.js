// The server's side of a progress period, pgstat-like, from the stats sampler's readings of the
// same ticks: commits/s, rollbacks/s, WAL MB/s, blocks read/s, cache hit %, backends active and
// waiting (the top wait event types), and a checkpoint or autovacuum under way. A figure the
// server does not let pgload read is `-`.

import { MB } from '../format/bytes.js'

/** Wait event types named on the line, the most frequent first. */
const TOP_WAITS = 2

/**
 * Sums the sampler's rates over a period, weighted by each reading's span.
 */
export class ServerPeriod {
  constructor () {
    this.lastT = 0
    this.reset()
  }

  reset () {
    this.spanS = 0
    this.sums = { xactCommitPerS: 0, xactRollbackPerS: 0, walBytesPerS: 0, blksReadPerS: 0, blksHitPerS: 0 }
    this.unknown = new Set()
    this.last = null
  }

  /** @param {any} entry a series entry of lib/server/stats/sampler.js */
  add (entry) {
    const dt = entry.t - this.lastT
    this.lastT = entry.t
    if (!(dt > 0)) return
    this.spanS += dt
    for (const key of Object.keys(this.sums)) {
      const v = entry[key]
      if (typeof v === 'number' && Number.isFinite(v)) this.sums[key] += v * dt
      else this.unknown.add(key)
    }
    this.last = entry
  }

  /** Mean rate over the period, or null when a reading lacked it. */
  rate (key) {
    return this.unknown.has(key) || this.spanS <= 0 ? null : this.sums[key] / this.spanS
  }
}

/**
 * The line, e.g. `server: 1520.3 commits/s, 0.0 rollbacks/s, WAL 1.84 MB/s, 0 blocks read/s,
 * cache hit 100.0 %, backends 8 active, 2 waiting (Lock 1, LWLock 1), 4 idle in transaction, checkpoint`.
 * @param {ServerPeriod} p
 * @param {{ checkpoint?: boolean }} [state]
 * @returns {{ line: string, unknown: boolean }} unknown: some figure is `-`
 */
export function formatServerProgress (p, { checkpoint = false } = {}) {
  let unknown = false
  const fig = (v, digits) => {
    if (v === null) { unknown = true; return '-' }
    return v.toFixed(digits)
  }
  const read = p.rate('blksReadPerS')
  const hit = p.rate('blksHitPerS')
  const hitPct = read === null || hit === null ? null : read + hit > 0 ? 100 * hit / (read + hit) : null
  const parts = [
    `${fig(p.rate('xactCommitPerS'), 1)} commits/s`,
    `${fig(p.rate('xactRollbackPerS'), 1)} rollbacks/s`,
    `WAL ${fig(p.rate('walBytesPerS') === null ? null : p.rate('walBytesPerS') / MB, 2)} MB/s`,
    `${fig(read, 0)} blocks read/s`,
    // no block touched at all: nothing to rate, not a failure to read
    `cache hit ${hitPct === null && read !== null && hit !== null ? 'n/a' : fig(hitPct, 1) + ' %'}`,
    backendsText(p.last, () => { unknown = true })
  ]
  if (checkpoint) parts.push('checkpoint')
  const av = p.last?.autovacuumWorkers
  if (typeof av === 'number' && av > 0) parts.push(`autovacuum ${av}`)
  return { line: `server: ${parts.join(', ')}`, unknown }
}

function backendsText (entry, markUnknown) {
  const b = entry?.backends
  if (!b || typeof b !== 'object') { markUnknown(); return 'backends -' }
  const waits = Object.entries(entry.waitEvents ?? {}).filter(([type, n]) => type !== 'CPU' && n > 0).sort((x, y) => y[1] - x[1])
  const waiting = waits.reduce((s, [, n]) => s + n, 0)
  const top = waits.slice(0, TOP_WAITS).map(([type, n]) => `${type} ${n}`).join(', ')
  // waiting for pgload, not for the server: said apart
  const idleInTransaction = (b['idle in transaction'] ?? 0) + (b['idle in transaction (aborted)'] ?? 0)
  return `backends ${b.active ?? 0} active, ${waiting} waiting${top ? ` (${top})` : ''}${idleInTransaction ? `, ${idleInTransaction} idle in transaction` : ''}`
}
