// Ctrl-C and SIGTERM for the commands that run benchmarks (run, ab), and the command line as
// it is recorded (passwords redacted): one place, so both commands behave and record alike.

import { redact } from '../server/target/resolve-target.js'
import { shellWord } from './shell-word.js'

/** Exit status of a run stopped by a signal, as shells report it: 128 + the signal number. */
export const INTERRUPT_EXIT_CODES = Object.freeze({ SIGINT: 130, SIGTERM: 143 })

/**
 * Listen for Ctrl-C (SIGINT) and SIGTERM until release(). Each signal calls
 * `onInterrupt({ count, signal })`; the first one asks to stop gracefully, any later one to
 * abort at once. SIGTERM counts as a Ctrl-C, and the exit status then says it was SIGTERM.
 * @param {(e: { count: number, signal: 'SIGINT'|'SIGTERM' }) => void} onInterrupt
 * @param {{ on?: boolean }} [opts] on: false listens to nothing (tests drive `interrupt` themselves)
 */
export function trapInterrupts (onInterrupt, { on = true } = {}) {
  let count = 0
  let terminated = false
  const interrupt = (signal) => {
    count++
    if (signal === 'SIGTERM') terminated = true
    onInterrupt({ count, signal })
  }
  if (on) { process.on('SIGINT', interrupt); process.on('SIGTERM', interrupt) }
  return {
    interrupt,
    get count () { return count },
    /** whether a SIGTERM was among the signals */
    get terminated () { return terminated },
    /** 143 after a SIGTERM, else 130 */
    get exitCode () { return terminated ? INTERRUPT_EXIT_CODES.SIGTERM : INTERRUPT_EXIT_CODES.SIGINT },
    release () {
      if (on) { process.off('SIGINT', interrupt); process.off('SIGTERM', interrupt) }
    }
  }
}

/**
 * What ends the line open when a signal came: on a terminal, the echoed ^C and any progress line
 * redrawn with \r; elsewhere every line is ended already, and a newline would be an empty line.
 * @param {{ isTTY?: boolean }} stream
 * @returns {string} '\n' or ''
 */
export function openLineEnd (stream) {
  return stream?.isTTY ? '\n' : ''
}

/** Options whose value is a header that may carry a token: recorded as `Name: ***`. */
const HEADER_OPTIONS = ['--metrics-push-header']

/**
 * The command line for the record: `pgload` and its arguments, passwords and header values
 * redacted, each quoted where a shell would read it otherwise (`--until 'p(99) < 20ms'`).
 * @param {string[]} args the arguments after the program name
 * @returns {string}
 */
export function recordedCommand (args) {
  const out = ['pgload']
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    const joined = HEADER_OPTIONS.find((name) => a.startsWith(`${name}=`))
    if (joined) out.push(`${joined}=${redactedHeader(a.slice(joined.length + 1))}`)
    else if (HEADER_OPTIONS.includes(a) && i + 1 < args.length) out.push(a, redactedHeader(args[++i]))
    else out.push(redact(a))
  }
  return out.map(shellWord).join(' ')
}

/** `Name: value` as `Name: ***`. */
function redactedHeader (text) {
  const colon = text.indexOf(':')
  return colon > 0 ? `${text.slice(0, colon)}: ***` : '***'
}
