// Checkpoints as the server logged them (log_checkpoints, on by default from PostgreSQL 15):
// "checkpoint starting" and "checkpoint complete" lines with their timestamps, where pgload can
// read the server's log (the embedded server's). Exact to the millisecond where the samples only
// bracket a start between two readings, and it sees checkpoints begun before the run.

import { open, stat } from 'node:fs/promises'
import { quoteLiteral } from '../../db/connection.js'
import { MARKER } from './queries.js'
import { round3 } from '../../format/round.js'

// How much of the log before the window is searched for the start of a checkpoint already
// running at the window's start (a spread checkpoint logs nothing between its two lines).
const LOOKBACK_BYTES = 1 << 20
// The largest stretch of log read at the end: the window's lines, past the lookback.
const MAX_READ_BYTES = 64 << 20

// A line as log_line_prefix '%m [%p] ' (the default) or '%t ...' writes it: the timestamp, the rest
// of the prefix, then the first "SEVERITY:  " of the line, which must be LOG (a STATEMENT line
// may quote the words). Continuation lines do not start with a timestamp.
const LINE = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?: ?[A-Za-z][\w/+-]*| ?[+-]\d\d(?::?\d\d)?)?) .*?\b([A-Z]+): {2}(.*)$/
const MESSAGE = /^(?:checkpoint|restartpoint) (starting|complete)\b:?\s*(.*)$/

/**
 * The settings that make the log usable, as one statement: checkpoints logged, in English, with
 * a timestamp first on each line.
 */
export const LOG_SETTINGS_QUERY = `SELECT ${MARKER} current_setting('log_checkpoints') AS log_checkpoints,
  current_setting('lc_messages') AS lc_messages, current_setting('log_line_prefix') AS log_line_prefix`

/**
 * Why the log cannot be used with these settings, or null when it can.
 * @param {{ logCheckpoints: string, lcMessages: string, logLinePrefix: string }} s
 * @returns {string|null}
 */
export function logSettingsProblem ({ logCheckpoints, lcMessages, logLinePrefix }) {
  if (logCheckpoints !== 'on') return 'log_checkpoints is off'
  if (!/^(C|POSIX|en([_.].*)?|)$/i.test(lcMessages)) return `lc_messages is ${lcMessages}, not English`
  if (!/^%[mt]/.test(logLinePrefix)) return `log_line_prefix ${JSON.stringify(logLinePrefix)} does not start with a timestamp (%m or %t)`
  return null
}

/**
 * The checkpoint lines of a stretch of log text, in order.
 * @param {string} text
 * @returns {{ stamp: string, kind: 'start'|'end', cause: 'timed'|'requested'|undefined }[]}
 */
export function parseCheckpointLines (text) {
  const out = []
  for (const line of text.split('\n')) {
    if (!line.includes('point ')) continue
    const m = LINE.exec(line)
    if (!m || m[2] !== 'LOG') continue
    const msg = MESSAGE.exec(m[3])
    if (!msg) continue
    const kind = msg[1] === 'starting' ? 'start' : 'end'
    // "checkpoint starting: time" is a timed one; immediate, force, wal, shutdown are requested
    const cause = kind === 'start' ? (/\btime\b/.test(msg[2]) ? 'timed' : 'requested') : undefined
    out.push({ stamp: m[1], kind, cause })
  }
  return out
}

/**
 * Checkpoint spans in run time from parsed lines. A span is in the window [0, endS] when it began
 * or ended inside it, or was running at its start; one running at the start is drawn from 0 and
 * flagged, one still running at the end is left open.
 * @param {{ epoch: number, kind: 'start'|'end', cause?: string }[]} lines epochs in seconds, in log order
 * @param {number} zeroEpoch the server's clock at run time 0
 * @param {number} endS run time of the window's end
 * @returns {import('./events.js').StatsEvent[]}
 */
export function checkpointEvents (lines, zeroEpoch, endS) {
  const spans = []
  let open = null
  for (const l of lines) {
    const t = round3(l.epoch - zeroEpoch)
    if (l.kind === 'start') {
      if (open) spans.push(open) // never completed (server stopped): kept as begun
      open = { start: t, end: null, cause: l.cause }
    } else {
      spans.push(open ? { ...open, end: t } : { start: null, end: t, cause: undefined })
      open = null
    }
  }
  if (open) spans.push(open)
  const events = []
  for (const s of spans) {
    const before = s.start === null || s.start < 0
    if (s.end !== null && s.end < 0) continue // over before the window
    if (!before && s.start > endS) continue // begun after it
    if (before && s.end === null && open !== s) continue // an unfinished one from an earlier server life
    const start = { t: before ? 0 : s.start, kind: 'checkpoint-start' }
    if (s.cause) start.cause = s.cause
    if (before) start.inProgressAtStart = true
    if (before && s.start !== null) start.beganS = s.start
    events.push(start)
    if (s.end !== null && s.end <= endS) {
      const end = { t: s.end, kind: 'checkpoint-end' }
      if (s.cause) end.cause = s.cause
      events.push(end)
    }
  }
  return events
}

/**
 * The server log of one run: where the window begins in the file, and at the end its checkpoint
 * lines turned into run-time events, timestamps converted by the server itself (the log is in
 * its log_timezone, named by abbreviation).
 */
export class ServerLogCheckpoints {
  /** @param {{ path: string }} opts */
  constructor ({ path }) {
    this.path = path
    this.offset = null
  }

  /**
   * Check the settings and the file; returns why the log cannot be used, or null.
   * @param {{ query: (text: string) => Promise<any> }} reader
   */
  async probe (reader) {
    const row = (await reader.query(LOG_SETTINGS_QUERY)).rows[0]
    const problem = logSettingsProblem({ logCheckpoints: row[0], lcMessages: row[1], logLinePrefix: row[2] })
    if (problem) return problem
    try {
      await this.markWindowStart()
    } catch (err) {
      return `server log ${this.path}: ${err.code ?? err.message}`
    }
    return null
  }

  /** Remember the log's length when the measured window begins. */
  async markWindowStart () {
    this.offset = (await stat(this.path)).size
  }

  /**
   * The window's checkpoint events.
   * @param {{ query: (text: string) => Promise<any> }} reader
   * @param {number} zeroEpoch the server's clock at run time 0
   * @param {number} endS run time of the window's end
   */
  async events (reader, zeroEpoch, endS) {
    const from = Math.max(0, (this.offset ?? 0) - LOOKBACK_BYTES)
    const text = await readRange(this.path, from, MAX_READ_BYTES)
    const lines = parseCheckpointLines(text)
    if (lines.length === 0) return []
    const stamps = [...new Set(lines.map(l => l.stamp))]
    const r = await reader.query(`SELECT ${MARKER} extract(epoch from s::timestamptz)::text FROM unnest(ARRAY[${stamps.map(quoteLiteral).join(', ')}]::text[]) AS s`)
    const epochOf = new Map(stamps.map((s, i) => [s, Number(r.rows[i][0])]))
    return checkpointEvents(lines.map(l => ({ ...l, epoch: epochOf.get(l.stamp) })), zeroEpoch, endS)
  }
}

async function readRange (path, from, max) {
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    const length = Math.max(0, Math.min(max, size - from))
    const buf = Buffer.alloc(length)
    await fh.read(buf, 0, length, from)
    return buf.toString('utf8')
  } finally {
    await fh.close()
  }
}
