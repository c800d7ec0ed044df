// --trigger: a shell command of the user's run at --trigger-at seconds into the measured window
// (a `patronictl switchover`, a `pg_ctl promote`, a fault of any kind), as an output of the run
// session. The run does not wait for it; the results record when it ran, how long it took and
// how it ended (`run.trigger`), the command redacted as the plan records it.

import { performance } from 'node:perf_hooks'
import { runRestartCommand } from '../server/cold/restart-command.js'
import { redact } from '../server/target/resolve-target.js'

/** s: how long the command may run before it is killed with everything it started */
export const TRIGGER_TIMEOUT_S = 300

/**
 * @param {Readonly<Record<string, any>>} plan with `trigger` and `triggerAtS`
 * @param {{ env?: Record<string, string|undefined>, err: { write(s: string): any } }} io
 * @returns {{ name: string, start: Function, finish: Function, close: Function }} an output (lib/session/output.js)
 */
export function triggerOutput (plan, { env = process.env, err }) {
  const shown = redact(plan.trigger)
  let timer = null
  let ran = null // { atS, done: Promise<{ seconds, error }> }
  let unfollow = () => {}
  const fire = (windowOpenMs) => {
    const atS = (performance.now() - windowOpenMs) / 1000
    err.write(`pgload: --trigger at ${atS.toFixed(1)} s: ${shown}\n`)
    const done = runRestartCommand(plan.trigger, { env, timeoutS: TRIGGER_TIMEOUT_S, flag: '--trigger', code: 'TRIGGER' }).then(
      ({ seconds }) => ({ seconds, error: null }),
      (e) => {
        err.write(`pgload: warning: ${e.message}\n`)
        return { seconds: null, error: e.message }
      })
    ran = { atS, done }
  }
  return {
    name: 'trigger',
    start ({ run }) {
      // the terminals started when the run says it is running (read on this thread's clock: a
      // worker thread's startUs is on its own); the measured window opens after the warm-up
      const onStatus = (s) => {
        if (timer !== null || ran || s.state !== 'running') return
        const windowOpenMs = performance.now() + plan.warmupS * 1000
        timer = setTimeout(() => fire(windowOpenMs), Math.max(0, windowOpenMs + plan.triggerAtS * 1000 - performance.now()))
        timer.unref()
      }
      run.on('status', onStatus)
      unfollow = () => run.off('status', onStatus)
      onStatus(run.status)
    },
    async finish (results) {
      clearTimeout(timer)
      unfollow()
      const outcome = ran ? await ran.done : null
      results.run.trigger = {
        command: shown,
        atS: ran ? Math.round(ran.atS * 1000) / 1000 : null,
        seconds: outcome?.seconds === null || outcome === null ? null : Math.round(outcome.seconds * 1000) / 1000,
        error: outcome?.error ?? (ran ? null : 'the run ended before --trigger-at')
      }
    },
    close () { clearTimeout(timer); unfollow() }
  }
}
