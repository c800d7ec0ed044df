// The run session of `pgload sweep`: the one interrupt policy, with the sweep's effect of a
// signal (the current run or load stops, no other starts).

import { openLineEnd } from './interrupts.js'
import { RunSession } from '../session/run-session.js'

/**
 * The sweep's run session: the one interrupt policy, with the sweep's effect of it: the current
 * run (or load) stops and no other starts. Before the runner exists (the sweep checked, the server
 * being reached) a signal ends the command at once.
 * @param {{ err: { write(s: string): any, isTTY?: boolean }, log?: any, env?: Record<string, string|undefined> }} io
 * @returns {RunSession & { runner?: any }}
 */
export function sweepSession ({ err, log, env }) {
  /** @type {RunSession & { runner?: any }} */
  const session = new RunSession({
    err,
    log,
    env,
    onInterrupt ({ count }) {
      const runner = session.runner
      // nothing measured yet and no load to cancel: the command ends at once
      if (!runner || (runner.phase !== 'load' && !runner.currentRun && session.runsStarted === 0)) return false
      err.write(openLineEnd(err))
      if (count > 1) err.write('pgload sweep: stopping at once\n')
      else if (runner.phase === 'load') err.write('pgload sweep: stopping: the load is cancelled (--resume loads it again)\n')
      else err.write('pgload sweep: stopping: the current run finishes its transactions in flight and is kept (Ctrl-C again to stop at once)\n')
      runner.interrupt(count > 1)
      return true
    }
  })
  return session
}
