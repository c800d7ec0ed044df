// compare, scenario by scenario: two sides of scenario runs (run --scenarios) compare each
// scenario they share as a run of its own (its summary, types and intervals), with a verdict per
// transaction type; a scenario only one side ran is said in one line. A scenario run against a
// plain run is refused in one line (--force compares their totals).

import { scenarioDocument } from './thresholds/window-view.js'

const LATENCY_STATS = ['p50', 'p95', 'p99', 'max']

const isScenarioRun = (d) => d.scenarios !== null && typeof d.scenarios === 'object' && d.scenarios !== undefined

/**
 * Which scenarios the runs of both sides share, and the lines to say about the rest.
 * @param {object[]} as @param {object[]} bs
 * @returns {{ names: string[], notes: string[], mixed: string|null }} mixed: why scenario runs and
 *   plain runs are not compared, null when every run is of one kind
 */
export function scenarioPlan (as, bs) {
  const all = [...as, ...bs]
  const kinds = all.filter(isScenarioRun).length
  if (kinds === 0) return { names: [], notes: [], mixed: null }
  if (kinds < all.length) {
    const which = (docs) => docs.every(isScenarioRun) ? 'scenario runs' : docs.some(isScenarioRun) ? 'scenario and plain runs' : 'plain runs'
    return { names: [], notes: [], mixed: `A has ${which(as)} and B ${which(bs)}: a scenario run (--scenarios) compares only with another, scenario by scenario` }
  }
  const namesOf = (docs) => docs.map((d) => Object.keys(d.scenarios))
  const inEvery = (lists, name) => lists.every((l) => l.includes(name))
  const la = namesOf(as)
  const lb = namesOf(bs)
  const seen = [...new Set([...la, ...lb].flat())]
  const names = seen.filter((n) => inEvery(la, n) && inEvery(lb, n))
  const notes = seen.filter((n) => !names.includes(n)).map((n) => {
    const where = inEvery(la, n) ? 'only in A' : inEvery(lb, n) ? 'only in B' : 'not in every run'
    return `scenario ${n} ${where}: not compared`
  })
  return { names, notes, mixed: null }
}

/** What must match for one scenario's figures to be compared: its load, its types. */
const SCENARIO_REQUIRED = [
  ['workload', (s) => s.workload],
  ['clients', (s) => s.clients],
  ['rate', (s) => s.options?.rate],
  ['start s', (s) => s.startS],
  ['transaction types', (s) => Object.keys(s.transactions ?? {}).sort().join(',')]
]

const show = (v) => v === undefined || v === null ? '-' : String(v)

/**
 * The differences between the sides' runs of one scenario that make its comparison meaningless
 * (refused unless --force), named `scenario NAME: fact`.
 * @param {object[]} as @param {object[]} bs @param {string} name
 * @returns {{ name: string, a: string[], b: string[] }[]}
 */
export function scenarioDifferences (as, bs, name) {
  const distinct = (docs, get) => [...new Set(docs.map((d) => show(get(d.scenarios[name]))))]
  return SCENARIO_REQUIRED
    .filter(([, get]) => distinct([...as, ...bs], get).length > 1)
    .map(([fact, get]) => ({ name: `scenario ${name}: ${fact}`, a: distinct(as, get), b: distinct(bs, get) }))
}

/**
 * The metrics compared for a scenario: its throughput, its latency over all its types when it
 * has several, and each type's latency.
 * @param {string} name @param {string[]} types the scenario's types
 */
export function scenarioMetrics (name, types) {
  const tag = `scenario(${name})`
  const latency = (txn) => LATENCY_STATS.map((stat) => ({
    id: `${tag}:${txn ?? 'all'}:${stat}`,
    metric: stat,
    txn,
    scenario: name,
    unit: 'ms',
    better: 'lower',
    get: txn === null ? (d) => d.summary.latencyMs?.[stat] : (d) => d.transactions[txn]?.latencyMs?.[stat]
  }))
  return [
    { id: `${tag}:tps`, metric: 'tps', txn: null, scenario: name, unit: 'tps', better: 'higher', get: (d) => d.summary.tps },
    ...(types.length > 1 ? latency(null) : []),
    ...types.flatMap(latency)
  ]
}

/**
 * Each run's scenario as a run of its own.
 * @param {object[]} docs @param {string} name
 */
export function scenarioViews (docs, name) {
  return docs.map((d) => scenarioDocument(d, name))
}
