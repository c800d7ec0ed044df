// The `waits` section of partitions of one run (shards; worker threads share one sampler), merged:
// their counts added up and the figures derived again from them with the merged transactions,
// whose p99 splits the slowest transactions' samples from the others.

import { round3 } from '../format/round.js'
import { addWaitCounts, waitTypeFigures } from './waits-figures.js'
import { mergeWaitSeries } from './merge-wait-series.js'

const SAMPLE_KINDS = ['total', 'inTransaction', 'idle', 'outside', 'moved', 'hidden', 'gone']

/**
 * @param {any[]} sections `waits` of each partition (undefined where it has none)
 * @param {Record<string, any>} transactions the merged results.transactions
 * @param {{ shifts: number[], stepS: number }} [grid] the interval series' grid (merge-series.js)
 * @returns {any} the merged section, or undefined when no partition has one
 */
export function mergeWaits (sections, transactions, grid) {
  const given = sections.filter((w) => w !== undefined && w !== null)
  if (given.length === 0) return undefined
  if (sections.length === 1) return given[0]
  if (given.length < sections.length || !given.every((w) => w.available && w.types && Object.values(w.types).every((t) => t.counts))) {
    const reason = given.find((w) => !w.available)?.reason
    return { available: false, reason: `not every partition has its wait samples${reason ? ` (${reason})` : ''}` }
  }
  const ticks = { done: 0, skipped: 0, failed: 0 }
  for (const w of given) for (const k of Object.keys(ticks)) ticks[k] += w.ticks?.[k] ?? 0
  const samples = Object.fromEntries(SAMPLE_KINDS.map((k) => [k, given.reduce((n, w) => n + (w.samples?.[k] ?? 0), 0)]))
  const types = {}
  for (const name of new Set(given.flatMap((w) => Object.keys(w.types)))) {
    const parts = given.map((w) => w.types[name]).filter(Boolean)
    const names = {}
    for (const t of parts) for (const s of t.statements ?? []) if (s.index >= 0) names[s.index] ??= s.name ?? null
    types[name] = waitTypeFigures(addWaitCounts(parts.map((t) => t.counts)), transactions[name], names)
  }
  const readMs = given.reduce((ms, w) => ms + (w.intervalMs ?? 0) * (w.ticks?.done ?? 0), 0)
  return {
    available: true,
    source: given[0].source,
    pgWaitSampling: given.some((w) => w.pgWaitSampling),
    hz: given.every((w) => w.hz === given[0].hz) ? given[0].hz : Math.max(...given.map((w) => w.hz)),
    intervalMs: ticks.done > 0 ? round3(readMs / ticks.done) : 0,
    ticks,
    samples,
    types,
    ...(sections.every((w) => Array.isArray(w.series))
      ? { series: mergeWaitSeries(sections.map((w) => w.series), grid?.shifts ?? [], grid?.stepS ?? 1) }
      : {})
  }
}
