// pgbench's operators on typed values (exprparse.y's functions +, -, *, /, mod, comparisons and
// bit operators): integers stay numbers while exact and become BigInt with int64 checks otherwise.

import { EvalError, T_BOOL, T_DBL, T_INT, T_NULL, TYPE_NAMES, INT64_MIN, doubleToInt, checkInt64, intToDouble, normInt, toBig } from './values.js'

/**
 * coerceToInt(): an int as it is, a double rounded with rint(); an EvalError for other types
 * and for doubles outside int64.
 * @param {number} t the value's type (T_*)
 * @param {any} v
 * @returns {number|bigint}
 */
export function toInt (t, v) {
  if (t === T_INT) return v
  if (t === T_DBL) return doubleToInt(v)
  throw new EvalError(`cannot coerce ${TYPE_NAMES[t]} to int`)
}

/**
 * coerceToDouble(): a double as it is, an int converted; else an EvalError.
 * @param {number} t the value's type (T_*)
 * @param {any} v
 * @returns {number}
 */
export function toDouble (t, v) {
  if (t === T_DBL) return v
  if (t === T_INT) return intToDouble(v)
  throw new EvalError(`cannot coerce ${TYPE_NAMES[t]} to double`)
}

/**
 * coerceToBool(): only a boolean is one; else an EvalError.
 * @param {number} t the value's type (T_*)
 * @param {any} v
 * @returns {boolean}
 */
export function toBool (t, v) {
  if (t === T_BOOL) return v
  throw new EvalError(`cannot coerce ${TYPE_NAMES[t]} to boolean`)
}

/** valueTruth(): NULL false, boolean itself, numbers non-zero. */
export function truth (t, v) {
  switch (t) {
    case T_BOOL: return v
    case T_INT: return v !== 0 && v !== 0n
    case T_DBL: return v !== 0
    default: return false
  }
}

function iadd (a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b
    if (Number.isSafeInteger(r)) return r + 0
  }
  return checkInt64(toBig(a) + toBig(b), 'add')
}
function isub (a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b
    if (Number.isSafeInteger(r)) return r + 0
  }
  return checkInt64(toBig(a) - toBig(b), 'sub')
}
function imul (a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b
    if (Number.isSafeInteger(r)) return r + 0
  }
  return checkInt64(toBig(a) * toBig(b), 'mul')
}
function idiv (a, b, isMod) {
  if (b === 0 || b === 0n) throw new EvalError('division by zero')
  if (b === -1 || b === -1n) {
    if (isMod) return 0
    if (a === INT64_MIN) throw new EvalError('bigint div out of range')
    return typeof a === 'number' ? -a + 0 : normInt(-a)
  }
  if (typeof a === 'number' && typeof b === 'number') {
    const m = a % b
    return isMod ? m + 0 : (a - m) / b + 0
  }
  const A = toBig(a)
  const B = toBig(b)
  return normInt(isMod ? A % B : A / B)
}

/** Operator codes of numericOp(). */
export const OPS = { '+': 0, '-': 1, '*': 2, '/': 3, mod: 4, '=': 5, '<>': 6, '<=': 7, '<': 8 }

/** The overloaded arithmetic and comparison operators (double if either side is double). */
export function numericOp (op, st, ta, a, tb, b) {
  if (ta === T_NULL || tb === T_NULL) { st.t = T_NULL; return null }
  if ((ta === T_DBL || tb === T_DBL) && op !== 4) {
    const x = toDouble(ta, a)
    const y = toDouble(tb, b)
    switch (op) {
      case 0: st.t = T_DBL; return x + y
      case 1: st.t = T_DBL; return x - y
      case 2: st.t = T_DBL; return x * y
      case 3: st.t = T_DBL; return x / y
      case 5: st.t = T_BOOL; return x === y
      case 6: st.t = T_BOOL; return x !== y
      case 7: st.t = T_BOOL; return x <= y
      default: st.t = T_BOOL; return x < y
    }
  }
  const x = toInt(ta, a)
  const y = toInt(tb, b)
  switch (op) {
    case 0: st.t = T_INT; return iadd(x, y)
    case 1: st.t = T_INT; return isub(x, y)
    case 2: st.t = T_INT; return imul(x, y)
    case 3: st.t = T_INT; return idiv(x, y, false)
    case 4: st.t = T_INT; return idiv(x, y, true)
    case 5: st.t = T_BOOL; return x === y
    case 6: st.t = T_BOOL; return x !== y
    case 7: st.t = T_BOOL; return x <= y
    default: st.t = T_BOOL; return x < y
  }
}

/**
 * The bit operators & | # << >> on two ints: int32 numbers directly, else 64-bit BigInt arithmetic.
 * @param {string} f the operator's function name ('&', '|', '#', '<<', '>>')
 * @param {number|bigint} x
 * @param {number|bigint} y
 * @returns {number|bigint}
 */
export function bitOp (f, x, y) {
  if (f !== '<<' && f !== '>>' && typeof x === 'number' && typeof y === 'number' &&
      x === (x | 0) && y === (y | 0)) {
    if (f === '&') return x & y
    if (f === '|') return x | y
    return x ^ y
  }
  const A = toBig(x)
  const B = toBig(y)
  let r
  switch (f) {
    case '&': r = A & B; break
    case '|': r = A | B; break
    case '#': r = A ^ B; break
    case '<<': r = A << (B & 63n); break
    default: r = A >> (B & 63n)
  }
  return normInt(BigInt.asIntN(64, r))
}
