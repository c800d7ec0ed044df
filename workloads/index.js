// The built-in workloads, by name: an explicit list of lazy loaders (each module's default
// export follows "Workload modules" in docs/architecture.md).

export const workloads = {
  tpcb: () => import('./tpcb/index.js'),
  tpcc: () => import('./tpcc/index.js'),
  chbench: () => import('./chbench/index.js')
}

/** Names of the built-in workloads. */
export const workloadNames = Object.keys(workloads)

/**
 * Load a built-in workload module by name, or undefined when there is none.
 * @param {string} name
 */
export async function loadWorkload (name) {
  const loader = Object.hasOwn(workloads, name) ? workloads[name] : undefined
  if (!loader) return undefined
  return (await loader()).default
}

/**
 * The built-in workloads' own run options, each once (--warehouses, --delivery...). A workload
 * built on another (chbench on tpcc) repeats the other's: given to yargs twice, an option's alias
 * and choices would be listed twice in --help and its errors.
 * @returns {Promise<Record<string, import('yargs').Options>>}
 */
export async function workloadRunOptions () {
  const out = {}
  for (const name of workloadNames) Object.assign(out, (await loadWorkload(name))?.runOptions)
  return out
}
