// Whether the server accepts each A/B setting value, asked before the first round so that a typo
// (`work_mem=banana`) is one line before anything runs, not a failure after the A/B started.
// Settings a session may change are tried with SET LOCAL in a transaction that rolls back (the
// server's own check); the others (sighup, postmaster, backend contexts) cannot be SET, and are
// checked against pg_settings: type, enum values, range and units.

import { PgloadError } from '../../errors.js'
import { shownValue } from '../../options/shown.js'
import { quoteLiteral } from '../../db/connection.js'

const SETTABLE_IN_SESSION = new Set(['user', 'superuser'])
const MEMORY = { B: 1, kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 }
const TIME = { us: 1, ms: 1000, s: 1e6, min: 60e6, h: 3600e6, d: 86400e6 }
const BOOL = new Set(['on', 'off', 'true', 'false', 'yes', 'no', '1', '0', 't', 'f', 'y', 'n'])

/**
 * @typedef {object} SettingFacts a setting's pg_settings row
 * @property {string} name
 * @property {string} context
 * @property {string} vartype bool, integer, real, enum or string
 * @property {string|null} unit e.g. kB, 8kB, ms
 * @property {string|null} min
 * @property {string|null} max
 * @property {string[]|null} enumvals
 */

/**
 * Check every side's values on its server; throws one line naming the side, the setting and the
 * value the server would refuse.
 * @param {import('../../db/connection.js').PgConnection} conn
 * @param {{ name: string, value: string }[]} values
 * @param {string} side e.g. 'A'
 * @returns {Promise<void>}
 */
export async function checkSettingValues (conn, values, side) {
  if (values.length === 0) return
  const facts = await readSettingFacts(conn, values.map((v) => v.name))
  for (const { name, value } of values) {
    const f = facts.get(name.toLowerCase())
    if (!f) continue // planSettings says it is unknown
    const why = SETTABLE_IN_SESSION.has(f.context) ? await sessionRefusal(conn, f.name, value) : valueProblem(f, value)
    if (why) throw new PgloadError(`--${side.toLowerCase()}: ${f.name} = ${shownValue(value)}: ${why}`, { code: 'AB_SETTING' })
  }
}

/**
 * @param {import('../../db/connection.js').PgConnection} conn
 * @param {string[]} names
 * @returns {Promise<Map<string, SettingFacts>>} by lower-case name
 */
async function readSettingFacts (conn, names) {
  const r = await conn.query('SELECT name, context, vartype, unit, min_val, max_val, array_to_json(enumvals)::text FROM pg_settings WHERE lower(name) = ANY($1::text[])',
    [`{${names.map((n) => `"${n.toLowerCase()}"`).join(',')}}`])
  return new Map(r.rows.map(([name, context, vartype, unit, min, max, enumvals]) =>
    [name.toLowerCase(), { name, context, vartype, unit, min, max, enumvals: enumvals ? JSON.parse(enumvals) : null }]))
}

/** The server's own check: SET LOCAL in a transaction that rolls back. Returns its message, or null. */
async function sessionRefusal (conn, name, value) {
  try {
    await conn.simpleQuery(`BEGIN; SET LOCAL ${name} = ${quoteLiteral(value)}; ROLLBACK`)
    return null
  } catch (err) {
    await conn.simpleQuery('ROLLBACK').catch(() => {})
    if (!err?.code || err.code === 'CONNECTION_LOST') throw err
    return String(err.message).split('\n')[0]
  }
}

/**
 * What is wrong with a value by pg_settings (null when it fits): the check for settings that
 * cannot be SET in a session. Strings are the server's to judge when it reads them.
 * @param {SettingFacts} f
 * @param {string} value
 * @returns {string|null}
 */
export function valueProblem (f, value) {
  const v = String(value).trim()
  if (f.vartype === 'bool') return BOOL.has(v.toLowerCase()) ? null : 'expected on or off'
  if (f.vartype === 'enum') {
    const allowed = f.enumvals ?? []
    return allowed.some((e) => e.toLowerCase() === v.toLowerCase()) ? null : `expected one of ${allowed.join(', ')}`
  }
  if (f.vartype !== 'integer' && f.vartype !== 'real') return null
  const n = inSettingUnits(v, f.unit)
  if (n === null) return `expected ${f.vartype === 'integer' ? 'an integer' : 'a number'}${f.unit ? ` in ${f.unit}, or with a unit` : ''}`
  if (f.vartype === 'integer' && !f.unit && !Number.isInteger(n)) return 'expected an integer'
  const lo = f.min === null ? -Infinity : Number(f.min)
  const hi = f.max === null ? Infinity : Number(f.max)
  if (n < lo || n > hi) return `out of range ${f.min} .. ${f.max}${f.unit ? ` (in ${f.unit})` : ''}`
  return null
}

/**
 * A number with an optional unit in the setting's own unit (e.g. 64MB for a setting in 8kB is 8192),
 * or null when it is not a number, or its unit does not fit the setting.
 * @param {string} v
 * @param {string|null} unit
 */
function inSettingUnits (v, unit) {
  const m = /^(-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([A-Za-z]*)$/i.exec(v)
  if (!m) return null
  const n = Number(m[1])
  if (!m[2]) return n
  const base = unit && /^(\d+)?\s*(B|kB|MB|GB|TB|us|ms|s|min|h|d)$/.exec(unit)
  if (!base) return null
  const table = base[2] in MEMORY ? MEMORY : TIME
  if (!(m[2] in table)) return null
  return n * table[m[2]] / (table[base[2]] * Number(base[1] ?? 1))
}
