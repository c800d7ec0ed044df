// The one place the live view reads a run, through the run handle only (lib/engine/run-handle.js):
// its events ('start', 'warmup-tick', 'measuring', 'interval', 'stage', 'status', 'finished'), its settings
// and sizes. Nothing here reads a run's recorder, options or workload (the privacy test checks).

/**
 * @typedef {object} LiveRunHandlers
 * @property {(e: import('../engine/run-handle.js').StartEvent) => void} [started]
 * @property {(e: import('../engine/run-handle.js').WarmupEvent) => void} [warmup]
 * @property {() => void} [measuring] the measured window opened (after any warm-up)
 * @property {(e: import('../engine/run-handle.js').IntervalEvent) => void} [interval]
 * @property {(e: import('../engine/run-handle.js').StageEvent) => void} [stage] a stage of the load profile begins
 * @property {(s: import('../engine/run-handle.js').RunStatus) => void} [status] a change of state
 * @property {(s: import('../engine/run-handle.js').RunStatus) => void} [finished] execute() settles
 */

/**
 * Subscribe to a run's events; returns the unsubscribe.
 * @param {import('../engine/run-handle.js').RunHandle} run
 * @param {LiveRunHandlers} handlers
 * @returns {() => void}
 */
export function followRunEvents (run, handlers) {
  const subs = []
  const on = (name, fn) => { if (fn) { run.on(name, fn); subs.push([name, fn]) } }
  on('start', handlers.started)
  on('warmup-tick', handlers.warmup)
  on('measuring', handlers.measuring && (() => handlers.measuring()))
  on('interval', handlers.interval)
  on('stage', handlers.stage)
  on('status', handlers.status)
  on('finished', handlers.finished && ((e) => handlers.finished(e.status)))
  return () => { for (const [name, fn] of subs) run.off(name, fn) }
}

/**
 * What the run is, for a page header and the metrics' gauges.
 * @typedef {object} RunShape
 * @property {number} terminals this run's (this part's, for a shard)
 * @property {number} connections the pool size
 * @property {number|null} durationS the planned measured duration (null: a count of transactions)
 * @property {number} warmupS
 * @property {string[]} types the transaction types, in the workload's order
 */

/**
 * The run's shape from its handle, and the types from the caller (runBenchmark knows the
 * workload's transaction names; the handle does not carry them).
 * @param {import('../engine/run-handle.js').RunHandle} run
 * @param {string[]} types
 * @returns {RunShape}
 */
export function runShape (run, types) {
  const s = run.settings
  return {
    terminals: run.terminalCount,
    connections: run.poolSize,
    durationS: s.durationUs > 0 ? s.durationUs / 1e6 : null,
    warmupS: s.warmupUs / 1e6,
    types: [...types]
  }
}
