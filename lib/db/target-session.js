// Choosing one of several servers per new connection, as libpq 16+ does: try the hosts in order
// (shuffled with load_balance_hosts=random), keep the first whose session matches
// target_session_attrs; prefer-standby makes a second pass accepting any server.

import { PgloadError } from '../errors.js'

/**
 * One server of a target's list, as a connection tries it (lib/server/target/host-list.js makes them).
 * @typedef {{ host: string, hostaddr?: string, port: number, password?: string }} HostCandidate
 *   password: this host's, from the pgpass file, when the target gave none (own key: even undefined)
 * @typedef {{ readOnly: boolean, inRecovery: boolean }} SessionState
 */

/**
 * The order to try the candidates in (Fisher-Yates with load_balance_hosts=random).
 * @param {readonly HostCandidate[]} list
 * @param {string} [loadBalance] disable | random
 * @param {() => number} [random]
 * @returns {HostCandidate[]}
 */
export function tryOrder (list, loadBalance = 'disable', random = Math.random) {
  const out = list.slice()
  if (loadBalance !== 'random') return out
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const t = out[i]; out[i] = out[j]; out[j] = t
  }
  return out
}

/**
 * Whether a session is what target_session_attrs asks for (prefer-standby's first pass: standby).
 * @param {string} attrs
 * @param {SessionState} s
 */
export function sessionMatches (attrs, s) {
  switch (attrs) {
    case 'read-write': return !s.readOnly
    case 'read-only': return s.readOnly
    case 'primary': return !s.inRecovery
    case 'standby': case 'prefer-standby': return s.inRecovery
    default: return true
  }
}

/**
 * What a connection's server is. As libpq: from the in_hot_standby and
 * default_transaction_read_only the server reported at start-up (PostgreSQL 14 and later, to a
 * driver that keeps them: the lean one), else from `SHOW transaction_read_only` and
 * `pg_is_in_recovery()`, which every supported server answers.
 * @param {{ simpleQuery: (text: string) => Promise<{ rows: any[][] }>, parameters?: Record<string, string> }} conn
 * @returns {Promise<SessionState>}
 */
export async function sessionState (conn) {
  const reported = conn.parameters ?? {}
  if (reported.in_hot_standby !== undefined && reported.default_transaction_read_only !== undefined) {
    const inRecovery = reported.in_hot_standby === 'on'
    return { readOnly: inRecovery || reported.default_transaction_read_only === 'on', inRecovery }
  }
  const ro = await conn.simpleQuery('SHOW transaction_read_only')
  const rec = await conn.simpleQuery('SELECT pg_is_in_recovery()')
  return { readOnly: String(ro.rows[0]?.[0]) === 'on', inRecovery: ['t', 'true', true].includes(rec.rows[0]?.[0]) }
}

/**
 * Open a connection on the first candidate that connects and matches.
 * @param {readonly HostCandidate[]} candidates in the order given
 * @param {{ open: (c: HostCandidate) => Promise<any>, targetSessionAttrs?: string, loadBalanceHosts?: string,
 *   random?: () => number }} opts
 * @returns {Promise<{ conn: any, candidate: HostCandidate, position: number, of: number }>}
 *   position: 1-based place of the chosen host in the list as given
 */
export async function openMatching (candidates, { open, targetSessionAttrs = 'any', loadBalanceHosts = 'disable', random }) {
  const order = tryOrder(candidates, loadBalanceHosts, random)
  const outcomes = new Map()
  const unreachable = new Set()
  const passes = targetSessionAttrs === 'prefer-standby' ? ['prefer-standby', 'any'] : [targetSessionAttrs]
  for (const attrs of passes) {
    for (const candidate of order) {
      // the second pass does not wait again for a host that could not be reached in the first
      if (unreachable.has(candidate)) continue
      let conn
      try {
        conn = await open(candidate)
      } catch (err) {
        outcomes.set(candidate, failureWord(err))
        unreachable.add(candidate)
        if (order.length === 1 && passes.length === 1) throw err // one server: its own error, as before
        continue
      }
      const state = attrs === 'any' ? null : await sessionState(conn).catch(() => null)
      if (attrs === 'any' || (state && sessionMatches(attrs, state))) {
        return { conn, candidate, position: candidates.indexOf(candidate) + 1, of: candidates.length }
      }
      outcomes.set(candidate, state ? stateWord(state) : 'unreadable state')
      await Promise.resolve(conn.close()).catch(() => conn.destroy?.())
    }
  }
  const line = candidates.map(c => `${c.host}:${c.port} ${outcomes.get(c) ?? 'not tried'}`).join(', ')
  throw new PgloadError(`no server matches target_session_attrs=${targetSessionAttrs}: ${line}`, { code: 'CONNECT' })
}

function failureWord (err) {
  const code = err?.code
  if (code === 'ECONNREFUSED') return 'refused'
  if (code === 'ETIMEDOUT' || /timeout|timed out/i.test(String(err?.message))) return 'timed out'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host'
  return `failed (${String(err?.message ?? err).split('\n')[0]})`
}

function stateWord (s) {
  if (s.inRecovery) return 'standby'
  return s.readOnly ? 'read-only' : 'read-write primary'
}

/**
 * Open one connection to a target with a driver's opener: a target of several servers (or with
 * a session attribute to check) goes through openMatching, per new connection as libpq does,
 * and the connection records the server chosen in `server`.
 * @template C
 * @param {any} target
 * @param {(target: any) => Promise<C>} openOne opens a connection to a target of one server
 * @returns {Promise<C>}
 */
export async function openOnTarget (target, openOne) {
  const hosts = target.hosts
  if (!hosts) return openOne(target)
  const open = (c) => openOne({ ...target, hosts: undefined, config: { ...target.config, host: c.hostaddr ?? c.host, port: c.port, ...('password' in c ? { password: c.password } : {}) } })
  const r = await openMatching(hosts, { open, targetSessionAttrs: target.targetSessionAttrs, loadBalanceHosts: target.loadBalanceHosts })
  r.conn.server = { host: r.candidate.host, port: r.candidate.port, position: r.position, of: r.of }
  return r.conn
}

/**
 * The target as reached by one connection of several servers: its display names the server
 * chosen and its place in the list (`postgres://u@h2:5433/db (2nd of 3 hosts, read-write)`);
 * later connections still choose for themselves.
 * @param {any} target
 * @param {{ host: string, port: number, position: number, of: number }|undefined} server conn.server
 */
export function targetAsReached (target, server) {
  if (!target.hosts || !server) return target
  const host = server.host.includes(':') ? `[${server.host}]` : server.host
  const url = target.display.replace(/@[^/]*\//, `@${host}:${server.port}/`)
  const how = [target.targetSessionAttrs !== 'any' ? target.targetSessionAttrs : '', target.loadBalanceHosts === 'random' ? 'load_balance_hosts=random' : ''].filter(Boolean)
  return { ...target, display: `${url} (${ordinal(server.position)} of ${server.of} host${server.of === 1 ? '' : 's'}${how.length ? ', ' + how.join(', ') : ''})` }
}

function ordinal (n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th')
  return `${n}${s}`
}
