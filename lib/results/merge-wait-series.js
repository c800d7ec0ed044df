// The wait classes over time (`waits.series`) of partitions of one run, merged on the grid of the
// interval series (merge-series.js): entries on one slot are added. Each shard's sampler reads its
// own backends only, so the run's average active sessions are the sum of the partitions'.

import { round3 } from '../format/round.js'
import { addCountMaps, isNum } from './merge-fields.js'
import { orderWaitClasses } from './wait-classes.js'

/**
 * @param {any[][]} series each partition's `waits.series`
 * @param {number[]} shifts each partition's shift on the grid, in intervals (gridShifts)
 * @param {number} stepS the common interval length
 * @returns {import('./wait-classes.js').WaitInterval[]}
 */
export function mergeWaitSeries (series, shifts, stepS) {
  /** @type {Map<number, any[]>} */
  const slots = new Map()
  series.forEach((list, p) => {
    for (const e of list ?? []) {
      const lengthS = isNum(e.lengthS) && e.lengthS > 0 ? e.lengthS : stepS
      const slot = (shifts[p] ?? 0) + Math.max(0, Math.round((e.t - lengthS) / stepS))
      if (!slots.has(slot)) slots.set(slot, [])
      slots.get(slot).push(e)
    }
  })
  return [...slots.keys()].sort((a, b) => a - b).map((slot) => {
    const list = slots.get(slot)
    const lengthS = round3(Math.max(...list.map((e) => isNum(e.lengthS) && e.lengthS > 0 ? e.lengthS : stepS)))
    const samples = addCountMaps(list.map((e) => e.samples))
    const sessions = addCountMaps(list.map((e) => e.sessions))
    const events = addCountMaps(list.map((e) => e.events))
    const ordered = orderWaitClasses(Object.keys(samples))
    return {
      t: round3(slot * stepS + lengthS),
      lengthS,
      ticks: list.reduce((n, e) => n + (e.ticks ?? 0), 0),
      samples: Object.fromEntries(ordered.map((c) => [c, samples[c]])),
      sessions: Object.fromEntries(ordered.map((c) => [c, round3(sessions[c] ?? 0)])),
      events: Object.fromEntries(Object.entries(events).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)))
    }
  })
}
