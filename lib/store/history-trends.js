// Which stored runs one trend line of `pgload history` joins: runs of one label, or, without a
// label, runs of one set-up (workload, size, clients, connections, threads, rate, protocol,
// scripts and workload options). A line through runs of different set-ups would read as a
// change of the server where only the test changed.

/**
 * The set-up a run's figures depend on, as a comparable text; the seed, the duration, the
 * warm-up and where the results went are left out (repeats of one test differ in those).
 * @param {{ workload: string, scale: number|null, clients: number|null, connections?: number|null, rate?: number|null,
 *   capacity?: boolean, protocol?: string|null, jobs?: number|null, scripts?: any, workloadOptions?: any }} r
 * @returns {string}
 */
export function setupKey (r) {
  // a capacity search's rate is its outcome, not its set-up
  return JSON.stringify([r.workload, r.scale, r.clients, r.connections ?? null, r.jobs ?? 1, r.capacity ? 'capacity' : r.rate || 0,
    r.protocol ?? null, r.scripts ?? null, r.workloadOptions ?? null])
}

/**
 * A short name for a set-up: "tpcb scale 10, 16 clients", with the rate and threads when set.
 * @param {{ workload: string, scale: number|null, clients: number|null, rate?: number|null, capacity?: boolean, jobs?: number|null }} r
 */
function setupName (r) {
  const size = r.scale === null ? null : r.workload === 'tpcc' ? `${r.scale} warehouse${r.scale === 1 ? '' : 's'}` : `scale ${r.scale}`
  const parts = [
    size,
    r.clients === null ? null : `${r.clients} client${r.clients === 1 ? '' : 's'}`,
    r.capacity ? 'capacity search' : r.rate > 0 ? `${r.rate} tps` : null,
    r.jobs > 1 ? `-j ${r.jobs}` : null
  ].filter(Boolean)
  return parts.length ? `${r.workload} ${parts.join(', ')}` : r.workload
}

/**
 * The trend line of each run: its label, else its set-up's name; two set-ups whose short names
 * coincide (they differ in a workload option, say) are told apart by a number.
 * @template {{ label: string|null }} R
 * @param {(R & Parameters<typeof setupKey>[0])[]} runs
 * @returns {string[]} one name per run, in order
 */
export function trendNames (runs) {
  const keysByName = new Map()
  const names = runs.map((r) => {
    if (r.label !== null && r.label !== undefined) return { label: r.label }
    const name = setupName(r)
    const key = setupKey(r)
    if (!keysByName.has(name)) keysByName.set(name, [])
    const keys = keysByName.get(name)
    if (!keys.includes(key)) keys.push(key)
    return { name, key }
  })
  return names.map((n) => {
    if (n.label !== undefined) return n.label
    const keys = keysByName.get(n.name)
    return keys.length === 1 ? n.name : `${n.name} (set-up ${keys.indexOf(n.key) + 1})`
  })
}
