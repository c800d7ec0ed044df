// The TPC-C initial population (clause 4.3.3.1) as COPY text, one unit of work at a time:
// an item block, a warehouse with its districts, a stock block, a district's customers and
// history, a district's orders with their new-orders and order lines.

import { FastRandom } from './fast-random.js'
import { LAST_NAMES, NURAND_A, nurand } from './nurand.js'

/** Population sizes (clause 4.3.3.1). */
export const SIZES = Object.freeze({
  items: 100000, // ITEM rows, fixed
  stockPerWarehouse: 100000, // STOCK rows per warehouse
  districtsPerWarehouse: 10,
  customersPerDistrict: 3000,
  ordersPerDistrict: 3000,
  firstUndeliveredOrder: 2101, // orders 2101..3000 are new orders (900 per district)
  blockSize: 10000 // item and stock rows per unit of work
})

// Stream keys: each unit draws from FastRandom.fromKeys(seed, KEY.x, ...), so the data depend
// only on the seed, never on the number of jobs.
const KEY = { pool: 1, item: 2, warehouse: 3, stock: 4, customer: 5, orders: 6 }
const POOL_SIZE = 1 << 20
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * Random strings are slices of a 1 MiB pool of random characters drawn once per seed, at
 * random offsets and lengths: several times faster than drawing every character.
 */
export class TextPool {
  /** @param {number|bigint|string} seed */
  constructor (seed) {
    const r = FastRandom.fromKeys(seed, KEY.pool)
    const a = new Array(POOL_SIZE)
    const n = new Array(POOL_SIZE)
    for (let i = 0; i < POOL_SIZE; i++) {
      a[i] = ALNUM[r.int(0, ALNUM.length - 1)]
      n[i] = String.fromCharCode(48 + r.int(0, 9))
    }
    this.alpha = a.join('')
    this.digits = n.join('')
  }

  /** a-string of random length in [lo, hi]. @param {FastRandom} r @param {number} lo @param {number} hi */
  astring (r, lo, hi) {
    const len = lo === hi ? lo : r.int(lo, hi)
    const off = r.int(0, POOL_SIZE - len)
    return this.alpha.substring(off, off + len)
  }

  /** n-string of length len. @param {FastRandom} r @param {number} len */
  nstring (r, len) {
    const off = r.int(0, POOL_SIZE - len)
    return this.digits.substring(off, off + len)
  }

  /** Zip code: 4 random digits then "11111" (clause 4.3.2.7). @param {FastRandom} r */
  zip (r) {
    return this.nstring(r, 4) + '11111'
  }

  /** a-string [26..50] with "ORIGINAL" at a random place in 10 % of rows (clause 4.3.3.1). @param {FastRandom} r */
  data (r) {
    const s = this.astring(r, 26, 50)
    if (r.int(1, 10) !== 1) return s
    const p = r.int(0, s.length - 8)
    return s.substring(0, p) + 'ORIGINAL' + s.substring(p + 8)
  }

  /** street_1, street_2, city, state, zip, tab-separated. @param {FastRandom} r */
  address (r) {
    return this.astring(r, 10, 20) + '\t' + this.astring(r, 10, 20) + '\t' + this.astring(r, 10, 20) +
      '\t' + this.astring(r, 2, 2) + '\t' + this.zip(r)
  }
}

const PAD = Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' : '') + i)

/** An integer number of hundredths as text with two decimals. @param {number} c */
export function cents (c) {
  return Math.floor(c / 100) + '.' + PAD[c % 100]
}

/** A value in [0, 0.9999] given in ten-thousandths, as text with four decimals. @param {number} t */
function tenThousandths (t) {
  return '0.' + PAD[Math.floor(t / 100)] + PAD[t % 100]
}

/**
 * Rows of one unit of work, accumulated per table as COPY text.
 */
class Rows {
  constructor () {
    /** @type {Map<string, string[]>} */
    this.tables = new Map()
    this.count = 0
  }

  /** @param {string} table @param {string} line without the newline */
  add (table, line) {
    let list = this.tables.get(table)
    if (!list) { list = []; this.tables.set(table, list) }
    list.push(line)
    this.count++
  }
}

/**
 * Generate one unit of work.
 * @param {{ kind: 'item'|'warehouse'|'stock'|'customer'|'orders', w?: number, d?: number, block?: number }} unit
 * @param {{ seed: number|bigint|string, cLoad: number, pool: TextPool, timestamp: string }} load
 * @returns {Rows} rows per table (arrays of lines without newlines)
 */
