// Server settings for A/B runs: parse `name=value,...`, say per pg_settings.context how each is
// applied (session option, ALTER SYSTEM + reload, ALTER SYSTEM + restart), apply, verify, restore.

import { PgloadError } from '../../errors.js'
import { quoteLiteral } from '../../db/connection.js'

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/

/**
 * Parse `name=value,name2='a,b'` (single quotes keep commas; '' is a quote inside quotes).
 * @param {string|undefined} text
 * @param {string} flag
 * @returns {{ name: string, value: string }[]}
 */
export function parseSettingList (text, flag) {
  if (text === undefined || text === null || String(text).trim() === '') return []
  const s = String(text)
  const out = []
  let i = 0
  while (i < s.length) {
    const eq = s.indexOf('=', i)
    if (eq < 0) throw new PgloadError(`${flag}: expected name=value at ${JSON.stringify(s.slice(i))}`, { hint: `${flag} 'work_mem=64MB,random_page_cost=1.1'` })
    const name = s.slice(i, eq).trim()
    if (!NAME.test(name)) throw new PgloadError(`${flag}: invalid setting name ${JSON.stringify(name)}`)
    let j = eq + 1
    while (s[j] === ' ') j++
    let value = ''
    if (s[j] === "'") {
      j++
      for (;;) {
        if (j >= s.length) throw new PgloadError(`${flag}: unterminated quote in the value of ${name}`)
        if (s[j] === "'" && s[j + 1] === "'") { value += "'"; j += 2; continue }
        if (s[j] === "'") { j++; break }
        value += s[j++]
      }
      while (s[j] === ' ') j++
      if (j < s.length && s[j] !== ',') throw new PgloadError(`${flag}: expected ',' after the quoted value of ${name}`)
    } else {
      const comma = s.indexOf(',', j)
      value = s.slice(j, comma < 0 ? s.length : comma).trim()
      j = comma < 0 ? s.length : comma
    }
    if (out.some(x => x.name === name)) throw new PgloadError(`${flag}: ${name} is given twice`)
    out.push({ name, value })
    i = j + 1
  }
  return out
}

/** How a parameter is applied, by pg_settings.context. */
const METHOD_BY_CONTEXT = {
  user: 'session',
  superuser: 'session',
  backend: 'session', // settable in the startup packet
  'superuser-backend': 'session',
  sighup: 'reload',
  postmaster: 'restart'
}

const METHOD_TEXT = {
  session: 'session setting on every run connection (startup option -c)',
  reload: 'ALTER SYSTEM + pg_reload_conf()',
  restart: 'ALTER SYSTEM + server restart'
}

/**
 * Look the parameters up in pg_settings and decide how to apply each; refuses unknown and
 * internal ones, and restart-only ones when there is no way to restart.
 * @param {import('../../db/connection.js').PgConnection} conn
 * @param {string[]} names
 * @param {{ restart: 'embedded'|'command'|null, side?: string }} opts
 * @returns {Promise<{ name: string, context: string, method: 'session'|'reload'|'restart', vartype: string, unit: string|null, how: string }[]>}
 */
export async function planSettings (conn, names, { restart, side = '' }) {
  if (names.length === 0) return []
  const r = await conn.query('SELECT name, context, vartype, unit FROM pg_settings WHERE name = ANY($1::text[])', [`{${names.map(n => `"${n}"`).join(',')}}`])
  const rows = new Map(r.rows.map(([name, context, vartype, unit]) => [name.toLowerCase(), { name, context, vartype, unit }]))
  return names.map((n) => {
    const row = rows.get(n.toLowerCase())
    if (!row) throw new PgloadError(`unknown server setting ${JSON.stringify(n)}${side ? ` (server of ${side})` : ''}`, { hint: 'see SELECT name FROM pg_settings' })
    const method = METHOD_BY_CONTEXT[row.context]
    if (!method) throw new PgloadError(`${row.name} cannot be changed (pg_settings.context ${row.context})`)
    if (method === 'restart' && !restart) {
      throw new PgloadError(`${row.name} takes effect only after a server restart (context postmaster), and pgload can restart only its embedded server`, {
        hint: 'give --restart-command (e.g. "sudo systemctl restart postgresql"), or use the embedded server'
      })
    }
    const how = method === 'restart' ? `${METHOD_TEXT.restart} (${restart === 'embedded' ? 'pgload restarts the embedded server' : '--restart-command'})` : METHOD_TEXT[method]
    return { name: row.name, context: row.context, method, vartype: row.vartype, unit: row.unit, how }
  })
}

const MEMORY = { B: 1, kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 }
const TIME = { us: 1, ms: 1000, s: 1e6, min: 60e6, h: 3600e6, d: 86400e6 }

/**
 * A comparable form of a setting value: memory and time values in base units, booleans as on/off.
 * @param {string|null} value
 * @param {{ vartype?: string, unit?: string|null }} [meta] pg_settings vartype and unit
 * @returns {string}
 */
