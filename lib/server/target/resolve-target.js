// Where to connect: `--url` (libpq URI or key=value) > standard PG* environment variables
// (+ ~/.pgpass) > null, meaning "use the embedded server". Also turns connect errors into one line.

import { readFileSync, statSync } from 'node:fs'
import { homedir, userInfo } from 'node:os'
import { join } from 'node:path'
import { PgloadError } from '../../errors.js'
import { shownValue } from '../../options/shown.js'
import { explainSslError } from './ssl-errors.js'
import { hostCandidates, checkedChoice, splitUriHosts, hostsText, SESSION_ATTRS, LOAD_BALANCE } from './host-list.js'

/** @typedef {import('../../db/connection.js').Target} Target */

// libpq's defaults where node-postgres differs (it would read process.env itself: we pass every
// field explicitly so the injected env is the only source).
const DEFAULTS = {
  host: 'localhost', // libpq would use its Unix socket directory; TCP localhost works everywhere
  port: 5432 // TCP port
}

// s: the longest connect_timeout a timer can wait (Node's timers hold at most 2^31 - 1 ms)
const MAX_CONNECT_TIMEOUT_S = Math.floor((2 ** 31 - 1) / 1000)

// Environment variables that, when set, mean "a server was given" (libpq's connection ones).
const SERVER_ENV = ['PGHOST', 'PGHOSTADDR', 'PGPORT', 'PGDATABASE', 'PGUSER']

// conninfo keywords we understand -> our field names. Others are rejected, naming the key.
const KEYWORDS = {
  host: 'host',
  hostaddr: 'hostaddr',
  port: 'port',
  dbname: 'database',
  user: 'user',
  password: 'password',
  sslmode: 'sslmode',
  sslrootcert: 'sslrootcert',
  connect_timeout: 'connectTimeout',
  application_name: 'ignored', // always pgload
  fallback_application_name: 'ignored',
  client_encoding: 'ignored',
  options: 'options',
  target_session_attrs: 'targetSessionAttrs',
  load_balance_hosts: 'loadBalanceHosts'
}

/**
 * Resolve the connection target.
 * @param {{ url?: string|null, env?: Record<string, string|undefined> }} [opts]
 * @returns {Target|null} null when nothing was given: use the embedded server
 */
export function resolveTarget ({ url, env = process.env } = {}) {
  const given = url !== undefined && url !== null && url !== ''
  if (!given && !SERVER_ENV.some(k => nonEmpty(env[k]))) return null
  const fromUrl = given ? parseConnectionString(url) : {}
  const fromEnv = {
    host: env.PGHOST || undefined,
    hostaddr: env.PGHOSTADDR || undefined,
    port: env.PGPORT || undefined,
    database: env.PGDATABASE || undefined,
    user: env.PGUSER || undefined,
    password: env.PGPASSWORD || undefined,
    sslmode: env.PGSSLMODE || undefined,
    sslrootcert: env.PGSSLROOTCERT || undefined,
    connectTimeout: env.PGCONNECT_TIMEOUT || undefined,
    options: env.PGOPTIONS || undefined,
    targetSessionAttrs: env.PGTARGETSESSIONATTRS || undefined,
    loadBalanceHosts: env.PGLOADBALANCEHOSTS || undefined
  }
  const p = { ...fromEnv }
  for (const [k, v] of Object.entries(fromUrl)) if (v !== undefined) p[k] = v
  return buildTarget(p, env, given ? '--url' : 'PGPORT')
}

function nonEmpty (v) {
  return v !== undefined && v !== null && v !== ''
}

