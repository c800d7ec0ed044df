// How a bench makes pgload use a given connection implementation: pgload's own --driver option.

/**
 * Arguments for `node [nodeArgs] bin/pgload.js run ... [runArgs]`.
 * @param {'pg'|'lean'|'default'} driver
 * @returns {{ nodeArgs: string[], runArgs: string[] }}
 */
export function driverArgs (driver) {
  if (driver === 'default') return { nodeArgs: [], runArgs: [] }
  return { nodeArgs: [], runArgs: ['--driver', driver] }
}
