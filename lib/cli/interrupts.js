// What the commands share about signals and their record: the line a signal ends on a terminal,
// and the command line as it is recorded (passwords redacted).

import { redact } from '../server/target/resolve-target.js'
import { shellWord } from './shell-word.js'

// the policy itself lives in lib/session/interrupts.js
export { INTERRUPT_EXIT_CODES, trapInterrupts } from '../session/interrupts.js'

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
