// The rows of CH-benCHmark's three tables as COPY text, generated from the load's seed like the
// TPC-C population: the same seed gives the same suppliers, whatever loads them.

import { FastRandom } from '../tpcc/fast-random.js'
import { REGIONS, NATIONS, NATION_KEYS } from './nations.js'

/** Suppliers: one per value of the benchmark's stock-to-supplier key, mod(s_w_id * s_i_id, 10000). */
export const SUPPLIERS = 10000

// a stream key of its own, apart from the TPC-C tables' (which use small table numbers)
const STREAM = 0x43480000

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * The region, nation and supplier rows, tab-separated lines per table.
 * @param {bigint|number|string} seed
 * @returns {{ region: string, nation: string, supplier: string }}
 */
export function chbenchRows (seed) {
  const r = FastRandom.fromKeys(seed, STREAM)
  const region = REGIONS.map(([key, name]) => `${key}\t${name}\t${text(r, 31, 115)}\n`).join('')
  const nation = NATIONS.map(([key, name, regionKey]) => `${key}\t${name}\t${regionKey}\t${text(r, 31, 114)}\n`).join('')
  const lines = []
  for (let key = 0; key < SUPPLIERS; key++) {
    const nationKey = NATION_KEYS[r.int(0, NATION_KEYS.length - 1)]
    lines.push(`${key}\tSupplier#${String(key).padStart(9, '0')}\t${text(r, 10, 40)}\t${nationKey}\t${phone(r, nationKey)}\t${acctbal(r)}\t${text(r, 25, 100)}\n`)
  }
  return { region, nation, supplier: lines.join('') }
}

/** Random letters and digits, of a random length in [lo, hi]. */
function text (r, lo, hi) {
  const len = r.int(lo, hi)
  let s = ''
  for (let i = 0; i < len; i++) s += LETTERS[r.int(0, LETTERS.length - 1)]
  return s
}

/** TPC-H's phone format: a country code from the nation, then three groups of digits (15 characters). */
function phone (r, nationKey) {
  const country = String(10 + (nationKey % 90)).padStart(2, '0')
  return `${country}-${r.int(100, 999)}-${r.int(100, 999)}-${r.int(1000, 9999)}`
}

/** An account balance in [-999.99, 9999.99], as TPC-H's suppliers have. */
function acctbal (r) {
  const cents = r.int(-99999, 999999)
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}