function buildTarget (p, env, source) {
  const flag = source === '--url' ? '--url' : 'PGPORT'
  const candidates = hostCandidates(p, DEFAULTS, flag)
  const attrs = checkedChoice('target_session_attrs', p.targetSessionAttrs, SESSION_ATTRS, flag)
  const balance = checkedChoice('load_balance_hosts', p.loadBalanceHosts, LOAD_BALANCE, flag)
  const host = candidates[0].hostaddr ?? candidates[0].host // hostaddr wins, as in libpq
  const port = candidates[0].port
  const user = p.user ?? userInfo().username
  const database = p.database ?? user
  const password = p.password ?? passwordFromPgpass({ host, port, database, user }, env)
  const config = {
    host,
    port,
    database,
    user,
    password,
    ssl: sslConfig(p.sslmode, p.sslrootcert),
    // given: both drivers attempt SSL as libpq (lib/db/ssl-fallback.js); not given: plain, so
    // that the lean connection reads into a buffer of its own instead of through a stream
    ...(p.sslmode === undefined ? {} : { sslmode: p.sslmode }),
    ...(p.sslrootcert ? { sslrootcert: p.sslrootcert } : {}), // named in a certificate error
    application_name: 'pgload'
  }
  // not given: the drivers' own bound (callers may set theirs); given: libpq's meaning
  if (p.connectTimeout !== undefined) config.connectionTimeoutMillis = connectTimeoutMs(p.connectTimeout)
  if (p.options) config.options = p.options
  if (candidates.length === 1 && (attrs ?? 'any') === 'any') return { config, display: displayUrl(config), embedded: false }
  // several servers: each new connection chooses one (lib/db/target-session.js)
  const display = `postgres://${encodeURIComponent(user)}@${hostsText(candidates)}/${encodeURIComponent(database)}`
  return { config, display, embedded: false, hosts: candidates, targetSessionAttrs: attrs ?? 'any', loadBalanceHosts: balance ?? 'disable' }
}

/**
 * connect_timeout as libpq reads it: whole seconds, zero or negative to wait indefinitely (0 ms
 * here: no timer in either driver).
 * @param {string} text
 * @returns {number} ms
 */
function connectTimeoutMs (text) {
  const trimmed = String(text).trim()
  if (!/^[-+]?\d+$/.test(trimmed)) throw new PgloadError(`invalid connect_timeout ${shownValue(trimmed)}: a whole number of seconds (0: wait indefinitely)`)
  const seconds = Number(trimmed)
  if (seconds > MAX_CONNECT_TIMEOUT_S) throw new PgloadError(`connect_timeout ${trimmed} is too large: at most ${MAX_CONNECT_TIMEOUT_S} seconds (0: wait indefinitely)`)
  return Math.max(0, seconds) * 1000
}

// The node-postgres `ssl` option the target records: both drivers read `sslmode` when it is
// given and make libpq's attempts (lib/db/ssl-fallback.js); without it, no SSL. verify-ca and
// verify-full keep the CA (sslrootcert) and the host name check given here.
function sslConfig (mode, rootcert) {
  switch (mode ?? 'prefer') {
    case 'disable': case 'allow': case 'prefer':
      return false
    case 'require':
      return { rejectUnauthorized: false }
    case 'verify-ca':
      return { rejectUnauthorized: true, ca: readCa(rootcert), checkServerIdentity: () => undefined }
    case 'verify-full':
      return { rejectUnauthorized: true, ca: readCa(rootcert) }
    default:
      throw new PgloadError(`invalid sslmode ${JSON.stringify(mode)}: use disable, allow, prefer, require, verify-ca or verify-full`)
  }
}

function readCa (file) {
  if (!file) return undefined
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw new PgloadError(`cannot read sslrootcert ${file}: ${err.code ?? err.message}`)
  }
}

/**
 * `postgres://user@host:port/db` — never a password.
 * @param {{ host: string, port: number, user: string, database: string }} c
 */
export function displayUrl (c) {
  const host = c.host.startsWith('/') ? encodeURIComponent(c.host) : (c.host.includes(':') ? `[${c.host}]` : c.host)
  return `postgres://${encodeURIComponent(c.user)}@${host}:${c.port}/${encodeURIComponent(c.database)}`
}

