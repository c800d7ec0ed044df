// Progress of a long step (data loading): a bar redrawn in place with rows/s, MB/s and ETA on a
// TTY; a plain pgbench-like line every few seconds otherwise (logs, CI).

import { MB } from '../format/bytes.js'

const DEFAULTS = {
  redrawMs: 100, // TTY: at most one redraw per 100 ms
  plainIntervalMs: 5000, // not a TTY: one line per 5 s
  columns: 80 // TTY width when the stream does not say
}

/**
 * @typedef {{ start(label: string, total: number, unit?: string): void,
 *   update(done: number, bytes?: number): void, end(): void }} Progress
 */

/**
 * A progress reporter on a stream.
 * @param {{ stream?: { write(s: string): any, isTTY?: boolean, columns?: number }, isTTY?: boolean,
 *   now?: () => number, plainIntervalMs?: number, redrawMs?: number }} [opts]
 *   now: monotonic milliseconds (injectable for tests)
 * @returns {Progress}
 */
export function createProgress ({
  stream = process.stderr,
  isTTY = stream.isTTY === true,
  now = () => performance.now(),
  plainIntervalMs = DEFAULTS.plainIntervalMs,
  redrawMs = DEFAULTS.redrawMs
} = {}) {
  let label = ''
  let total = 0
  let unit = 'rows'
  let done = 0
  let bytes
  let startMs = 0
  let lastDrawMs = 0
  let active = false

  function draw (final) {
    const t = now()
    const elapsedS = Math.max((t - startMs) / 1000, 1e-9)
    const rate = done / elapsedS
    const pct = total > 0 ? Math.min(100, (100 * done) / total) : 0
    const remainingS = rate > 0 && total > done ? (total - done) / rate : 0
    const mbs = bytes === undefined ? '' : `, ${(bytes / MB / elapsedS).toFixed(1)} MB/s`
    if (isTTY) {
      const stats = ` ${pct.toFixed(0).padStart(3)}% ${done}/${total} ${total === 1 ? singular(unit) : unit}, ${formatRate(rate)} ${unit}/s${mbs}` +
        (final ? `, ${elapsedS.toFixed(1)} s` : `, ETA ${formatSeconds(remainingS)}`)
      const columns = stream.columns ?? DEFAULTS.columns
      const barWidth = Math.max(10, Math.min(40, columns - label.length - stats.length - 4))
      const filled = Math.round((barWidth * pct) / 100)
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]${stats}\x1b[K${final ? '\n' : ''}`)
    } else if (final) {
      stream.write(`${label}: ${done} ${done === 1 ? singular(unit) : unit} done in ${elapsedS.toFixed(2)} s (${formatRate(rate)} ${unit}/s${mbs})\n`)
    } else {
      stream.write(`${label}: ${done} of ${total} ${total === 1 ? singular(unit) : unit} (${pct.toFixed(0)}%) done (elapsed ${elapsedS.toFixed(2)} s, remaining ${remainingS.toFixed(2)} s, ${formatRate(rate)} ${unit}/s${mbs})\n`)
    }
    lastDrawMs = t
  }

  return {
    start (newLabel, newTotal, newUnit = 'rows') {
      if (active) this.end()
      label = newLabel
      total = newTotal
      unit = newUnit
      done = 0
      bytes = undefined
      startMs = now()
      lastDrawMs = startMs
      active = true
      if (isTTY) draw(false)
    },
    update (newDone, newBytes) {
      if (!active) return
      done = newDone
      if (newBytes !== undefined) bytes = newBytes
      const since = now() - lastDrawMs
      if (since >= (isTTY ? redrawMs : plainIntervalMs)) draw(false)
    },
    end () {
      if (!active) return
      active = false
      draw(true)
    }
  }
}

// a unit is given in the plural ("rows"): one is "1 row"
const singular = (unit) => unit.endsWith('s') ? unit.slice(0, -1) : unit

function formatRate (r) {
  if (r >= 1e6) return (r / 1e6).toFixed(2) + 'M'
  if (r >= 1e4) return (r / 1e3).toFixed(0) + 'k'
  return r.toFixed(0)
}

function formatSeconds (s) {
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
  if (s >= 60) return `${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}s`
  return `${s.toFixed(0)}s`
}
