// The TPC-C initial population (clause 4.3.3.1) as COPY text, one unit of work at a time:
// an item block, a warehouse with its districts, a stock block, a district's customers and
// history, a district's orders with their new-orders and order lines.

import { FastRandom } from './fast-random.js'
import { LAST_NAMES, NURAND_A, nurand } from './nurand.js'
import { RowWriter } from './row-writer.js'

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

const B = (s) => Buffer.from(s, 'latin1')
const ORIGINAL = B('ORIGINAL')
const NULL = B('\\N')
const T = {
  wYtd: B('300000.00'),
  dYtd: B('30000.00'),
  oe: B('OE'),
  zipTail: B('11111'),
  gc: B('GC'),
  bc: B('BC'),
  custMoney: B('50000.00'),
  custTail: B('-10.00\t10.00\t1\t0'),
  zeros: B('0\t0\t0'),
  ten: B('10.00'),
  zero: B('0.00'),
  five: B('5')
}

/**
 * Random strings are slices of a 1 MiB pool of random characters drawn once per seed, at
 * random offsets and lengths: several times faster than drawing every character.
 */
export class TextPool {
  /** @param {number|bigint|string} seed */
  constructor (seed) {
    const r = FastRandom.fromKeys(seed, KEY.pool)
    this.alpha = new Uint8Array(POOL_SIZE)
    this.digits = new Uint8Array(POOL_SIZE)
    for (let i = 0; i < POOL_SIZE; i++) {
      this.alpha[i] = ALNUM.charCodeAt(r.int(0, ALNUM.length - 1))
      this.digits[i] = 48 + r.int(0, 9)
    }
    /** @type {Buffer[]} last names as bytes */
    this.lastNames = LAST_NAMES.map(B)
  }

  /** a-string of random length in [lo, hi]. @param {RowWriter} w @param {FastRandom} r @param {number} lo @param {number} hi */
  astring (w, r, lo, hi) {
    const len = lo === hi ? lo : r.int(lo, hi)
    w.slice(this.alpha, r.int(0, POOL_SIZE - len), len)
  }

  /** n-string of length len. @param {RowWriter} w @param {FastRandom} r @param {number} len */
  nstring (w, r, len) {
    w.slice(this.digits, r.int(0, POOL_SIZE - len), len)
  }

  /** Zip code: 4 random digits then "11111" (clause 4.3.2.7). @param {RowWriter} w @param {FastRandom} r */
  zip (w, r) {
    this.nstring(w, r, 4)
    w.fixed(T.zipTail)
  }

  /** a-string [26..50] with "ORIGINAL" at a random place in 10 % of rows (clause 4.3.3.1). @param {RowWriter} w @param {FastRandom} r */
  data (w, r) {
    const len = r.int(26, 50)
    const off = r.int(0, POOL_SIZE - len)
    if (r.int(1, 10) !== 1) { w.slice(this.alpha, off, len); return }
    const p = r.int(0, len - 8)
    w.slice(this.alpha, off, p)
    w.fixed(ORIGINAL)
    w.slice(this.alpha, off + p + 8, len - p - 8)
  }

  /** street_1, street_2, city, state, zip, tab-separated. @param {RowWriter} w @param {FastRandom} r */
  address (w, r) {
    this.astring(w, r, 10, 20); w.tab()
    this.astring(w, r, 10, 20); w.tab()
    this.astring(w, r, 10, 20); w.tab()
    this.astring(w, r, 2, 2); w.tab()
    this.zip(w, r)
  }
}

/** An integer number of hundredths as text with two decimals. @param {number} c */
export function cents (c) {
  return Math.floor(c / 100) + '.' + String(c % 100).padStart(2, '0')
}

/**
 * Rows of one unit of work, as COPY text chunks per table.
 */
class Rows {
  constructor () {
    /** @type {Map<string, RowWriter>} */
    this.writers = new Map()
    /** @type {Map<string, Buffer[]>} filled by done() */
    this.tables = new Map()
    this.count = 0
  }

