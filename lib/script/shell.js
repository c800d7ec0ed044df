// \shell and \setshell: the command line built from the words and variables (as pgbench builds
// it, within its buffer size), run by /bin/sh, and \setshell's integer read from its output.

import { spawn } from 'node:child_process'
import { abortCommand } from './client-abort.js'
import { K } from './link.js'

const SHELL_COMMAND_SIZE = 256

/**
 * Default shell runner: /bin/sh -c, stdout captured for \setshell, inherited for \shell.
 * @param {string} command
 * @param {boolean} capture
 * @returns {Promise<{ code: number, stdout: string }>} code -1 when it could not run
 */
export function runShell (command, capture) {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] })
    let out = ''
    if (capture) child.stdout.on('data', (d) => { out += d })
    child.on('error', () => resolve({ code: -1, stdout: out }))
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: out }))
  })
}

/**
 * Run a linked \shell or \setshell command; \setshell stores the integer the command printed.
 * @param {any} st the terminal's script state
 * @param {any} script the linked script
 * @param {any} c the linked command
 * @param {{ runShell: (command: string, capture: boolean) => Promise<{ code: number, stdout: string }> }} env
 * @returns {Promise<void>} rejects with the client's abort error
 */
export async function execShell (st, script, c, env) {
  const words = c.kind === K.SETSHELL ? c.argv.slice(2) : c.argv.slice(1)
  const argv0 = words[0]
  const fail = (detail) => abortCommand(st, script, c, 'execution of meta-command failed', detail)
  let command = ''
  for (let k = 0; k < words.length; k++) {
    const w = words[k]
    let arg
    if (w[0] !== ':') arg = w
    else if (w[1] === ':') arg = w.slice(1)
    else {
      arg = st.vars.getString(c.shellSlots[k])
      if (arg === undefined) throw fail(`${argv0}: undefined variable "${w}"`)
    }
    if (Buffer.byteLength(command) + Buffer.byteLength(arg) + (k > 0 ? 1 : 0) >= SHELL_COMMAND_SIZE - 1) {
      throw fail(`${argv0}: shell command is too long`)
    }
    command += (k > 0 ? ' ' : '') + arg
  }
  if (c.kind === K.SHELL) {
    const r = await env.runShell(command, false)
    if (r.code !== 0) throw fail(`${argv0}: could not launch shell command`)
    return
  }
  const r = await env.runShell(command, true)
  const nl = r.stdout.indexOf('\n')
  let res = nl < 0 ? r.stdout : r.stdout.slice(0, nl + 1)
  if (res.length > 63) res = res.slice(0, 63)
  if (res.length === 0) throw fail(`${argv0}: could not read result of shell command`)
  const m = /^[ \t\n\v\f\r]*[+-]?[0-9]+/.exec(res)
  const rest = m ? res.slice(m[0].length) : res
  if (!m || !/^[ \t\n\v\f\r]*$/.test(rest)) throw fail(`${argv0}: shell command must return an integer (not "${res}")`)
  if (c.slot < 0) throw fail(`setshell: invalid variable name: "${c.varName}"`)
  st.vars.setInt(c.slot, Number(m[0].trim()) | 0)
}
