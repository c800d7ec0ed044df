// Field-by-field combination for the results merge: counters are added, whatever is not a counter
// is kept only when every partition agrees, so a merged document never shows one partition's
// figure as the whole run's.

import { isDeepStrictEqual } from 'node:util'

/** @param {unknown} v */
export const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const isCountMap = (v) => isPlainObject(v) && Object.values(v).every(isNum)

/**
 * Every key of several objects, in the order they first appear.
 * @param {(object|null|undefined)[]} list
 * @returns {string[]}
 */
export function unionKeys (list) {
  const keys = new Set()
  for (const o of list) if (isPlainObject(o)) for (const k of Object.keys(o)) keys.add(k)
  return [...keys]
}

/**
 * Add counters key by key: `{ '40001': 2 }` and `{ '40001': 1, '23505': 1 }` give
 * `{ '40001': 3, '23505': 1 }`.
 * @param {(Record<string, number>|null|undefined)[]} list
 * @returns {Record<string, number>}
 */
export function addCountMaps (list) {
  const out = {}
  for (const m of list) {
    if (!isPlainObject(m)) continue
    for (const [k, v] of Object.entries(m)) if (isNum(v)) out[k] = (out[k] ?? 0) + v
  }
  return out
}

/**
 * One value from the values of one field in several partitions: numbers added (the field is a
 * counter, or a rate over the same window), objects of numbers added key by key, booleans
 * or-ed (a flag any partition raised), all null stays null, anything else kept when every
 * partition has the same value. `undefined` means: leave the field out.
 * @param {unknown[]} values one per partition, `undefined` where a partition lacks the field
 * @returns {unknown}
 */
export function combineValues (values) {
  const present = values.filter((v) => v !== undefined)
  if (present.length === 0) return undefined
  const given = present.filter((v) => v !== null)
  if (given.length === 0) return null
  if (given.every(isNum)) return given.reduce((a, b) => a + b, 0)
  if (given.every((v) => typeof v === 'boolean')) return given.some(Boolean)
  if (given.every(isCountMap)) return addCountMaps(given)
  return present.every((v) => isDeepStrictEqual(v, present[0])) ? present[0] : undefined
}

/**
 * Combine objects field by field with `combine` (combineValues unless given), except the fields
 * in `derived`, which the caller computes: they keep their place in the key order (so a merged
 * document reads like a written one); fields that come out undefined are left out.
 * @param {(object|null|undefined)[]} list
 * @param {Record<string, () => unknown>} [derived]
 * @param {(values: unknown[]) => unknown} [combine]
 * @returns {Record<string, unknown>}
 */
export function combineObjects (list, derived = {}, combine = combineValues) {
  const out = {}
  for (const k of unionKeys(list)) {
    const v = Object.hasOwn(derived, k) ? derived[k]() : combine(list.map((o) => o?.[k]))
    if (v !== undefined) out[k] = v
  }
  return out
}

/**
 * The value every partition has, or undefined when they differ.
 * @param {unknown[]} values
 */
export function agreed (values) {
  return values.every((v) => isDeepStrictEqual(v, values[0])) ? values[0] : undefined
}
