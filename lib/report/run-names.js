// Names of the runs in one report: the --label given at run time, else the workload and the
// options that differ between runs of that workload ("tpcb c=8", "tpcb c=16"), always unique.

import { settingsOf } from '../compare/comparable.js'

/** What can tell runs of one workload apart, in the order names list them. */
const FACTS = [
  ['c', (d) => d.run.clients ?? d.run.options?.clients],
  ['s', (d) => d.run.scale ?? d.tpcc?.warehouses],
  ['conn', (d) => (d.run.connections === d.run.clients ? null : d.run.connections)],
  ['rate', (d) => d.run.rate || d.run.options?.rate || null],
  ['think', (d) => d.run.options?.thinkTime],
  ['T', (d) => lengthOf(d)],
  ['warmup', (d) => d.run.warmupS || null],
  ['M', (d) => d.run.protocol],
  ['pg', (d) => d.server?.version]
]
/** At most this many differing facts in a name; more are cut with an ellipsis. */
const MAX_PARTS = 3

const show = (v) => (v === undefined || v === null || v === '' ? null : String(v))

/** The requested length: a duration in seconds or transactions per client. */
function lengthOf (d) {
  const o = d.run.options ?? {}
  if (typeof o.durationS === 'number') return `${o.durationS}s`
  if (typeof o.transactionsPerClient === 'number') return `${o.transactionsPerClient}/client`
  return null
}

/** The facts whose values are not all the same, as [name, value-of(doc)] pairs. */
function differing (docs) {
  const parts = FACTS.filter(([, get]) => new Set(docs.map((d) => show(get(d)))).size > 1)
  const settings = docs.map(settingsOf)
  const names = [...new Set(settings.flatMap((m) => [...m.keys()]))].sort()
  for (const name of names) {
    const get = (d) => settings[docs.indexOf(d)].get(name)?.replace(' ', '') ?? 'default'
    if (new Set(docs.map(get)).size > 1) parts.push([name, get])
  }
  return parts
}

/** Start time as HH:MM:SS (UTC), the last resort between otherwise identical runs. */
function clock (doc) {
  const m = /T(\d\d:\d\d:\d\d)/.exec(String(doc.run.startTime ?? ''))
  return m ? m[1] : null
}

/**
 * Names of runs of one workload: the workload and the facts that differ (a few at most); runs
 * that still share a name get their seed when the seeds differ, else their index and start time.
 * @param {any[]} docs
 * @param {number[]} indexes the runs' positions in the report (for the fallback)
 * @returns {string[]}
 */
function workloadNames (docs, indexes) {
  const parts = differing(docs)
  const names = docs.map((d) => {
    const shown = parts.slice(0, MAX_PARTS).map(([k, get]) => `${k}=${show(get(d)) ?? '-'}`)
    if (parts.length > MAX_PARTS) shown.push('…')
    return [d.run.workload, ...shown].join(' ')
  })
  return names.map((name, i) => {
    const same = names.flatMap((n, j) => (n === name ? [docs[j]] : []))
    if (same.length === 1) return name
    if (new Set(same.map((d) => show(d.run.seed))).size === same.length) return `${name} seed=${docs[i].run.seed}`
    return [name, `#${indexes[i] + 1}`, clock(docs[i])].filter(Boolean).join(' ')
  })
}

/**
 * Names for the runs of a report, in the order given: `run.label` when set, else a name made
 * from the workload and what differs among the runs of that workload. Duplicates get `#n`.
 * @param {any[]} docs results documents
 * @param {{ indexes: number[] }[]} groups runs that share an axis (lib/compare/comparable.js sameAxisGroups)
 * @returns {string[]}
 */
export function runNames (docs, groups) {
  const names = new Array(docs.length)
  for (const g of groups) {
    const auto = workloadNames(g.indexes.map((i) => docs[i]), g.indexes)
    g.indexes.forEach((i, k) => { names[i] = show(docs[i].run.label)?.trim() || auto[k] })
  }
  const seen = new Map()
  for (const n of names) seen.set(n, (seen.get(n) ?? 0) + 1)
  return names.map((n, i) => (seen.get(n) > 1 ? `${n} #${i + 1}` : n))
}
