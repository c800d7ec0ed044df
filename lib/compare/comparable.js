// Are these runs comparable? What differs between them: run set-up (refused unless --force),
// other options and versions (shown), and server settings from the settings snapshot (shown).

const DURATION_TOLERANCE = 0.05 // relative difference of measured durations still "the same"
const DURATION_SLACK_S = 1 // plus this many seconds (start/stop granularity)

/** Facts that must match for a comparison to mean anything. */
const REQUIRED = [
  ['workload', (d) => d.run.workload],
  ['scale', (d) => d.run.scale ?? d.tpcc?.warehouses],
  ['clients', (d) => d.run.clients ?? d.run.options?.clients],
  ['transaction types', (d) => d.run.transactionTypes ? [...d.run.transactionTypes].sort().join(',') : Object.keys(d.transactions ?? {}).sort().join(',')]
]

/** The required facts that decide whether runs can share an axis at all (report draws the rest apart). */
const SAME_AXIS = REQUIRED.filter(([name]) => name === 'workload' || name === 'transaction types')

/**
 * Runs grouped by workload and transaction types, in first-seen order, and a one-line note
 * naming what differs when there is more than one group (null otherwise).
 * @param {object[]} docs
 * @returns {{ groups: { key: string, workload: string, indexes: number[] }[], note: string|null }}
 */
export function sameAxisGroups (docs) {
  const byKey = new Map()
  docs.forEach((d, i) => {
    const key = SAME_AXIS.map(([, get]) => show(get(d))).join('\u0000')
    if (!byKey.has(key)) byKey.set(key, { key, workload: show(d.run.workload), indexes: [] })
    byKey.get(key).indexes.push(i)
  })
  const groups = [...byKey.values()]
  if (groups.length < 2) return { groups, note: null }
  // Different workloads have different transaction types anyway: name the first fact that differs.
  const [name, get] = SAME_AXIS.find(([, g]) => distinct(docs, g).length > 1)
  return { groups, note: `runs are not comparable: ${name} ${distinct(docs, get).join(' vs ')}` }
}

/** Facts that are shown when they differ but do not block the comparison. */
const INFORMATIVE = [
  ['connections', (d) => d.run.connections],
  ['protocol', (d) => d.run.protocol],
  ['rate', (d) => d.run.rate ?? d.run.options?.rate],
  ['paced', (d) => d.run.paced],
  ['warmup s', (d) => d.run.warmupS],
  ['server version', (d) => d.server?.version],
  // the embedded server takes a free port at each start: its address is no difference in what was tested
  ['server target', (d) => d.server?.embedded ? 'the embedded server' : d.server?.target],
  ['pgload version', (d) => d.tool?.version],
  ['host cpus', (d) => d.host?.cpus],
  // the first run after a load of its tables measures the load's aftermath as well
  ['followed a load of its tables', (d) => Boolean(d.run.afterLoad)],
  // a cold start measures the ramp-up after a restart
  ['cold start', (d) => Boolean(d.run.cold?.restarted)],
  ['OS page cache dropped', (d) => Boolean(d.run.cold?.pageCacheDropped)],
  ['interrupted', (d) => d.run.interrupted],
  ['aborted', (d) => d.run.aborted]
]

const show = (v) => v === undefined || v === null ? '-' : String(v)

function distinct (docs, get) {
  return [...new Set(docs.map(d => show(get(d))))]
}

/** What scenario runs compare scenario by scenario (lib/compare/scenarios.js), not over their totals. */
const PER_SCENARIO = new Set(['scale', 'clients', 'transaction types'])

/**
 * Differences between the runs of both sides.
 * @param {object[]} as
 * @param {object[]} bs
 * @param {{ scenarios?: boolean }} [opts] scenarios: the runs are scenario runs, whose load and
 *   types are compared per scenario
 * @returns {{ blocking: { name: string, a: string[], b: string[] }[], informative: { name: string, a: string[], b: string[] }[] }}
 */
export function runDifferences (as, bs, { scenarios = false } = {}) {
  const all = [...as, ...bs]
  const diff = (list) => list
    .filter(([, get]) => distinct(all, get).length > 1)
    .map(([name, get]) => ({ name, a: distinct(as, get), b: distinct(bs, get) }))
  const blocking = diff(scenarios ? REQUIRED.filter(([name]) => !PER_SCENARIO.has(name)) : REQUIRED)
  // The requested length (--duration or --transactions) when every run records it, else the
  // measured duration within a tolerance.
  const requested = (d) => d.run.options?.durationS ?? (d.run.options?.transactionsPerClient === undefined ? undefined : `${d.run.options.transactionsPerClient} per client`)
  const durations = all.map(d => d.run.durationS).filter(v => typeof v === 'number')
  if (all.every(d => requested(d) !== undefined)) {
    if (distinct(all, requested).length > 1) blocking.push({ name: 'requested length', a: distinct(as, requested), b: distinct(bs, requested) })
  } else if (durations.length === all.length) {
    const lo = Math.min(...durations)
    const hi = Math.max(...durations)
    if (hi - lo > DURATION_SLACK_S + DURATION_TOLERANCE * lo) {
      blocking.push({ name: 'duration s', a: distinct(as, d => d.run.durationS), b: distinct(bs, d => d.run.durationS) })
    }
  }
  return { blocking, informative: diff(INFORMATIVE) }
}

/** Where a server listens and keeps its files: not a tuning, and new with every embedded server start. */
const ADDRESS_SETTINGS = new Set(['port', 'listen_addresses', 'unix_socket_directories', 'data_directory', 'config_file', 'hba_file', 'ident_file', 'external_pid_file', 'cluster_name'])

/**
 * Server settings as name -> "value unit" from a results document's settings snapshot (the
 * server's address and file locations left out), which
 * may map names to values or to pg_settings rows, or be an array of rows.
 * @param {object} doc
 * @returns {Map<string, string>}
 */
export function settingsOf (doc) {
  const raw = doc.serverStats?.settings
  const out = new Map()
  if (!raw || typeof raw !== 'object') return out
  const put = (name, v) => {
    if (v === null || v === undefined || ADDRESS_SETTINGS.has(name)) return
    if (typeof v === 'object') {
      const val = v.setting ?? v.value
      if (val === undefined) return
      out.set(name, v.unit ? `${val} ${v.unit}` : String(val))
    } else {
      out.set(name, String(v))
    }
  }
  if (Array.isArray(raw)) for (const row of raw) { if (row?.name) put(row.name, row) } else for (const [k, v] of Object.entries(raw)) put(k, v)
  return out
}

/**
 * Server settings whose value differs between the runs (a missing setting shows as "default").
 * @param {object[]} as
 * @param {object[]} bs
 * @returns {{ name: string, a: string[], b: string[] }[]}
 */
export function settingsDifferences (as, bs) {
  const sa = as.map(settingsOf)
  const sb = bs.map(settingsOf)
  if ([...sa, ...sb].every(m => m.size === 0)) return []
  const names = new Set([...sa, ...sb].flatMap(m => [...m.keys()]))
  const out = []
  for (const name of [...names].sort()) {
    const va = [...new Set(sa.map(m => m.get(name) ?? 'default'))]
    const vb = [...new Set(sb.map(m => m.get(name) ?? 'default'))]
    if (new Set([...va, ...vb]).size > 1) out.push({ name, a: va, b: vb })
  }
  return out
}