/**
 * Parse a libpq connection string: URI (`postgres://` / `postgresql://`) or `key=value ...`.
 * @param {string} s
 * @param {string} [flag] the option that gave it, named in an error
 * @returns {{ host?: string, hostaddr?: string, port?: string, database?: string, user?: string, password?: string,
 *   sslmode?: string, sslrootcert?: string, connectTimeout?: string, options?: string }}
 */
export function parseConnectionString (s, flag = '--url') {
  try {
    return parseText(String(s).trim())
  } catch (err) {
    if (flag === '--url' || !(err instanceof PgloadError)) throw err
    throw new PgloadError(err.message.replace(/^--url\b/, flag), { code: err.code, hint: err.hint, cause: err })
  }
}

function parseText (text) {
  if (/^postgres(ql)?:\/\//i.test(text)) return parseUri(text)
  if (/^[A-Za-z_]+\s*=/.test(text)) return parseKeyValue(text)
  throw new PgloadError(`--url must be a postgres:// URI or key=value pairs, got ${shownValue(redact(text))}`)
}

function parseUri (text) {
  const several = splitUriHosts(text)
  let u
  try {
    u = new URL(several ? several.text : text)
  } catch {
    throw new PgloadError(`--url is not a valid URI: ${redact(text)}`)
  }
  const out = {}
  if (several) Object.assign(out, several.port === undefined ? { host: several.host } : { host: several.host, port: several.port })
  else if (u.hostname) out.host = percentDecoded(u.hostname.replace(/^\[|\]$/g, ''), 'host')
  if (u.port && !several) out.port = u.port
  if (u.username) out.user = percentDecoded(u.username, 'user name')
  if (u.password) out.password = percentDecoded(u.password, 'password')
  const db = percentDecoded(u.pathname.replace(/^\//, ''), 'database name')
  if (db) out.database = db
  for (const [k, v] of u.searchParams) setKeyword(out, k, v)
  return out
}

// A URI part as text; a malformed escape names the part, never its value (it may be the password).
function percentDecoded (part, what) {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new PgloadError(`--url: the ${what} has a malformed percent-escape (% must be followed by two hex digits)`, { hint: 'write a literal % as %25' })
  }
}

function parseKeyValue (text) {
  const out = {}
  let i = 0
  const n = text.length
  while (i < n) {
    while (i < n && /\s/.test(text[i])) i++
    if (i >= n) break
    const keyStart = i
    while (i < n && /[A-Za-z_]/.test(text[i])) i++
    const key = text.slice(keyStart, i)
    while (i < n && /\s/.test(text[i])) i++
    if (!key || text[i] !== '=') throw new PgloadError(`--url: expected key=value at ${JSON.stringify(redact(text.slice(keyStart, keyStart + 20)))}`)
    i++
    while (i < n && /\s/.test(text[i])) i++
    let value = ''
    if (text[i] === "'") {
      i++
      while (i < n && text[i] !== "'") {
        if (text[i] === '\\' && i + 1 < n) i++
        value += text[i++]
      }
      if (i >= n) throw new PgloadError(`--url: unterminated quoted value for ${key}`)
      i++
    } else {
      while (i < n && !/\s/.test(text[i])) {
        if (text[i] === '\\' && i + 1 < n) i++
        value += text[i++]
      }
    }
    setKeyword(out, key, value)
  }
  return out
}

function setKeyword (out, key, value) {
  const field = KEYWORDS[key]
  if (field === undefined) throw new PgloadError(`--url: unsupported connection parameter ${JSON.stringify(key)}`)
  if (field === 'ignored') return
  out[field] = value
}

/** Replace the password in a connection string by `***` (for error messages). */
export function redact (text) {
  return String(text)
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@')
    // a password already redacted stays as it is, and a shell quote after it is not taken for part of it
    .replace(/(password\s*=\s*)('(?:[^'\\]|\\.)*'|\*\*\*(?=[\s']|$)|\S+)/gi, '$1***')
}

