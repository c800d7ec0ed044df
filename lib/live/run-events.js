// The one place the live view reads a run: today's Run / ThreadedRun events ('start',
// 'warmup-tick', 'measuring', 'tick') mapped to the few the dashboard and the metrics endpoint
// subscribe to. When the engine's declared run handle lands, this file alone changes.

/**
 * @typedef {object} LiveInterval
 * @property {number} elapsedS seconds since the measured window opened (end of this interval)
 * @property {any} interval the closed interval entry of the results document (lib/metrics/recorder.js)
 * @property {number} activeConnections connections lent to a transaction at the tick
 * @property {number} waiting terminals waiting for a connection at the tick
 * @property {boolean} final the ragged last interval, closed as the run ends
 */

/**
 * @typedef {object} LiveRunHandlers
 * @property {(e: { terminals: number, connections: number }) => void} [started]
 * @property {(e: { elapsedS: number, warmupS: number, activeConnections: number, waiting: number }) => void} [warmup]
 * @property {() => void} [measuring] the measured window opened (after any warm-up)
 * @property {(e: LiveInterval) => void} [interval]
 */

/**
 * Subscribe to a run's events; returns the unsubscribe.
 * @param {import('node:events').EventEmitter} run a Run or ThreadedRun (lib/engine/create-run.js)
 * @param {LiveRunHandlers} handlers
 * @returns {() => void}
 */
export function followRunEvents (run, handlers) {
  const subs = []
  const on = (name, fn) => { if (fn) { run.on(name, fn); subs.push([name, fn]) } }
  on('start', handlers.started && ((e) => handlers.started({ terminals: e.terminals, connections: e.connections })))
  on('warmup-tick', handlers.warmup && ((e) => handlers.warmup({ elapsedS: e.elapsedS, warmupS: e.warmupS, activeConnections: e.activeConnections, waiting: e.waiting })))
  on('measuring', handlers.measuring && (() => handlers.measuring()))
  on('tick', handlers.interval && ((e) => handlers.interval({
    elapsedS: e.elapsedS,
    interval: e.interval,
    activeConnections: e.activeConnections ?? 0,
    waiting: e.waiting ?? 0,
    final: Boolean(e.final)
  })))
  return () => { for (const [name, fn] of subs) run.off(name, fn) }
}

/**
 * What the run is, for a page header and the metrics' gauges: terminals, pool, the planned
 * measured duration (null for a run of a count of transactions) and the transaction types.
 * @param {any} run
 * @returns {{ terminals: number, connections: number, durationS: number|null, warmupS: number, types: string[] }}
 */
export function runShape (run) {
  return {
    terminals: run.terminalCount ?? 0,
    connections: run.poolSize ?? 0,
    durationS: run.opts?.durationS ?? null,
    warmupS: run.opts?.warmupS ?? 0,
    types: (run.workload?.transactions ?? []).map((t) => t.name)
  }
}

/**
 * Failures by kind (SQLSTATE or pgload's code) and retries per transaction type so far, where the
 * run keeps them on this thread (one job); null with worker threads, whose intervals carry only
 * the failures' total.
 * @param {any} run
 * @returns {Map<string, { failed: number, retries: number, errors: Map<string, number> }>|null}
 */
export function typeTotals (run) {
  const types = run.recorder?.types
  if (!Array.isArray(types)) return null
  return new Map(types.map((t) => [t.name, { failed: t.failed, retries: t.retries, errors: t.errors }]))
}

/**
 * The terminals by state (keying, thinking, running, waiting, finished), counted in one pass.
 * @param {any} run
 * @returns {{ keying: number, thinking: number, running: number, waiting: number, finished: number }|null}
 */
export function terminalStates (run) {
  return typeof run.terminalStates === 'function' ? run.terminalStates() : null
}
