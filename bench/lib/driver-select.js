// How a bench makes pgload use a given connection implementation: pgload's own --driver option
// once it has one; until then, for the lean connection, the module hooks of lean-register.js.

import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const PGLOAD = fileURLToPath(new URL('../../bin/pgload.js', import.meta.url))
const LEAN_REGISTER = fileURLToPath(new URL('./lean-register.js', import.meta.url))

let hasDriverOption = null

/**
 * Arguments for `node [nodeArgs] bin/pgload.js run ... [runArgs]`.
 * @param {'pg'|'lean'|'default'} driver
 * @returns {{ nodeArgs: string[], runArgs: string[] }}
 */
export function driverArgs (driver) {
  if (driver === 'default') return { nodeArgs: [], runArgs: [] }
  hasDriverOption ??= /--driver\b/.test(spawnSync(process.execPath, [PGLOAD, 'run', '--help'], { encoding: 'utf8' }).stdout ?? '')
  if (hasDriverOption) return { nodeArgs: [], runArgs: ['--driver', driver] }
  return { nodeArgs: driver === 'lean' ? ['--import', LEAN_REGISTER] : [], runArgs: [] }
}
