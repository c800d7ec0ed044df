// pino logger for the CLI: one human line per warning on stderr; JSON (pretty on a TTY) with
// every field and stack for --verbose; JSON to --log-file. Secrets redacted.

import pino from 'pino'
import { parseOutputPath } from './options/parse.js'

/** @typedef {import('pino').Logger} Logger */

/** A logger that drops everything: the default wherever one is injected. */
export const silentLogger = pino({ level: 'silent' })

const REDACT = { paths: ['password', '*.password', 'config.password', '*.config.password', 'url'], censor: '***' }
const LABELS = [[50, 'error'], [40, 'warning'], [30, 'info'], [0, 'debug']]

/**
 * @param {{ verbose?: boolean, logFile?: string, stream?: { write(s: string): any, isTTY?: boolean },
 *   env?: Record<string, string|undefined> }} argv stream: where logs go without --log-file (stderr)
 * @returns {Logger}
 */
export function createLogger ({ verbose = false, logFile, stream = process.stderr, env = process.env } = {}) {
  parseOutputPath(logFile, '--log-file') // an empty name would log to stderr without a word
  const level = verbose ? 'debug' : (env.PGLOAD_LOG_LEVEL ?? 'warn')
  if (logFile) return pino({ level, redact: REDACT, base: { pid: process.pid } }, pino.destination({ dest: logFile, sync: false }))
  if (!verbose) return pino({ level, redact: REDACT }, humanLines(stream))
  if (stream === process.stderr && process.stderr.isTTY) {
    return pino({ level, redact: REDACT, transport: { target: 'pino-pretty', options: { destination: 2, colorize: true, ignore: 'pid,hostname' } } })
  }
  return pino({ level, redact: REDACT }, stream === process.stderr ? pino.destination(2) : stream)
}

/**
 * A pino destination writing each record as one line for people: `pgload: warning: <msg>: <error>`.
 * Logs are rare (warnings, never per transaction), so parsing each record back is cheap enough.
 * @param {{ write(s: string): any }} stream
 */
export function humanLines (stream) {
  return { write (record) { stream.write(formatLogRecord(record)) } }
}

/**
 * One pino JSON record as one human line: level, message and the error's first line; no stack,
 * no other fields (those are in --log-file and --verbose).
 * @param {string} record
 * @returns {string}
 */
export function formatLogRecord (record) {
  let o
  try {
    o = JSON.parse(record)
  } catch {
    return record.endsWith('\n') ? record : record + '\n'
  }
  const label = LABELS.find(([min]) => o.level >= min)[1]
  const msg = firstLine(o.msg ?? '')
  const err = firstLine(typeof o.err === 'string' ? o.err : (o.err?.message ?? ''))
  const text = !err || msg.includes(err) ? msg : msg ? `${msg}: ${err}` : err
  return `pgload: ${label}: ${text}\n`
}

function firstLine (s) {
  const i = String(s).indexOf('\n')
  return i < 0 ? String(s) : String(s).slice(0, i)
}
