// The order of a sweep's runs. A server drifts over a sweep (tables and indexes grow, caches
// fill, autovacuum comes and goes): running each cell's repeats back to back would pin that
// drift on some cells. So every cell of a size runs once, in a shuffled order, then again in
// another shuffled order for each repeat. Sizes are loaded one after the other, ascending, and
// cannot be interleaved without loading again.

import { seededRandom } from '../compare/statistics/distribution-free.js'
import { cellSize } from './axes.js'

/**
 * @typedef {{ cell: import('./axes.js').Cell, repeat: number, order: number }} PlannedRun
 *   repeat: 1-based; order: the run's place in the sweep, 0-based
 */

/**
 * The runs of a sweep in the order they run. The same cells, repeat count and seed give the
 * same order.
 * @param {import('./axes.js').Cell[]} cells in ascending size (cellsOf's order)
 * @param {number} repeat runs per cell
 * @param {number} seed of the shuffles
 * @returns {PlannedRun[]}
 */
export function runOrder (cells, repeat, seed) {
  const random = seededRandom(seed)
  const out = []
  for (const group of bySize(cells)) {
    let last = null
    for (let r = 1; r <= repeat; r++) {
      const round = shuffled(group, random)
      // a cell never runs twice in a row across the seam between two rounds
      if (round.length > 1 && round[0] === last) {
        const j = 1 + Math.floor(random() * (round.length - 1))
        ;[round[0], round[j]] = [round[j], round[0]]
      }
      for (const cell of round) out.push({ cell, repeat: r, order: out.length })
      last = round[round.length - 1]
    }
  }
  return out
}

/** The cells grouped by size, in the order the sizes first appear. */
function bySize (cells) {
  const groups = new Map()
  for (const cell of cells) {
    const size = cellSize(cell)
    if (!groups.has(size)) groups.set(size, [])
    groups.get(size).push(cell)
  }
  return [...groups.values()]
}

/** A Fisher-Yates shuffle of a copy. */
function shuffled (items, random) {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}
