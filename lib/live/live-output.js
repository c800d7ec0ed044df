// The live dashboard, the metrics endpoint and the metrics push (a LiveView, lib/live/index.js)
// as an output of a run session: it follows the run, gets the final report at the end, and
// stops serving at close, after the command's wait for late readers, if any.

/**
 * @param {import('./index.js').LiveView} live bound already (a busy port stops a command before it runs)
 * @param {{ err: { write(s: string): any }, beforeClose?: () => Promise<void> }} io
 *   beforeClose: the --dashboard-keep wait, once every file is written
 * @returns {import('../session/output.js').Output}
 */
export function liveOutput (live, { err, beforeClose }) {
  return {
    name: 'live',
    needs: { sampler: true },
    start ({ run, types, sampler, waits, plan }) {
      // a scenario run's plan names its scenarios and their windows; its handle emits each one's run
      const scenarios = Array.isArray(plan?.scenarios) ? plan.scenarios : undefined
      live.attach(run, { types, sampler, waits, scenarios })
    },
    async end (results) {
      const saved = await live.finish(results)
      if (saved) err.write(`pgload: dashboard report written to ${saved}\n`)
    },
    async close () {
      try {
        await beforeClose?.()
      } finally {
        await live.close()
      }
    }
  }
}
