// A sweep as asked: the workload, its axes, the repeat count and the run options every run
// shares, checked in full before anything runs. Each run's plan is the common options plus its
// cell, resolved by the one plan resolver (lib/plan/resolve.js) as `pgload run` resolves its own.

import { createHash } from 'node:crypto'
import { PgloadError } from '../errors.js'
import { parseInteger } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { resolvePlan } from '../plan/resolve.js'
import { DEFAULTS as TPCC_DEFAULTS } from '../../workloads/tpcc/defaults.js'
import { parseAxes, cellsOf, cellSize, sizeAxis, cellText, isTpccLike } from './axes.js'

const bad = (message, hint) => new PgloadError(message, { code: 'BAD_OPTION', hint })

/** Runs per cell when --repeat is not given: the usual advice, a median of three. */
export const DEFAULT_REPEAT = 3

/**
 * @typedef {object} SweepSpec
 * @property {string} workload the workload module: tpcb (also for script files), tpcc or chbench
 * @property {string} name the workload as the document names it: tpcb, tpcc or the script files
 * @property {import('./axes.js').Axes} axes
 * @property {number} repeat
 * @property {import('./axes.js').Cell[]} cells
 * @property {Record<string, any>} common the plan input every run shares (scripts read once)
 * @property {Record<string, any>} options the common options as the document records them
 * @property {number|null} plannedS warm-up plus duration of one run; null for runs by count
 */

/**
 * The sweep from a run's plan input whose clients, rate and scale (tpcc, chbench: warehouses;
 * chbench: also the analytic streams) may be comma lists. Every cell's plan is resolved once
 * here, so a mistake in any of them is one line before anything runs.
 * @param {Record<string, any>} input as lib/cli/run-argv.js's planInputFromArgv makes it
 * @param {{ repeat?: unknown, checks?: object, streams?: unknown }} [opts] checks: the command line's own, as resolvePlan
 *   takes them; streams: --streams as typed, whatever the workload (only chbench's plan input keeps it)
 * @returns {Promise<SweepSpec>}
 */
export async function sweepSpec (input, { repeat, checks, streams } = {}) {
  const workload = input.workload ?? 'tpcb'
  const size = sizeAxis(workload)
  const wo = input.workloadOptions ?? {}
  if (isTpccLike(workload) && wo.scale !== undefined && wo.scale !== null) throw bad(`${workload} is sized by --warehouses, not --scale`)
  const axes = parseAxes({ size: wo[size], clients: input.clients, rate: input.rate, streams: wo.streams ?? streams }, workload)
  const repeats = repeat === undefined ? DEFAULT_REPEAT : parseInteger(repeat, '--repeat', rangeOf('--repeat'))
  // TPC-C's terminals are fixed (10 per warehouse): its clients are the connections they share,
  // that is the transactions in flight at once
  if (isTpccLike(workload) && axes.clients && input.connections !== undefined) {
    throw bad(`${workload}: --clients sets the connections of each cell; give --clients or --connections, not both`)
  }
  const common = { ...input, clients: undefined, rate: undefined, workloadOptions: { ...wo, [size]: undefined, ...(axes.streams ? { streams: undefined } : {}) } }
  const cells = cellsOf(axes)
  let first = null
  for (const cell of cells) {
    checkTpccClients(workload, cell)
    const plan = await resolvePlan(cellPlanInput(common, workload, cell), { checks })
    first ??= plan
  }
  common.scripts = first.scripts // read once: every run runs the text the sweep began with
  return {
    workload,
    name: first.resultName === 'script' ? first.scripts.map((s) => s.weight === 1 ? s.name : `${s.name}@${s.weight}`).join(' ') : first.workload,
    axes,
    repeat: repeats,
    cells,
    common,
    options: recordedOptions(first, workload, axes),
    plannedS: first.durationS === undefined ? null : (first.warmupS ?? 0) + first.durationS
  }
}

/**
 * The plan input of one cell: the common options with the cell's values.
 * @param {Record<string, any>} common
 * @param {string} workload
 * @param {import('./axes.js').Cell} cell
 * @param {{ out?: string, label?: string }} [run] the run's own results file and label
 * @returns {Record<string, any>}
 */
