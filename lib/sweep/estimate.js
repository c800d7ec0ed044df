// How long the rest of a sweep will take, from how long its runs took so far: a cell's own
// earlier runs where it has some (a larger scale runs its checkpoint and warm-up slower), else
// the sweep's runs, else the planned warm-up and duration.

// s a run takes beyond its warm-up and duration before any has been timed: connecting,
// the CHECKPOINT before it, the end-of-run readings
const OVERHEAD_GUESS_S = 2

/**
 * Seconds the runs left will take, or null when nothing tells (runs by transaction count
 * before the first has ended).
 * @param {{ cell: object, status: string, wallS?: number|null }[]} runs every run of the sweep
 * @param {{ cell: object }[]} left the runs still to run (the current one included)
 * @param {number|null} plannedS warm-up plus duration of one run, null for runs by count
 * @param {(cell: object) => string} keyOf a cell's key
 * @returns {number|null}
 */
export function timeLeftS (runs, left, plannedS, keyOf) {
  const timed = runs.filter((r) => r.status === 'done' && typeof r.wallS === 'number')
  const byCell = new Map()
  for (const r of timed) {
    const k = keyOf(r.cell)
    byCell.set(k, [...(byCell.get(k) ?? []), r.wallS])
  }
  const overall = timed.length ? mean(timed.map((r) => r.wallS)) : plannedS === null ? null : plannedS + OVERHEAD_GUESS_S
  if (overall === null) return null
  let total = 0
  for (const r of left) {
    const own = byCell.get(keyOf(r.cell))
    total += own ? mean(own) : overall
  }
  return total
}

/**
 * A duration as a person reads it: `45s`, `12m30s`, `2h05m`.
 * @param {number} s
 * @returns {string}
 */
export function formatDuration (s) {
  const total = Math.max(0, Math.round(s))
  if (total < 60) return `${total}s`
  if (total < 3600) return `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s`
  const m = Math.round(total / 60)
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

function mean (xs) {
  return xs.reduce((a, b) => a + b, 0) / xs.length
}
