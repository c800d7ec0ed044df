// How long the dashboard serves the final report once a run (or a sweep) has ended and its files
// are written (--dashboard-keep): a person at a terminal reads it until Ctrl-C, a CI job or a
// pipe does not wait. The exit status stays the run's own, also after a Ctrl-C during the wait.

import { trapInterrupts } from '../session/interrupts.js'
import { PgloadError } from '../errors.js'
import { parseDurationS } from '../options/parse.js'

/** --dashboard-keep's value for "until Ctrl-C". */
export const KEEP_UNTIL_INTERRUPT = 'forever'

/**
 * Seconds to keep serving after the end (Infinity: until Ctrl-C), or null without --dashboard.
 * Not given: until Ctrl-C when stdout is a terminal and CI is not set, else 0.
 * @param {{ dashboard?: unknown, dashboardKeep?: unknown }} argv
 * @param {{ env?: Record<string, string|undefined>, isTTY?: boolean }} [world]
 * @returns {number|null}
 */
export function dashboardKeepS (argv, { env = process.env, isTTY = Boolean(process.stdout.isTTY) } = {}) {
  const given = argv.dashboardKeep
  if (argv.dashboard === undefined || argv.dashboard === false) {
    if (given !== undefined) throw new PgloadError('--dashboard-keep goes with --dashboard: it says how long the final report stays served', { code: 'BAD_OPTION' })
    return null
  }
  if (given === undefined) return isTTY && !isCi(env) ? Infinity : 0
  if (String(given).trim().toLowerCase() === KEEP_UNTIL_INTERRUPT) return Infinity
  return parseDurationS(given, '--dashboard-keep')
}

/** CI services set CI (GitHub Actions, GitLab, CircleCI, Travis, Buildkite ...); `CI=false` is no CI. */
function isCi (env) {
  const v = env.CI
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false'
}

/**
 * What the start-up line says happens at the end, e.g. "then the report until Ctrl-C".
 * @param {number} keepS
 * @param {string} [what] what ends: the run, the sweep
 * @returns {string}
 */
export function keepNote (keepS, what = 'run') {
  if (keepS === Infinity) return 'then the report, served until Ctrl-C'
  if (keepS === 0) return `then the report, to pages already open: pgload exits when the ${what} ends (--dashboard-keep D to serve it longer)`
  return `then the report, served for ${keepS} s after the end`
}

/**
 * Keep serving for `keepS` seconds, or until Ctrl-C or SIGTERM (which end only the wait).
 * @param {number} keepS
 * @param {{ url: string, err?: { write(s: string): any }, signals?: boolean }} opts
 * @returns {Promise<void>}
 */
export function keepServing (keepS, { url, err = process.stderr, signals = true }) {
  if (!(keepS > 0)) return Promise.resolve()
  err.write(keepS === Infinity
    ? `pgload: the report stays at ${url} until Ctrl-C\n`
    : `pgload: the report stays at ${url} for ${keepS} s (Ctrl-C to exit now)\n`)
  return new Promise((resolve) => {
    let timer = null
    const done = () => {
      clearTimeout(timer)
      trap.release()
      resolve()
    }
    // a signal ends only the wait: the run's results are written already
    const trap = trapInterrupts(done, { on: signals })
    if (keepS !== Infinity) timer = setTimeout(done, keepS * 1000)
  })
}
