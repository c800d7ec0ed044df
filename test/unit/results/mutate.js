// Seeded damage to results files for the reader's fuzz tests: wrong types, nulls, huge numbers,
// corrupt histograms, truncated JSON and gzip. Each mutation says which field it touched.

import { gzipSync } from 'node:zlib'
import { memberPath } from '../../../lib/results/rules.js'

const JUNK = [
  null, 'fast', 'NaN', 'Infinity', '-1', '', -1, -0.5, 1.5, 1e308, 2 ** 60, true, false, [], {},
  [null], { x: [null, { y: 'z' }] }, 'x'.repeat(5000), [1, 'two', null], { histogram: 'HISTF' }
]

/** Every path in a document, as key lists (intervals sampled: they repeat one shape). */
export function paths (doc) {
  const out = []
  const walk = (v, keys) => {
    out.push(keys)
    if (v === null || typeof v !== 'object') return
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v)
    for (const [k, x] of entries) {
      if (Array.isArray(v) && keys.at(-1) === 'intervals' && k > 2 && k < v.length - 1) continue
      if (Array.isArray(v) && keys.at(-1) === 'series' && k > 1) continue
      walk(x, [...keys, k])
    }
  }
  walk(doc, [])
  return out.slice(1)
}

/** The path of a key list as the reader prints it. */
export const pathText = (keys) => keys.reduce((p, k) => memberPath(p, k), '')

const get = (doc, keys) => keys.reduce((v, k) => v?.[k], doc)

function histogramKeys (doc, rnd) {
  const list = paths(doc).filter((k) => typeof get(doc, k) === 'string' && get(doc, k).startsWith('HISTF'))
  return list.length ? rnd.pick(list) : null
}

// Ways to damage an encoded histogram, each keeping it a string.
const HISTOGRAM_DAMAGE = [
  (s, rnd) => s.slice(0, 1 + rnd.int(s.length - 1)), // cut anywhere
  (s, rnd) => s.slice(0, 4 * (1 + rnd.int(s.length / 4 - 1))), // cut on a base64 boundary
  (s, rnd) => { const i = rnd.int(s.length); return s.slice(0, i) + rnd.pick(['!', '*', ' ', '\n', 'é']) + s.slice(i + 1) },
  (s, rnd) => { const i = 8 + rnd.int(s.length - 8); return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1) },
  (s) => s + 'AAAA',
  (s) => Buffer.from('not a histogram at all').toString('base64'),
  (s, rnd) => recompress(s, rnd, 'deflate-cut'), // truncated deflate data, length fixed up
  (s, rnd) => recompress(s, rnd, 'length'), // compressed length that lies
  (s, rnd) => recompress(s, rnd, 'cookie'),
  (s, rnd) => recompress(s, rnd, 'byte') // one compressed byte changed
]

function recompress (s, rnd, how) {
  const buf = Buffer.from(s, 'base64')
  const data = buf.subarray(8, 8 + buf.readInt32BE(4))
  if (how === 'deflate-cut') {
    const cut = data.subarray(0, 1 + rnd.int(data.length - 1))
    const out = Buffer.alloc(8 + cut.length)
    buf.copy(out, 0, 0, 4)
    out.writeInt32BE(cut.length, 4)
    cut.copy(out, 8)
    return out.toString('base64')
  }
  const out = Buffer.from(buf)
  if (how === 'length') out.writeInt32BE(rnd.pick([0, -5, data.length + 1 + rnd.int(1000), 2 ** 31 - 1]), 4)
  else if (how === 'cookie') out.writeInt32BE(rnd.pick([0, 0x1c849303, 0x1c849301 + rnd.int(255)]), 0)
  else { const i = 8 + rnd.int(data.length); out[i] ^= 1 + rnd.int(255) }
  return out.toString('base64')
}

/**
 * One seeded mutation of a results document.
 * @param {object} base the parsed document (not modified)
 * @param {string} text its JSON text
 * @param {ReturnType<typeof import('../../helpers/seeded-random.js').seededRandom>} rnd
 * @returns {{ kind: string, bytes: Buffer, keys: (string|number)[] | null }} keys: the field touched
 *   (null when the damage is to the file, not a field)
 */
export function mutate (base, text, rnd) {
  const roll = rnd.int(100)
  if (roll < 8) return { kind: 'truncate-json', bytes: Buffer.from(text.slice(0, rnd.int(text.length))), keys: null }
  if (roll < 13) {
    const gz = gzipSync(text)
    return { kind: 'truncate-gzip', bytes: gz.subarray(0, 1 + rnd.int(gz.length - 1)), keys: null }
  }
  if (roll < 16) {
    // a number too large for a double, or a bare NaN, written into the text
    const m = rnd.pick([...text.matchAll(/":\s*(\d+(?:\.\d+)?)/g)])
    const at = m.index + m[0].length - m[1].length
    const value = rnd.pick(['1e999', '-1e999', 'NaN', '1' + '0'.repeat(400)])
    return { kind: 'number-text', bytes: Buffer.from(text.slice(0, at) + value + text.slice(at + m[1].length)), keys: null }
  }
  const doc = structuredClone(base)
  if (roll < 40) {
    const keys = histogramKeys(doc, rnd)
    if (keys) {
      const parent = get(doc, keys.slice(0, -1))
      parent[keys.at(-1)] = rnd.pick(HISTOGRAM_DAMAGE)(parent[keys.at(-1)], rnd)
      return { kind: 'histogram', bytes: Buffer.from(JSON.stringify(doc)), keys }
    }
  }
  const keys = rnd.pick(paths(doc))
  const parent = get(doc, keys.slice(0, -1))
  const key = keys.at(-1)
  let kind
  if (roll < 55 && !Array.isArray(parent)) {
    delete parent[key]
    kind = 'delete'
  } else if (roll < 62 && Array.isArray(get(doc, ['intervals'])) && doc.intervals.length > 1) {
    doc.intervals.reverse()
    return { kind: 'intervals-order', bytes: Buffer.from(JSON.stringify(doc)), keys: ['intervals'] }
  } else {
    parent[key] = structuredClone(rnd.pick(JUNK))
    kind = 'replace'
  }
  return { kind, bytes: Buffer.from(JSON.stringify(doc)), keys }
}