  /** The writer of a table, positioned for one more row. @param {string} table */
  row (table) {
    let w = this.writers.get(table)
    if (!w) { w = new RowWriter(); this.writers.set(table, w) }
    w.row()
    this.count++
    return w
  }

  done () {
    for (const [t, w] of this.writers) this.tables.set(t, w.finish())
    return this
  }
}

/**
 * The lines of one table of a generated unit (for tests and tools; the loader sends the chunks).
 * @param {Rows} rows @param {string} table
 * @returns {string[]}
 */
export function unitLines (rows, table) {
  const text = Buffer.concat(rows.tables.get(table) ?? []).toString('latin1')
  return text === '' ? [] : text.slice(0, -1).split('\n')
}

/**
 * Generate one unit of work.
 * @param {{ kind: 'item'|'warehouse'|'stock'|'customer'|'orders', w?: number, d?: number, block?: number }} unit
 * @param {{ seed: number|bigint|string, cLoad: number, pool: TextPool, timestamp: string }} load
 * @returns {Rows} COPY text chunks per table in `tables`, and the row count
 */
export function generateUnit (unit, load) {
  const rows = new Rows()
  const ts = load.tsBytes ?? (load.tsBytes = B(load.timestamp))
  switch (unit.kind) {
    case 'item': itemRows(rows, unit, load, ts); break
    case 'warehouse': warehouseRows(rows, unit, load, ts); break
    case 'stock': stockRows(rows, unit, load, ts); break
    case 'customer': customerRows(rows, unit, load, ts); break
    case 'orders': orderRows(rows, unit, load, ts); break
    default:
      throw new Error(`unknown TPC-C load unit ${unit.kind}`)
  }
  return rows.done()
}

/**
 * The item table: one block of items.
 * @param {Rows} rows @param {any} unit @param {any} load @param {Uint8Array} ts
 */
function itemRows (rows, unit, load, ts) {
  const { pool } = load
  const r = FastRandom.fromKeys(load.seed, KEY.item, unit.block)
  const first = unit.block * SIZES.blockSize + 1
  for (let i = first; i < first + SIZES.blockSize; i++) {
    const w = rows.row('item')
    w.int(i); w.tab()
    w.int(r.int(1, 10000)); w.tab()
    pool.astring(w, r, 14, 24); w.tab()
    w.cents(r.int(100, 10000)); w.tab()
    pool.data(w, r); w.newline()
  }
}

/**
 * One warehouse row and its districts.
 * @param {Rows} rows @param {any} unit @param {any} load @param {Uint8Array} ts
 */
function warehouseRows (rows, unit, load, ts) {
  const { pool } = load
  const wid = unit.w
  const r = FastRandom.fromKeys(load.seed, KEY.warehouse, wid)
  const w = rows.row('warehouse')
  w.int(wid); w.tab()
  pool.astring(w, r, 6, 10); w.tab()
  pool.address(w, r); w.tab()
  w.fraction4(r.int(0, 2000)); w.tab()
  w.fixed(T.wYtd); w.newline()
  for (let d = 1; d <= SIZES.districtsPerWarehouse; d++) {
    const x = rows.row('district')
    x.int(d); x.tab(); x.int(wid); x.tab()
    pool.astring(x, r, 6, 10); x.tab()
    pool.address(x, r); x.tab()
    x.fraction4(r.int(0, 2000)); x.tab()
    x.fixed(T.dYtd); x.tab()
    x.int(SIZES.ordersPerDistrict + 1); x.newline()
  }
}

/**
 * The stock of one warehouse: one block of items.
 * @param {Rows} rows @param {any} unit @param {any} load @param {Uint8Array} ts
 */
function stockRows (rows, unit, load, ts) {
  const { pool } = load
  const wid = unit.w
  const r = FastRandom.fromKeys(load.seed, KEY.stock, wid, unit.block)
  const first = unit.block * SIZES.blockSize + 1
  for (let i = first; i < first + SIZES.blockSize; i++) {
    const w = rows.row('stock')
    w.int(i); w.tab(); w.int(wid); w.tab()
    w.int(r.int(10, 100))
    for (let k = 0; k < 10; k++) { w.tab(); pool.astring(w, r, 24, 24) }
    w.tab(); w.fixed(T.zeros); w.tab()
    pool.data(w, r); w.newline()
  }
}

