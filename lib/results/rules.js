// Small field rules for checking a parsed JSON document: each rule names the path of the first
// field that is wrong. Fields a rule does not list are accepted (newer writers add fields).

/** The first wrong field of a document: its path and what is wrong with it. */
export class FieldProblem extends Error {
  /**
   * @param {string} path e.g. `intervals[0].t`
   * @param {string} what e.g. `expected a number >= 0, got "fast"`
   */
  constructor (path, what) {
    super(`${path}: ${what}`)
    this.name = 'FieldProblem'
    this.path = path
    this.what = what
  }
}

/**
 * A figure that contradicts what it is derived from, as one line naming both values:
 * `summary.tps is 1e+308, but 5288 transactions over 3 s give 1762.667`.
 * @param {string} path
 * @param {unknown} stated the figure as written
 * @param {string} why what it derives from, and what that gives
 * @returns {FieldProblem}
 */
export function mismatch (path, stated, why) {
  const problem = new FieldProblem(path, `is ${describe(stated)}, but ${why}`)
  problem.message = `${path} is ${describe(stated)}, but ${why}`
  return problem
}

/** @typedef {(value: any, path: string) => void} Rule throws FieldProblem */

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/

/**
 * The path of a member: `a.b`, `a["/dev/stdin"]`, `a[3]`.
 * @param {string} path
 * @param {string | number} key
 */
export function memberPath (path, key) {
  if (typeof key === 'number') return `${path}[${key}]`
  if (IDENTIFIER.test(key) && key.length <= 40) return path ? `${path}.${key}` : key
  const shown = key.length > 40 ? `${key.slice(0, 37)}...` : key
  return `${path}[${JSON.stringify(shown)}]`
}

/**
 * A value as a message shows it: short, on one line.
 * @param {unknown} v
 */
export function describe (v) {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'object') return 'an object'
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : 'a number too large for a double'
  const text = JSON.stringify(v) ?? String(v)
  return text.length > 40 ? `${text.slice(0, 37)}..."` : text
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const fail = (path, expected, v) => { throw new FieldProblem(path, `expected ${expected}, got ${describe(v)}`) }

/**
 * A finite number, optionally an integer and at least `min`; null allowed with `nullable`.
 * @param {{ min?: number, integer?: boolean, nullable?: boolean }} [opts]
 * @returns {Rule}
 */
export function number ({ min, integer = false, nullable = false } = {}) {
  const expected = `${integer ? 'an integer' : 'a number'}${min === undefined ? '' : ` >= ${min}`}${nullable ? ' or null' : ''}`
  return (v, path) => {
    if (v === null && nullable) return
    if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || (min !== undefined && v < min)) fail(path, expected, v)
  }
}

/**
 * @param {{ nullable?: boolean }} [opts]
 * @returns {Rule}
 */
export function string ({ nullable = false } = {}) {
  return (v, path) => {
    if (typeof v !== 'string' && !(v === null && nullable)) fail(path, nullable ? 'a string or null' : 'a string', v)
  }
}

/** @type {Rule} */
export function boolean (v, path) {
  if (typeof v !== 'boolean') fail(path, 'true or false', v)
}

/**
 * A value any of the rules accepts; the message lists what was expected.
 * @param {string} expected
 * @param {...Rule} rules
 * @returns {Rule}
 */
export function either (expected, ...rules) {
  return (v, path) => {
    for (const rule of rules) {
      try {
        rule(v, path)
        return
      } catch (err) {
        if (!(err instanceof FieldProblem) || err.path !== path) throw err
      }
    }
    fail(path, expected, v)
  }
}

/**
 * An object with some known fields (each checked when present) and some required ones.
 * @param {Record<string, Rule>} fields
 * @param {{ required?: string[], nullable?: boolean }} [opts]
 * @returns {Rule}
 */
export function object (fields, { required = [], nullable = false } = {}) {
  const known = Object.entries(fields)
  return (v, path) => {
    if (v === null && nullable) return
    if (!isObject(v)) fail(path, nullable ? 'an object or null' : 'an object', v)
    // undefined is absent, as in the JSON text (documents are checked in memory too, by run --report)
    for (const key of required) if (v[key] === undefined || !Object.hasOwn(v, key)) throw new FieldProblem(memberPath(path, key), 'missing')
    for (const [key, rule] of known) if (v[key] !== undefined && Object.hasOwn(v, key)) rule(v[key], memberPath(path, key))
  }
}

/**
 * An object whose every value follows `rule` (counts by SQLSTATE, histograms by type).
 * @param {Rule} rule
 * @param {{ nullable?: boolean }} [opts]
 * @returns {Rule}
 */
export function mapOf (rule, { nullable = false } = {}) {
  return (v, path) => {
    if (v === null && nullable) return
    if (!isObject(v)) fail(path, nullable ? 'an object or null' : 'an object', v)
    for (const key of Object.keys(v)) if (v[key] !== undefined) rule(v[key], memberPath(path, key))
  }
}

/**
 * An array whose every entry follows `rule`.
 * @param {Rule} rule
 * @param {{ nullable?: boolean }} [opts]
 * @returns {Rule}
 */
export function arrayOf (rule, { nullable = false } = {}) {
  return (v, path) => {
    if (v === null && nullable) return
    if (!Array.isArray(v)) fail(path, nullable ? 'an array or null' : 'an array', v)
    for (let i = 0; i < v.length; i++) rule(v[i], memberPath(path, i))
  }
}

/**
 * Apply `rule`, then `check(value)`, which returns what is wrong or null.
 * @param {Rule} rule
 * @param {(v: any, path: string) => string | null} check
 * @returns {Rule}
 */
export function refine (rule, check) {
  return (v, path) => {
    rule(v, path)
    const what = check(v, path)
    if (what) throw new FieldProblem(path, what)
  }
}