/**
 * The password for a connection from the pgpass file (PGPASSFILE or ~/.pgpass), as libpq:
 * first matching `host:port:db:user:password` line, `*` matches anything; the file is
 * ignored when group or world can read it.
 */
export function passwordFromPgpass ({ host, port, database, user }, env = process.env) {
  const file = env.PGPASSFILE || join(env.HOME || homedir(), '.pgpass')
  let text
  try {
    const st = statSync(file)
    if (!st.isFile() || (process.platform !== 'win32' && (st.mode & 0o077))) return undefined
    text = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  const hostKey = host.startsWith('/') ? 'localhost' : host
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue
    const fields = splitPgpassLine(line)
    if (fields.length < 5) continue
    const want = [hostKey, String(port), database, user]
    if (want.every((w, i) => fields[i] === '*' || fields[i] === w)) return fields[4]
  }
  return undefined
}

function splitPgpassLine (line) {
  const out = ['']
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (ch === '\\' && i + 1 < line.length) out[out.length - 1] += line[++i]
    else if (ch === ':' && out.length < 5) out.push('')
    else out[out.length - 1] += ch
  }
  return out
}

/**
 * One clear line for a failed connection attempt.
 * @param {any} err error from connecting (node-postgres / net)
 * @param {Target} target
 * @returns {PgloadError}
 */
export function explainConnectError (err, target) {
  if (err instanceof PgloadError) return err // already one line (no server matched)
  const c = target?.config ?? {}
  const where = `${c.host ?? '?'}:${c.port ?? '?'}`
  const code = err?.code
  const mk = (message, hint) => new PgloadError(message, { code: 'CONNECT', hint, cause: err })
  const ssl = explainSslError(err, c, where)
  if (ssl) return mk(ssl.message, ssl.hint)
  if (code === 'ECONNREFUSED') {
    return mk(`cannot connect to PostgreSQL at ${where}: connection refused`, 'is the server running and accepting TCP connections on that port? (--url, PGHOST, PGPORT)')
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return mk(`cannot connect to PostgreSQL at ${where}: unknown host ${c.host}`, 'check the host name in --url or PGHOST')
  }
  if (code === 'ETIMEDOUT' || /timeout/i.test(String(err?.message))) {
    return mk(`cannot connect to PostgreSQL at ${where}: timed out`, 'check the host, port and any firewall in between')
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return mk(`cannot connect to PostgreSQL at ${where}: host unreachable`, 'check the host in --url or PGHOST')
  }
  if (code === '28P01') {
    return mk(`password authentication failed for user ${JSON.stringify(c.user)} at ${where}`, 'check the password in --url, PGPASSWORD or ~/.pgpass')
  }
  if (code === '3D000') {
    return mk(`database ${JSON.stringify(c.database)} does not exist at ${where}`, 'create it (createdb) or choose another with --url .../dbname or PGDATABASE')
  }
  if (code === '28000') {
    return mk(`server at ${where} rejected user ${JSON.stringify(c.user)}: ${firstLine(err?.message)}`, 'check the user name and the server\'s pg_hba.conf')
  }
  if (/password|SASL|SCRAM/i.test(String(err?.message))) {
    return mk(`server at ${where} asks for a password and none was given for user ${JSON.stringify(c.user)}`, 'give it in --url, PGPASSWORD or ~/.pgpass')
  }
  if (/terminated unexpectedly|ECONNRESET/i.test(String(err?.message) + code)) {
    return mk(`cannot connect to PostgreSQL at ${where}: the connection was closed during start-up`, 'is it a PostgreSQL server, and does it accept this client (pg_hba.conf, SSL)? (--url, PGHOST, PGPORT, PGSSLMODE)')
  }
  return mk(`cannot connect to PostgreSQL at ${where}: ${firstLine(err?.message ?? err)}`, 'check --url or the PG* environment variables')
}

function firstLine (s) {
  return String(s).split('\n')[0]
}