export function generateUnit (unit, load) {
  const rows = new Rows()
  const { pool } = load
  switch (unit.kind) {
    case 'item': {
      const r = FastRandom.fromKeys(load.seed, KEY.item, unit.block)
      const first = unit.block * SIZES.blockSize + 1
      for (let i = first; i < first + SIZES.blockSize; i++) {
        rows.add('item', i + '\t' + r.int(1, 10000) + '\t' + pool.astring(r, 14, 24) + '\t' +
          cents(r.int(100, 10000)) + '\t' + pool.data(r))
      }
      break
    }
    case 'warehouse': {
      const w = unit.w
      const r = FastRandom.fromKeys(load.seed, KEY.warehouse, w)
      rows.add('warehouse', w + '\t' + pool.astring(r, 6, 10) + '\t' + pool.address(r) + '\t' +
        tenThousandths(r.int(0, 2000)) + '\t300000.00')
      for (let d = 1; d <= SIZES.districtsPerWarehouse; d++) {
        rows.add('district', d + '\t' + w + '\t' + pool.astring(r, 6, 10) + '\t' + pool.address(r) + '\t' +
          tenThousandths(r.int(0, 2000)) + '\t30000.00\t' + (SIZES.ordersPerDistrict + 1))
      }
      break
    }
    case 'stock': {
      const w = unit.w
      const r = FastRandom.fromKeys(load.seed, KEY.stock, w, unit.block)
      const first = unit.block * SIZES.blockSize + 1
      for (let i = first; i < first + SIZES.blockSize; i++) {
        let line = i + '\t' + w + '\t' + r.int(10, 100)
        for (let k = 0; k < 10; k++) line += '\t' + pool.astring(r, 24, 24)
        rows.add('stock', line + '\t0\t0\t0\t' + pool.data(r))
      }
      break
    }
    case 'customer': {
      const { w, d } = unit
      const r = FastRandom.fromKeys(load.seed, KEY.customer, w, d)
      const ts = load.timestamp
      for (let c = 1; c <= SIZES.customersPerDistrict; c++) {
        const last = c <= 1000 ? LAST_NAMES[c - 1] : LAST_NAMES[nurand(r, NURAND_A.cLast, load.cLoad, 0, 999)]
        const credit = r.int(1, 10) === 1 ? 'BC' : 'GC'
        rows.add('customer', c + '\t' + d + '\t' + w + '\t' + pool.astring(r, 8, 16) + '\tOE\t' + last + '\t' +
          pool.address(r) + '\t' + pool.nstring(r, 16) + '\t' + ts + '\t' + credit + '\t50000.00\t' +
          tenThousandths(r.int(0, 5000)) + '\t-10.00\t10.00\t1\t0\t' + pool.astring(r, 300, 500))
        rows.add('history', c + '\t' + d + '\t' + w + '\t' + d + '\t' + w + '\t' + ts + '\t10.00\t' + pool.astring(r, 12, 24))
      }
      break
    }
    case 'orders': {
      const { w, d } = unit
      const r = FastRandom.fromKeys(load.seed, KEY.orders, w, d)
      const ts = load.timestamp
      const n = SIZES.ordersPerDistrict
      // O_C_ID: a random permutation of 1..3000 (Fisher-Yates).
      const perm = new Int32Array(n)
      for (let i = 0; i < n; i++) perm[i] = i + 1
      for (let i = n - 1; i > 0; i--) {
        const j = r.int(0, i)
        const t = perm[i]; perm[i] = perm[j]; perm[j] = t
      }
      const prefix = '\t' + d + '\t' + w + '\t'
      for (let o = 1; o <= n; o++) {
        const delivered = o < SIZES.firstUndeliveredOrder
        const olCnt = r.int(5, 15)
        rows.add('orders', o + prefix + perm[o - 1] + '\t' + ts + '\t' + (delivered ? r.int(1, 10) : '\\N') + '\t' + olCnt + '\t1')
        if (!delivered) rows.add('new_order', o + '\t' + d + '\t' + w)
        for (let l = 1; l <= olCnt; l++) {
          rows.add('order_line', o + prefix + l + '\t' + r.int(1, SIZES.items) + '\t' + w + '\t' +
            (delivered ? ts + '\t5\t0.00\t' : '\\N\t5\t' + cents(r.int(1, 999999)) + '\t') + pool.astring(r, 24, 24))
        }
      }
      break
    }
    default:
      throw new Error(`unknown TPC-C load unit ${unit.kind}`)
  }
  return rows
}

/**
 * The units of each load phase for W warehouses.
 * @param {number} warehouses
 * @returns {{ name: string, tables: string[], units: object[] }[]}
 */
export function loadPhases (warehouses) {
  const blocks = SIZES.items / SIZES.blockSize
  const phases = [
    { name: 'item', tables: ['item'], units: [] },
    { name: 'warehouse, district', tables: ['warehouse', 'district'], units: [] },
    { name: 'stock', tables: ['stock'], units: [] },
    { name: 'customer, history', tables: ['customer', 'history'], units: [] },
    { name: 'orders, new_order, order_line', tables: ['orders', 'new_order', 'order_line'], units: [] }
  ]
  for (let b = 0; b < blocks; b++) phases[0].units.push({ kind: 'item', block: b })
  for (let w = 1; w <= warehouses; w++) {
    phases[1].units.push({ kind: 'warehouse', w })
    for (let b = 0; b < blocks; b++) phases[2].units.push({ kind: 'stock', w, block: b })
    for (let d = 1; d <= SIZES.districtsPerWarehouse; d++) {
      phases[3].units.push({ kind: 'customer', w, d })
      phases[4].units.push({ kind: 'orders', w, d })
    }
  }
  return phases
}

/**
 * Expected row count of a phase's units (for progress totals).
 * @param {number} warehouses
 */
export function expectedRows (warehouses) {
  const perW = SIZES.stockPerWarehouse + 1 + SIZES.districtsPerWarehouse +
    SIZES.districtsPerWarehouse * (2 * SIZES.customersPerDistrict + SIZES.ordersPerDistrict +
      (SIZES.ordersPerDistrict - SIZES.firstUndeliveredOrder + 1) + SIZES.ordersPerDistrict * 10)
  return SIZES.items + warehouses * perW
}
