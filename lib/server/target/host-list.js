// libpq's several-servers forms: `host=a,b port=5432,5433` and `postgresql://a:5432,b:5433/db`,
// read into one ordered list of candidates, with the two keywords that choose among them.

import { PgloadError } from '../../errors.js'

/** Values of target_session_attrs, as libpq 16+. */
export const SESSION_ATTRS = Object.freeze(['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'])
/** Values of load_balance_hosts, as libpq 16+. */
export const LOAD_BALANCE = Object.freeze(['disable', 'random'])

/**
 * @typedef {import('../../db/target-session.js').HostCandidate} HostCandidate
 */

/**
 * The candidates in the order libpq tries them: host, hostaddr and port are comma lists; a port
 * list of one applies to every host, otherwise it must be as long as the host list (as hostaddr).
 * @param {{ host?: string, hostaddr?: string, port?: string|number }} p
 * @param {{ host: string, port: number }} defaults
 * @param {string} source the option named in an error
 * @returns {HostCandidate[]}
 */
export function hostCandidates (p, defaults, source) {
  const hosts = p.host === undefined ? [] : String(p.host).split(',')
  const addrs = p.hostaddr === undefined ? [] : String(p.hostaddr).split(',')
  const ports = p.port === undefined ? [] : String(p.port).split(',')
  const n = Math.max(hosts.length, addrs.length, 1)
  if (hosts.length > 0 && addrs.length > 0 && hosts.length !== addrs.length) {
    throw new PgloadError(`${source}: ${hosts.length} hosts but ${addrs.length} hostaddr values; give as many of each`)
  }
  if (ports.length > 1 && ports.length !== n) {
    throw new PgloadError(`${source}: ${n} host(s) but ${ports.length} ports; give one port for all or one per host`)
  }
  const out = []
  for (let i = 0; i < n; i++) {
    const addr = addrs[i] || undefined
    const host = hosts[i] || addr || defaults.host
    const text = ports.length === 0 ? '' : (ports.length === 1 ? ports[0] : ports[i])
    const port = text === '' ? defaults.port : Number(text)
    if (!/^\d*$/.test(text) || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new PgloadError(`${source}: invalid port ${JSON.stringify(text)}`)
    }
    out.push(addr ? { host, hostaddr: addr, port } : { host, port })
  }
  return out
}

/**
 * Check a keyword's value against its allowed list (one line naming them all).
 * @param {string} key
 * @param {string|undefined} value
 * @param {readonly string[]} allowed
 * @param {string} source
 * @returns {string|undefined}
 */
export function checkedChoice (key, value, allowed, source) {
  if (value === undefined) return undefined
  if (!allowed.includes(value)) {
    throw new PgloadError(`${source}: invalid ${key} ${JSON.stringify(value)}: use ${allowed.join(', ')}`)
  }
  return value
}

/**
 * Split a URI's authority when it lists several servers (`user@h1:5432,[::1]:5433/db`), which
 * the WHATWG URL parser refuses: the hosts and ports as libpq's comma lists, and the URI with a
 * single placeholder host left for URL to read the rest.
 * @param {string} text
 * @returns {{ text: string, host?: string, port?: string }|null} null when there is one host or none
 */
export function splitUriHosts (text) {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(text)
  if (!m) return null
  const at = m[2].lastIndexOf('@')
  const userinfo = at < 0 ? '' : m[2].slice(0, at + 1)
  const hostpart = m[2].slice(at + 1)
  if (!hostpart.includes(',')) return null
  const hosts = []
  const ports = []
  for (const item of hostpart.split(',')) {
    const h = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(item)
    if (!h) throw new PgloadError(`--url: cannot read the server ${JSON.stringify(item)} in the host list`)
    hosts.push(decodedHost(h[1].replace(/^\[|\]$/g, '')))
    ports.push(h[2] ?? '')
  }
  const anyPort = ports.some(x => x !== '')
  return {
    text: `${m[1]}${userinfo}pgload-hosts${m[3]}`,
    host: hosts.join(','),
    port: anyPort ? ports.join(',') : undefined
  }
}

function decodedHost (text) {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new PgloadError('--url: a host has a malformed percent-escape (% must be followed by two hex digits)')
  }
}

/**
 * Describe the candidates for a display line: `h1:5432,h2:5433`.
 * @param {HostCandidate[]} list
 */
export function hostsText (list) {
  return list.map(c => `${c.host.includes(':') ? `[${c.host}]` : c.host}:${c.port}`).join(',')
}
