// The error that aborts a client in a meta-command, worded as pgbench words it.

import { ClientAbortError } from '../errors.js'

/**
 * "client 0 aborted in command 3 (set) of script 0; evaluation of meta-command failed: ..."
 * @param {{ clientId: number }} st the terminal's script state
 * @param {{ index: number }} script
 * @param {{ index: number, cmdName: string }} c the command
 * @param {string} message
 * @param {string} [detail] also kept as the error's `detail`
 * @returns {ClientAbortError}
 */
export function abortCommand (st, script, c, message, detail) {
  const msg = `client ${st.clientId} aborted in command ${c.index} (${c.cmdName}) of script ${script.index}; ${message}` +
    (detail ? `: ${detail}` : '')
  const err = new ClientAbortError(msg)
  if (detail) err.detail = detail
  return err
}
