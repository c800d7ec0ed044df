// pgbench's checks on a run's scripts, shared by the command line (before anything connects) and
// scriptWorkload() (for programs that call the library): -D definitions and the set of scripts.

import { PgloadError } from '../errors.js'
import { validVariableName } from './values.js'

/** pgbench's limit on the scripts of one run (MAX_SCRIPTS). */
export const MAX_SCRIPTS = 128

/**
 * Parse `-D name=value` as pgbench (split at the first `=`; name and value non-empty; valid name).
 * @param {string} spec
 * @returns {[string, string]}
 */
export function parseDefine (spec) {
  const eq = spec.indexOf('=')
  if (eq <= 0 || eq === spec.length - 1) throw new PgloadError(`invalid variable definition: ${JSON.stringify(spec)}`, { code: 'BAD_DEFINE', hint: 'use --define name=value' })
  const name = spec.slice(0, eq)
  checkVariableName(name)
  return [name, spec.slice(eq + 1)]
}

/**
 * A variable name given with -D (or as a workload option) that a script could use.
 * @param {string} name
 */
export function checkVariableName (name) {
  if (!validVariableName(name)) throw new PgloadError(`option: invalid variable name: ${JSON.stringify(name)}`, { code: 'BAD_DEFINE' })
}

/**
 * The scripts of one run: at least one, at most MAX_SCRIPTS, and a total weight above zero.
 * @param {{ weight: number }[]} scripts
 */
export function checkScriptSet (scripts) {
  if (scripts.length === 0) throw new PgloadError('no script to run', { code: 'NO_SCRIPT' })
  if (scripts.length > MAX_SCRIPTS) throw new PgloadError(`at most ${MAX_SCRIPTS} SQL scripts are allowed`, { code: 'TOO_MANY_SCRIPTS' })
  if (scripts.reduce((s, x) => s + x.weight, 0) === 0) throw new PgloadError('total script weight must not be zero', { code: 'BAD_WEIGHT' })
}
