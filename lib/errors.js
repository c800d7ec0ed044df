// One error class for everything a user can get wrong, plus SQLSTATE classification.

/**
 * An error meant for the user: one clear line, a stable code, an optional hint.
 * exitCode follows pgbench: 1 bad options or set-up, 2 errors during the run.
 */
export class PgloadError extends Error {
  /**
   * @param {string} message
   * @param {{ code?: string, hint?: string, exitCode?: number, cause?: unknown, reported?: boolean }} [opts]
   *   reported: the command has printed what this error says already (only the exit status is left)
   */
  constructor (message, { code = 'USAGE', hint, exitCode = 1, cause, reported = false } = {}) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'PgloadError'
    this.code = code
    this.hint = hint
    this.exitCode = exitCode
    this.reported = reported
  }
}

/**
 * A client (terminal) stops for good, as a pgbench client aborts: the run carries on
 * without it and exits 2.
 */
export class ClientAbortError extends PgloadError {
  /**
   * @param {string} message
   * @param {{ cause?: unknown, hint?: string }} [opts]
   */
  constructor (message, { cause, hint } = {}) {
    super(message, { code: 'CLIENT_ABORT', exitCode: 2, cause, hint })
    this.name = 'ClientAbortError'
  }
}

/**
 * Classify a PostgreSQL SQLSTATE once.
 * @param {string | undefined} sqlstate
 * @returns {'retry' | 'connection' | 'other'}
 */
export function classifySqlState (sqlstate) {
  if (sqlstate === '40001' || sqlstate === '40P01') return 'retry'
  if (sqlstate === 'CONNECTION_LOST') return 'connection'
  if (typeof sqlstate === 'string' && (sqlstate.startsWith('08') || sqlstate === '57P01' || sqlstate === '57P02' || sqlstate === '57P03')) return 'connection'
  return 'other'
}

/**
 * The full server message as libpq prints it (ERROR, DETAIL, HINT, CONTEXT lines).
 * @param {any} err
 * @returns {string}
 */
export function formatServerError (err) {
  if (!err || typeof err !== 'object') return String(err)
  const lines = [`${err.severity ?? 'ERROR'}:  ${err.message}`]
  if (err.detail) lines.push(`DETAIL:  ${err.detail}`)
  if (err.hint) lines.push(`HINT:  ${err.hint}`)
  if (err.where) lines.push(`CONTEXT:  ${err.where}`)
  return lines.join('\n')
}
