// Pieces shared by the five TPC-C transactions: transaction control statements, the
// remote-warehouse draw and the customer selection of clauses 2.5.1.2 and 2.6.1.2.

import { defineStatement } from '../../../lib/db/connection.js'
import { LAST_NAMES, NURAND_A, nurand } from '../nurand.js'

export const BEGIN = defineStatement('BEGIN')
export const BEGIN_READ_ONLY = defineStatement('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
export const COMMIT = defineStatement('COMMIT')
export const ROLLBACK = defineStatement('ROLLBACK')

// Every statement of the workload by its number (workload.js numbers them once, in one order in
// every thread), for the wait sampler's figures by statement.
const NUMBERS = new Map()

/**
 * Number the workload's statements: their place in `list`.
 * @param {import('../../../lib/db/connection.js').Statement[]} list
 */
export function numberStatements (list) {
  list.forEach((stmt, i) => NUMBERS.set(stmt, i))
}

/**
 * The transaction says which statement it runs next (the engine's ctx.statement), when it runs
 * on a terminal's connection.
 * @param {any} ctx the engine's transaction context, or null
 * @param {import('../../../lib/db/connection.js').Statement} stmt
 */
export function runs (ctx, stmt) {
  if (ctx !== null && ctx.statement !== undefined) ctx.statement(NUMBERS.get(stmt) ?? -1)
}

/**
 * @typedef {{ int(lo: number, hi: number): number, double(): number }} Random
 * @typedef {{ warehouses: number, c: { cLast: number, cId: number, olIId: number }, orders?: import('../order-log.js').OrderLog|null }} Shared
 *   run-wide values: warehouses in use, the NURand run constants, and with --failover the committed New-Orders
 * @typedef {{ w: number, d: number }} TerminalState the terminal's fixed (W_ID, D_ID)
 */

/**
 * A warehouse other than `home`, uniform over the others (home itself when there is only one).
 * @param {Random} random @param {number} home @param {number} warehouses
 */
export function otherWarehouse (random, home, warehouses) {
  if (warehouses < 2) return home
  const w = random.int(1, warehouses - 1)
  return w >= home ? w + 1 : w
}

/**
 * Customer selection: by last name (C_LAST = NURand(255, 0, 999) with the run constant) 60 %
 * of the time, else by C_ID = NURand(1023, 1, 3000). Sets `byName`, `cLast`, `cId` on `out`.
 * @param {Random} random @param {Shared} shared
 * @param {{ byName: boolean, cLast: string|null, cId: number }} out
 */
export function chooseCustomer (random, shared, out) {
  if (random.int(1, 100) <= 60) {
    out.byName = true
    out.cLast = LAST_NAMES[nurand(random, NURAND_A.cLast, shared.c.cLast, 0, 999)]
    out.cId = 0
  } else {
    out.byName = false
    out.cLast = null
    out.cId = nurand(random, NURAND_A.cId, shared.c.cId, 1, 3000)
  }
  return out
}

/**
 * The row to use among customers with the same last name sorted by C_FIRST: position n/2
 * rounded up (clause 2.5.2.2), i.e. index ceil(n / 2) - 1.
 * @param {number} n rows found
 */
export function middleIndex (n) {
  return Math.ceil(n / 2) - 1
}

/**
 * Amount text "12.34" as an integer number of cents (digits after the second decimal are
 * ignored). Read digit by digit: split and slice would make substrings, and V8 interns every
 * two-character one in its string table, a lookup per price of every New-Order line.
 * @param {string} s
 */
export function toCents (s) {
  const n = s.length
  const neg = n > 0 && s.charCodeAt(0) === 0x2d // '-'
  let i = neg ? 1 : 0
  let c = 0
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 0x30
    if (d === -2) break // '.'
    if (d < 0 || d > 9) return toCentsOfText(s)
    c = c * 10 + d
  }
  for (let k = 0, j = i + 1; k < 2; k++, j++) { // two decimals, zeros where the text has fewer
    let d = 0
    if (j < n) {
      d = s.charCodeAt(j) - 0x30
      if (d < 0 || d > 9) return toCentsOfText(s)
    }
    c = c * 10 + d
  }
  return neg ? -c : c
}

// Any other text (a sign, a space, an exponent): as Number reads its parts.
function toCentsOfText (s) {
  const neg = s[0] === '-'
  const [i, f = '0'] = (neg ? s.slice(1) : s).split('.')
  const c = Number(i) * 100 + Number((f + '00').slice(0, 2))
  return neg ? -c : c
}

/** Cents as text "12.34". @param {number} c */
export function fromCents (c) {
  const neg = c < 0
  const a = Math.abs(c)
  const f = a % 100
  return (neg ? '-' : '') + Math.floor(a / 100) + '.' + (f < 10 ? '0' : '') + f
}
