// HOST:PORT of a server pgload serves during a run (--dashboard, --metrics), parsed and checked
// as data; binding it is lib/live/listen.js's.

import { isIP } from 'node:net'
import { PgloadError } from '../errors.js'

/** Where pgload listens when a flag names no host. */
export const DEFAULT_LISTEN_HOST = '127.0.0.1'

/**
 * Parse `HOST:PORT`, `:PORT`, `PORT` or `[IPv6]:PORT`. Port 0 asks the system for a free one.
 * @param {unknown} value
 * @param {string} flag named in the error
 * @param {{ host?: string, port?: number }} [defaults] what an empty value (a bare flag) means
 * @returns {{ host: string, port: number }}
 */
export function parseListenAddress (value, flag, defaults = {}) {
  // a resolved plan's address, given again (replan)
  if (value && typeof value === 'object' && typeof value.host === 'string' && Number.isInteger(value.port)) return parseListenAddress(formatListenAddress(value), flag, defaults)
  const text = typeof value === 'number' ? String(value) : value
  if (typeof text !== 'string') throw bad(`${flag} needs HOST:PORT, got ${JSON.stringify(value)}`)
  const s = text.trim()
  if (s === '') {
    if (defaults.port === undefined) throw bad(`${flag} needs HOST:PORT, e.g. 127.0.0.1:9464`)
    return { host: defaults.host ?? DEFAULT_LISTEN_HOST, port: defaults.port }
  }
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(s) ?? /^()()(\d+)$/.exec(s)
  if (!m) throw bad(`${flag} needs HOST:PORT (e.g. 127.0.0.1:5665, 0.0.0.0:9464, [::1]:5665), got ${JSON.stringify(text)}`)
  const host = m[1] || m[2] || defaults.host || DEFAULT_LISTEN_HOST
  const port = Number(m[3])
  if (!Number.isInteger(port) || port > 65535) throw bad(`${flag}: the port must be 0..65535, got ${m[3]}`)
  if (m[1] && isIP(m[1]) !== 6) throw bad(`${flag}: ${JSON.stringify(m[1])} is not an IPv6 address`)
  return { host, port }
}

/**
 * Whether an address is reachable from this machine only.
 * @param {string} host
 * @returns {boolean}
 */
export function isLoopback (host) {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::ffff:127.0.0.1'
}

/**
 * An address as a URL's authority (IPv6 in brackets).
 * @param {{ host: string, port: number }} a
 */
export function formatListenAddress ({ host, port }) {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`
}

const bad = (message) => new PgloadError(message, { code: 'BAD_OPTION' })