export function normalizeSetting (value, { vartype, unit } = {}) {
  if (value === null || value === undefined) return ''
  const v = String(value).trim().replace(/^'(.*)'$/s, '$1')
  if (vartype === 'bool') {
    const l = v.toLowerCase()
    if (['on', 'true', 'yes', '1', 't', 'y'].includes(l)) return 'on'
    if (['off', 'false', 'no', '0', 'f', 'n'].includes(l)) return 'off'
    return l
  }
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*([A-Za-z]*)$/i.exec(v)
  if (m && (vartype === 'integer' || vartype === 'real' || vartype === undefined)) {
    const n = Number(m[1])
    let u = m[2]
    if (!u && unit) {
      const base = /^(\d+)?\s*(B|kB|MB|GB|TB|us|ms|s|min|h|d)$/.exec(unit)
      if (base) return toBase(n * Number(base[1] ?? 1), base[2])
    }
    if (u && (u in MEMORY || u in TIME)) return toBase(n, u)
    u = u.toLowerCase()
    return u ? `${n}${u}` : String(n)
  }
  return v.toLowerCase()
}

function toBase (n, u) {
  if (u in MEMORY) return `${n * MEMORY[u]}B`
  return `${n * TIME[u]}us`
}

/**
 * The startup `options` string that sets session parameters on every connection.
 * @param {{ name: string, value: string }[]} settings
 * @returns {string}
 */
export function sessionOptions (settings) {
  // libpq options: words separated by spaces; a space or backslash inside a value is escaped.
  return settings.map(s => `-c ${s.name}=${s.value.replace(/([\\ ])/g, '\\$1')}`).join(' ')
}

/**
 * What to restore later: the current value of each parameter and its postgresql.auto.conf entry.
 * @param {import('../../db/connection.js').PgConnection} conn
 * @param {string[]} names
 * @returns {Promise<Map<string, { value: string, autoConf: string|null }>>}
 */
export async function readOriginals (conn, names) {
  const out = new Map()
  for (const n of names) {
    const r = await conn.query('SELECT current_setting($1)', [n])
    out.set(n, { value: r.rows[0][0], autoConf: null })
  }
  try {
    const r = await conn.simpleQuery("SELECT name, setting FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf' ORDER BY seqno")
    const lower = new Map([...out.keys()].map(n => [n.toLowerCase(), n]))
    for (const [name, setting] of r.rows) if (lower.has(name.toLowerCase())) out.get(lower.get(name.toLowerCase())).autoConf = setting
  } catch (err) {
    throw new PgloadError(`cannot read postgresql.auto.conf entries (pg_file_settings): ${err.message}`, { hint: 'changing server-wide settings needs a superuser', cause: err })
  }
  return out
}

/**
 * Set server-wide parameters (ALTER SYSTEM), restoring the ones this side leaves alone, and
 * reload. Returns whether a restart is needed (a restart-only parameter is pending).
 * @param {import('../../db/connection.js').PgConnection} conn
 * @param {ReturnType<typeof planSettings> extends Promise<infer T> ? T : never} plan
 * @param {Map<string, string>} values this side's values by name (missing: back to the original)
 * @param {Map<string, { value: string, autoConf: string|null }>} originals
 * @returns {Promise<boolean>}
 */
export async function applySystemSettings (conn, plan, values, originals) {
  const system = plan.filter(p => p.method !== 'session')
  if (system.length === 0) return false
  for (const p of system) {
    const v = values.get(p.name)
    const orig = originals.get(p.name)
    try {
      if (v !== undefined) await conn.simpleQuery(`ALTER SYSTEM SET ${p.name} = ${quoteLiteral(v)}`)
      else if (orig.autoConf !== null) await conn.simpleQuery(`ALTER SYSTEM SET ${p.name} = ${quoteLiteral(orig.autoConf)}`)
      else await conn.simpleQuery(`ALTER SYSTEM RESET ${p.name}`)
    } catch (err) {
      throw new PgloadError(`ALTER SYSTEM SET ${p.name} failed: ${err.message}`, {
        code: 'AB_SETTING', hint: err.code === '42501' ? 'changing server-wide settings needs a superuser (or GRANT ALTER SYSTEM ON PARAMETER)' : undefined, cause: err
      })
    }
  }
  await conn.simpleQuery('SELECT pg_reload_conf()')
  // The postmaster reads the files asynchronously after the signal; pending_restart follows.
  await new Promise(resolve => setTimeout(resolve, 300))
  const restartNames = system.filter(p => p.method === 'restart').map(p => p.name)
  if (restartNames.length === 0) return false
  const r = await conn.query('SELECT bool_or(pending_restart) FROM pg_settings WHERE name = ANY($1::text[])', [`{${restartNames.join(',')}}`])
  return r.rows[0][0] === 't'
}

/**
 * Compare SHOW output with the intended values.
 * @param {import('../../db/connection.js').PgConnection} conn a connection opened like the run's
 * @param {ReturnType<typeof planSettings> extends Promise<infer T> ? T : never} plan
 * @param {Map<string, string>} expected
 * @returns {Promise<{ name: string, expected: string, actual: string }[]>} mismatches
 */
export async function verifySettings (conn, plan, expected) {
  const bad = []
  for (const p of plan) {
    if (!expected.has(p.name)) continue
    const r = await conn.simpleQuery(`SHOW ${p.name}`)
    const actual = r.rows[0][0]
    if (normalizeSetting(actual, p) !== normalizeSetting(expected.get(p.name), p)) bad.push({ name: p.name, expected: expected.get(p.name), actual })
  }
  return bad
}