export function cellPlanInput (common, workload, cell, run = {}) {
  const input = { ...common, workloadOptions: { ...common.workloadOptions } }
  if (cell.clients !== null) input[isTpccLike(workload) ? 'connections' : 'clients'] = cell.clients
  if (cell.rate !== null) input.rate = cell.rate
  if (cell.streams !== undefined && cell.streams !== null) input.workloadOptions.streams = cell.streams
  const size = cellSize(cell)
  if (size !== null) input.workloadOptions[sizeAxis(workload)] = size
  if (run.out !== undefined) Object.assign(input, { out: run.out, writeFile: true })
  if (run.label !== undefined) input.label = run.label
  return input
}

/**
 * The plan of one run of a sweep: its cell, its results file, and a label naming both the sweep
 * (when it has a label) and the cell. A seed not given is drawn for each run.
 * @param {SweepSpec} spec
 * @param {import('./axes.js').Cell} cell
 * @param {{ out: string, label?: string|null }} run
 * @returns {Promise<Readonly<import('../plan/resolve.js').RunPlan>>}
 */
export function runPlan (spec, cell, { out, label }) {
  const runLabel = label ? `${label} ${cellText(cell)}`.slice(0, 80) : undefined
  return resolvePlan(cellPlanInput(spec.common, spec.workload, cell, { out, label: runLabel }))
}

function checkTpccClients (workload, cell) {
  if (!isTpccLike(workload) || cell.clients === null || cell.warehouses === null) return
  const terminals = cell.warehouses * TPCC_DEFAULTS.terminalsPerWarehouse
  if (cell.clients > terminals) {
    throw bad(`${workload}: --clients ${cell.clients} is more than the ${terminals} terminals of ${cell.warehouses} warehouse${cell.warehouses === 1 ? '' : 's'}`,
      'TPC-C drives 10 terminals per warehouse; its clients are the connections they share')
  }
}

// What the document does not record among a plan's keys: how the server is reached (and
// restarted, for cold starts), how the run is named, shown, written and stored.
const NOT_RECORDED = ['planVersion', 'url', 'restartCommand', 'trigger', 'poolerAdmin', 'resultsUrl', 'store', 'command', 'out', 'writeFile', 'seedGiven', 'resultName', 'label', 'progressS', 'progressTimestamp', 'seed']

/**
 * The common options as the document records them, and as `--resume` compares them: the
 * resolved plan without what each cell sets, the seed only when one was given, script files by
 * their name and the SHA-256 of their text.
 * @param {import('../plan/resolve.js').RunPlan} plan
 * @param {string} workload
 * @param {import('./axes.js').Axes} axes
 * @returns {Record<string, any>}
 */
export function recordedOptions (plan, workload, axes) {
  const options = {}
  for (const [k, v] of Object.entries(plan)) if (!NOT_RECORDED.includes(k)) options[k] = v
  if (plan.seedGiven) options.seed = plan.seed
  if (axes.clients) delete options[isTpccLike(workload) ? 'connections' : 'clients']
  if (axes.rate) delete options.rate
  const size = sizeAxis(workload)
  options.workloadOptions = { ...plan.workloadOptions }
  if (axes[size]) delete options.workloadOptions[size]
  if (axes.streams) delete options.workloadOptions.streams
  options.scripts = (plan.scripts ?? []).map(({ text, ...s }) => text === undefined ? s : { ...s, sha256: createHash('sha256').update(text).digest('hex') })
  return JSON.parse(JSON.stringify(options))
}

/**
 * Every difference between a sweep document's definition and a spec's, as
 * `path: DOCUMENT'S there, SPEC'S here` joined by `; `, or null when they are the same sweep.
 * @param {{ workload: string, axes: object, repeat: number, options: object }} doc
 * @param {SweepSpec} spec
 * @returns {string|null}
 */
export function sweepDifference (doc, spec) {
  const there = { workload: doc.workload, axes: doc.axes, repeat: doc.repeat, options: doc.options }
  const here = { workload: spec.name, axes: spec.axes, repeat: spec.repeat, options: spec.options }
  const found = differences(there, here, '')
  return found.length ? found.join('; ') : null
}

// every differing field; a list (an axis) is compared whole, so the message shows both lists
function differences (x, y, path) {
  const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v)
  if (isObject(x) && isObject(y)) {
    return [...new Set([...Object.keys(x), ...Object.keys(y)])].flatMap((k) => differences(x[k], y[k], path ? `${path}.${k}` : k))
  }
  if ((x ?? null) === (y ?? null) || (Array.isArray(x) && Array.isArray(y) && JSON.stringify(x) === JSON.stringify(y))) return []
  return [`${path}: ${shown(x)} there, ${shown(y)} here`]
}

const shown = (v) => v === undefined || v === null ? 'none' : JSON.stringify(v)