/**
 * The customers of one district, each with its history row.
 * @param {Rows} rows @param {any} unit @param {any} load @param {Uint8Array} ts
 */
function customerRows (rows, unit, load, ts) {
  const { pool } = load
  const { w: wid, d } = unit
  const r = FastRandom.fromKeys(load.seed, KEY.customer, wid, d)
  for (let c = 1; c <= SIZES.customersPerDistrict; c++) {
    const last = c <= 1000 ? c - 1 : nurand(r, NURAND_A.cLast, load.cLoad, 0, 999)
    const w = rows.row('customer')
    w.int(c); w.tab(); w.int(d); w.tab(); w.int(wid); w.tab()
    pool.astring(w, r, 8, 16); w.tab()
    w.fixed(T.oe); w.tab()
    w.fixed(pool.lastNames[last]); w.tab()
    pool.address(w, r); w.tab()
    pool.nstring(w, r, 16); w.tab()
    w.fixed(ts); w.tab()
    w.fixed(r.int(1, 10) === 1 ? T.bc : T.gc); w.tab()
    w.fixed(T.custMoney); w.tab()
    w.fraction4(r.int(0, 5000)); w.tab()
    w.fixed(T.custTail); w.tab()
    pool.astring(w, r, 300, 500); w.newline()
    const h = rows.row('history')
    h.int(c); h.tab(); h.int(d); h.tab(); h.int(wid); h.tab(); h.int(d); h.tab(); h.int(wid); h.tab()
    h.fixed(ts); h.tab()
    h.fixed(T.ten); h.tab()
    pool.astring(h, r, 12, 24); h.newline()
  }
}

/**
 * The orders of one district: orders, new orders (the undelivered ones) and order lines.
 * @param {Rows} rows @param {any} unit @param {any} load @param {Uint8Array} ts
 */
function orderRows (rows, unit, load, ts) {
  const { pool } = load
  const { w: wid, d } = unit
  const r = FastRandom.fromKeys(load.seed, KEY.orders, wid, d)
  const n = SIZES.ordersPerDistrict
  // O_C_ID: a random permutation of 1..3000 (Fisher-Yates).
  const perm = new Int32Array(n)
  for (let i = 0; i < n; i++) perm[i] = i + 1
  for (let i = n - 1; i > 0; i--) {
    const j = r.int(0, i)
    const t = perm[i]; perm[i] = perm[j]; perm[j] = t
  }
  for (let o = 1; o <= n; o++) {
    const delivered = o < SIZES.firstUndeliveredOrder
    const olCnt = r.int(5, 15)
    const w = rows.row('orders')
    w.int(o); w.tab(); w.int(d); w.tab(); w.int(wid); w.tab()
    w.int(perm[o - 1]); w.tab()
    w.fixed(ts); w.tab()
    if (delivered) w.int(r.int(1, 10)); else w.fixed(NULL)
    w.tab(); w.int(olCnt); w.tab(); w.int(1); w.newline()
    if (!delivered) {
      const x = rows.row('new_order')
      x.int(o); x.tab(); x.int(d); x.tab(); x.int(wid); x.newline()
    }
    for (let l = 1; l <= olCnt; l++) {
      const x = rows.row('order_line')
      x.int(o); x.tab(); x.int(d); x.tab(); x.int(wid); x.tab()
      x.int(l); x.tab()
      x.int(r.int(1, SIZES.items)); x.tab()
      x.int(wid); x.tab()
      if (delivered) {
        x.fixed(ts); x.tab(); x.fixed(T.five); x.tab(); x.fixed(T.zero)
      } else {
        x.fixed(NULL); x.tab(); x.fixed(T.five); x.tab(); x.cents(r.int(1, 999999))
      }
      x.tab()
      pool.astring(x, r, 24, 24); x.newline()
    }
  }
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
