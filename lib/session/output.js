// The output interface: what a run session tells the things that watch a run or keep its
// results (progress lines, the summary, the results file, the HTML report, the dashboard, the
// metrics endpoint and push, thresholds, the results store, pgbench log files, a library
// caller's own). An output is a plain object with any of these methods; the session calls them in
// the order the outputs were registered, and one output's failure is a warning line that costs
// no other output its work.

/**
 * What an output is told as a run starts.
 * @typedef {object} OutputContext
 * @property {Readonly<Record<string, any>>} plan the run's plan (lib/plan)
 * @property {import('../engine/run-handle.js').RunHandle} run the run's handle: its status, stop(), abort() and events
 * @property {string[]} types the workload's transaction types
 * @property {any|null} sampler the server statistics sampler (only for outputs whose `needs.sampler` is set)
 * @property {string|null} file the results file the run writes (null: none)
 */

/**
 * @typedef {object} Output
 * @property {string} name for its warnings
 * @property {{ sampler?: boolean }} [needs] sampler: the server statistics sampler's readings
 * @property {(phase: string, info: any) => void} [phase] a set-up phase of the run (connected, loading, running...)
 * @property {(ctx: OutputContext) => void|Promise<void>} [start] the run is about to start
 * @property {(e: import('../engine/run-handle.js').IntervalEvent, ctx: OutputContext) => void} [interval] an interval closed (the final, ragged one too)
 * @property {(e: any, ctx: OutputContext) => void} [stage] a stage of a staged run began
 * @property {(results: any, ctx: OutputContext) => void|Promise<void>} [finish] the results
 *   document, built and not yet written: add what this output contributes (a verdict, a section)
 * @property {(results: any, ctx: OutputContext & { file: string|null, exitCode: number }) => void|Promise<void>} [end]
 *   the results document, built (and written, when the run writes one)
 * @property {() => void|Promise<void>} [close] always called once, also after a failure
 * @property {boolean} [required] its failure is the command's (the results file, thresholds): the
 *   other outputs still have their turn, then the error is thrown
 */

/**
 * An output, checked: a name, and only the methods of the interface.
 * @param {Output} output
 * @returns {Output}
 */
export function defineOutput (output) {
  if (!output || typeof output !== 'object') throw new TypeError('an output is an object with start, interval, stage, finish, end and close methods')
  if (typeof output.name !== 'string' || !output.name) throw new TypeError('an output needs a name')
  for (const key of ['phase', 'start', 'interval', 'stage', 'finish', 'end', 'close']) {
    if (output[key] !== undefined && typeof output[key] !== 'function') throw new TypeError(`output ${output.name}: ${key} must be a function`)
  }
  return output
}

/** The warning line of an output that failed. */
const failedLine = (o, method, err) => `pgload: warning: output ${o.name} failed at ${method}: ${err?.message ?? err}`

/**
 * Call one method on every output that has it, in order; a failure is a warning, not the end,
 * except a required output's, which is returned once every output had its turn.
 * @param {Output[]} outputs
 * @param {'phase'|'start'|'interval'|'stage'|'finish'|'end'|'close'} method
 * @param {any[]} args
 * @param {(line: string) => void} warn
 * @returns {Promise<Error|null>} the first required output's failure
 */
export async function callOutputs (outputs, method, args, warn) {
  let failure = null
  for (const o of outputs) {
    if (typeof o[method] !== 'function') continue
    try {
      await o[method](...args)
    } catch (err) {
      if (o.required) failure ??= err
      else warn(failedLine(o, method, err))
    }
  }
  return failure
}

/**
 * The form for the run's events (phase, start, interval, stage): no output waits on another; one
 * that returns a promise has its rejection warned of when it comes.
 * @param {Output[]} outputs
 * @param {'phase'|'start'|'interval'|'stage'} method
 * @param {any[]|((o: Output) => any[])} args the same for all, or each output's own
 * @param {(line: string) => void} warn
 */
export function callOutputsNow (outputs, method, args, warn) {
  for (const o of outputs) {
    if (typeof o[method] !== 'function') continue
    try {
      const done = o[method](...(typeof args === 'function' ? args(o) : args))
      if (typeof done?.catch === 'function') done.catch((err) => warn(failedLine(o, method, err)))
    } catch (err) {
      warn(failedLine(o, method, err))
    }
  }
}
