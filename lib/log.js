// pino logger for the CLI: JSON to stderr (pretty on a TTY) or to --log-file; secrets redacted.

import pino from 'pino'
import { parseOutputPath } from './options/parse.js'

/** @typedef {import('pino').Logger} Logger */

/** A logger that drops everything: the default wherever one is injected. */
export const silentLogger = pino({ level: 'silent' })

/**
 * @param {{ verbose?: boolean, logFile?: string }} argv
 * @returns {Logger}
 */
export function createLogger ({ verbose = false, logFile } = {}) {
  parseOutputPath(logFile, '--log-file') // an empty name would log to stderr without a word
  const level = verbose ? 'debug' : (process.env.PGLOAD_LOG_LEVEL ?? 'warn')
  const redact = { paths: ['password', '*.password', 'config.password', '*.config.password', 'url'], censor: '***' }
  if (logFile) return pino({ level, redact, base: { pid: process.pid } }, pino.destination({ dest: logFile, sync: false }))
  if (process.stderr.isTTY) {
    return pino({ level, redact, transport: { target: 'pino-pretty', options: { destination: 2, colorize: true, ignore: 'pid,hostname' } } })
  }
  return pino({ level, redact }, pino.destination(2))
}
