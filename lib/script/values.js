// pgbench's value model: NULL, boolean, int64 and double, their string forms, and the lazy
// conversion of string variables. int64 is a JS number when |v| < 2^53, a BigInt beyond.

/** Type codes kept beside each value (evaluation returns the value and sets a type register). */
export const T_NONE = 0 // variable not defined
export const T_STR = 1 // a string not converted yet (-D, \gset, \aset)
export const T_NULL = 2
export const T_BOOL = 3
export const T_INT = 4
export const T_DBL = 5

export const TYPE_NAMES = ['none', 'string', 'null', 'boolean', 'int', 'double']

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n
const SAFE_MIN = -9007199254740991n
const SAFE_MAX = 9007199254740991n

/** An evaluation failure: the client aborts with pgbench's message. */
export class EvalError extends Error {
  constructor (message) {
    super(message)
    this.name = 'EvalError'
  }
}

/**
 * Canonical int64: a number when it is a safe integer, a BigInt otherwise.
 * @param {bigint} b a value already known to fit int64
 */
export function normInt (b) {
  return b >= SAFE_MIN && b <= SAFE_MAX ? Number(b) : b
}

/** @param {number|bigint} v */
export function toBig (v) {
  return typeof v === 'bigint' ? v : BigInt(v)
}

/**
 * Check an int64 result computed exactly as a BigInt.
 * @param {bigint} b
 * @param {string} what add | sub | mul
 */
export function checkInt64 (b, what) {
  if (b < INT64_MIN || b > INT64_MAX) throw new EvalError(`bigint ${what} out of range`)
  return normInt(b)
}

/** C's rint(): round half to even. */
export function rint (x) {
  const r = Math.round(x)
  if (r - x === 0.5 && r % 2 !== 0) return r - 1
  return r
}

/**
 * coerceToInt() for a double: rint, then FLOAT8_FITS_IN_INT64.
 * @param {number} d
 * @returns {number|bigint}
 */
export function doubleToInt (d) {
  const r = rint(d)
  if (Number.isNaN(r) || !(r >= -9223372036854775808 && r < 9223372036854775808)) {
    throw new EvalError(`double to int overflow for ${formatF(r)}`)
  }
  return Number.isSafeInteger(r) ? r : BigInt(r)
}

/** int64 → double, as C converts. */
export function intToDouble (v) {
  return typeof v === 'bigint' ? Number(v) : v
}

/** printf("%f") with PostgreSQL's snprintf spelling of infinities and NaN. */
export function formatF (x) {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity'
  if (Math.abs(x) >= 1e21) return BigInt(x).toString() + '.000000'
  const s = x.toFixed(6)
  return (Object.is(x, -0) || (x < 0 && s[0] !== '-')) ? '-' + s : s
}

/** printf("%.15g") with PostgreSQL's spelling of infinities and NaN. */
export function formatG15 (x) {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity'
  if (x === 0) return Object.is(x, -0) ? '-0' : '0'
  const e = x.toExponential(14)
  const at = e.indexOf('e')
  const exp = Number(e.slice(at + 1))
  if (exp < -4 || exp >= 15) {
    let mant = e.slice(0, at)
    if (mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '')
    const a = Math.abs(exp)
    return `${mant}e${exp < 0 ? '-' : '+'}${a < 10 ? '0' + a : a}`
  }
  let s = x.toFixed(14 - exp)
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '')
  return s
}

/**
 * The string form of a typed value (getVariable): int decimal, double %.15g, boolean, NULL.
 * @param {number} t type code
 * @param {any} v
 */
export function valueToString (t, v) {
  switch (t) {
    case T_INT: return typeof v === 'number' ? String(v) : v.toString()
    case T_DBL: return formatG15(v)
    case T_BOOL: return v ? 'true' : 'false'
    case T_NULL: return 'NULL'
    case T_STR: return v
    default: return undefined
  }
}

/** debug() output after the prefix. */
export function debugString (t, v) {
  switch (t) {
    case T_NULL: return 'null'
    case T_BOOL: return `boolean ${v ? 'true' : 'false'}`
    case T_INT: return `int ${typeof v === 'number' ? String(v) : v.toString()}`
    case T_DBL: return `double ${formatG15(v)}`
    default: return 'none'
  }
}

const INT_RE = /^[ \t\n\v\f\r]*[+-]?[0-9]*$/
const DBL_RE = /^[ \t\n\v\f\r]*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)$/i

function prefixOf (s, word) {
  return s.length <= word.length && word.startsWith(s)
}

/**
 * strtoint64 with error: parse a string already matching is_an_int.
 * @param {string} s
 * @returns {number|bigint}
 */
export function parseInt64 (s) {
  const t = s.trim()
  if (!/^[+-]?[0-9]+$/.test(t)) throw new EvalError(`invalid input syntax for type bigint: "${s}"`)
  const b = BigInt(t)
  if (b < INT64_MIN || b > INT64_MAX) throw new EvalError(`value "${s}" is out of range for type bigint`)
  return normInt(b)
}

/**
 * strtod() that must consume the whole string; null when it fails or overflows (ERANGE).
 * @param {string} s
 * @returns {number|null}
 */
export function parseDouble (s) {
  if (!DBL_RE.test(s)) return null
  const t = s.trim().toLowerCase()
  const body = t.replace(/^[+-]/, '')
  if (body.startsWith('inf')) return t[0] === '-' ? -Infinity : Infinity
  if (body === 'nan') return NaN
  const d = Number(t)
  if (!Number.isFinite(d)) return null
  if (d === 0 && /[1-9]/.test(body.replace(/e.*$/, ''))) return null // underflow
  return d
}

/**
 * makeVariableValue(): the typed value of a string variable, in pgbench's order of tries.
 * Returns the type code; the value is left in out.v.
 * @param {string} name
 * @param {string} s
 * @param {{ v: any }} out
 * @returns {number}
 */
export function stringToValue (name, s, out) {
  const slen = s.length
  if (slen === 0) throw new EvalError(`malformed variable "${name}" value: ""`)
  const low = s.toLowerCase()
  if (low === 'null') { out.v = null; return T_NULL }
  if (prefixOf(low, 'true') || prefixOf(low, 'yes') || low === 'on') { out.v = true; return T_BOOL }
  if (prefixOf(low, 'false') || prefixOf(low, 'no') || low === 'off' || low === 'of') { out.v = false; return T_BOOL }
  if (INT_RE.test(s)) { out.v = parseInt64(s); return T_INT }
  const d = parseDouble(s)
  if (d === null) throw new EvalError(`malformed variable "${name}" value: "${s}"`)
  out.v = d
  return T_DBL
}

const NAME_RE = /^[A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*$/

/** valid_variable_name(): letters, digits, underscore and non-ASCII; no leading digit. */
export function validVariableName (name) {
  return NAME_RE.test(name)
}
