// Compiles an expression AST once into closures that evaluate with pgbench's typing rules.
// A closure returns the value and leaves its type code in st.t: no allocation per evaluation.

import { exponentialRand, gaussianRand, zipfianRand } from '../random/distributions.js'
import { hashFnv1a, hashMurmur2 } from '../random/hash.js'
import { permute } from '../random/permute.js'
import { EvalError, T_BOOL, T_DBL, T_INT, T_NONE, T_NULL, T_STR, debugString, formatF, normInt, stringToValue, toBig } from './values.js'
import { OPS, bitOp, numericOp, toBool, toDouble, toInt, truth } from './operators.js'

const MAX_FARGS = 16

/**
 * The evaluation state a closure reads: one per terminal, reused.
 * @typedef {{ t: number, vars: import('./variables.js').VarStore, random: import('../random/prng.js').Prng,
 *   scriptIndex: number, commandIndex: number, debugWrite: (line: string) => void, conv: { v: any } }} EvalState
 */

function pow (x, y) {
  if (x === 1) return 1
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1
  return Math.pow(x, y)
}

function randomRange (lb, ub) {
  if (lb > ub) throw new EvalError('empty range given to random')
  const d = toBig(ub) - toBig(lb) + 1n
  if (d > 9223372036854775807n) throw new EvalError('random range is too large')
}

function canon (v) { return typeof v === 'bigint' ? normInt(v) : v }

/**
 * Compile an AST into a closure.
 * @param {object} node
 * @param {(name: string) => number} slotOf variable name → slot
 * @returns {(st: EvalState) => any}
 */
export function compileExpr (node, slotOf) {
  switch (node.k) {
    case 'const': {
      const t = node.t
      const v = node.t === T_INT ? canon(node.v) : node.v
      return (st) => { st.t = t; return v }
    }
    case 'var': return compileVar(node.name, slotOf(node.name))
    case 'chain': return compileChain(node, slotOf)
    default: return compileFunc(node, slotOf)
  }
}

// A plain loop, not map(): compiling recurses once per nesting level, and each frame counts.
function compileArgs (nodes, slotOf) {
  const out = new Array(nodes.length)
  for (let i = 0; i < nodes.length; i++) out[i] = compileExpr(nodes[i], slotOf)
  return out
}

function compileVar (name, slot) {
  return (st) => {
    const vars = st.vars
    let t = vars.types[slot]
    if (t === T_STR) {
      t = stringToValue(name, vars.strs[slot], st.conv)
      vars.vals[slot] = st.conv.v
      vars.types[slot] = t
    } else if (t === T_NONE) {
      throw new EvalError(`undefined variable "${name}"`)
    }
    st.t = t
    return vars.vals[slot]
  }
}

// A long run of one precedence level (`1 + 2 - 3 ...`, `a and b and ...`): a loop over the
// operands, in the order and with the result of the nested binary nodes pgbench evaluates.
function compileChain (node, slotOf) {
  const args = compileArgs(node.args, slotOf)
  const n = args.length
  const fs = node.fs
  if (fs[0] === '!and' || fs[0] === '!or') {
    // a NULL operand makes the rest NULL; false ends an AND chain, true an OR chain
    const isAnd = fs[0] === '!and'
    return (st) => {
      for (let i = 0; i < n; i++) {
        const v = args[i](st)
        if (st.t === T_NULL) return null
        const b = toBool(st.t, v)
        if (isAnd ? !b : b) { st.t = T_BOOL; return b }
      }
      st.t = T_BOOL
      return isAnd
    }
  }
  const ops = fs.map(chainOp)
  return (st) => {
    let acc = args[0](st)
    let ta = st.t
    for (let i = 1; i < n; i++) {
      const b = args[i](st)
      acc = ops[i - 1](st, ta, acc, st.t, b)
      ta = st.t
    }
    return acc
  }
}

/** One binary operator of a chain as (st, ta, a, tb, b) → value, its type left in st.t. */
function chainOp (f) {
  const op = OPS[f]
  if (op !== undefined) return (st, ta, a, tb, b) => numericOp(op, st, ta, a, tb, b)
  return (st, ta, a, tb, b) => {
    if (ta === T_NULL || tb === T_NULL) { st.t = T_NULL; return null }
    const r = bitOp(f, toInt(ta, a), toInt(tb, b))
    st.t = T_INT
    return r
  }
}

/**
 * AND / OR with pgbench's short circuit: the right side is evaluated only when it decides.
 * @param {boolean} isAnd
 * @param {Function[]} args two compiled operands
 */
function compileLogical (isAnd, [l, r]) {
  return (st) => {
    const a = l(st)
    if (st.t === T_NULL) return null
    const ba = toBool(st.t, a)
    if (isAnd ? !ba : ba) { st.t = T_BOOL; return ba }
    const b = r(st)
    if (st.t === T_NULL) return null
    const bb = toBool(st.t, b)
    st.t = T_BOOL
    return bb
  }
}

/**
 * random(lb, ub) on the terminal's generator, without the general path's argument buffers.
 * @param {Function[]} args two compiled bounds
 */
function compileRandom ([l, r]) {
  return (st) => {
    const a = l(st)
    const ta = st.t
    const b = r(st)
    const tb = st.t
    if (ta === T_NULL || tb === T_NULL) { st.t = T_NULL; return null }
    const lb = toInt(ta, a)
    const ub = toInt(tb, b)
    if (typeof lb !== 'number' || typeof ub !== 'number' || lb > ub) randomRange(lb, ub)
    st.t = T_INT
    return canon(st.random.int(lb, ub))
  }
}

function compileFunc (node, slotOf) {
  const f = node.f
  const args = compileArgs(node.args, slotOf)
  const n = args.length

  // lazy ones
  if (f === '!and' || f === '!or') return compileLogical(f === '!and', args)
  if (f === '!case_end') {
    return (st) => {
      let i = 0
      for (; i + 1 < n; i += 2) {
        const c = args[i](st)
        if (truth(st.t, c)) return args[i + 1](st)
      }
      return args[n - 1](st)
    }
  }

  // binary numeric operators: a fast path for two plain integers
  const op = OPS[f]
  if (op !== undefined) {
    const [l, r] = args
    if (op === 0 || op === 1 || op === 2) {
      return (st) => {
        const a = l(st)
        const ta = st.t
        const b = r(st)
        const tb = st.t
        if (ta === T_INT && tb === T_INT && typeof a === 'number' && typeof b === 'number') {
          const v = op === 0 ? a + b : op === 1 ? a - b : a * b
          if (Number.isSafeInteger(v)) { st.t = T_INT; return v + 0 }
        }
        return numericOp(op, st, ta, a, tb, b)
      }
    }
    return (st) => {
      const a = l(st)
      const ta = st.t
      const b = r(st)
      return numericOp(op, st, ta, a, st.t, b)
    }
  }

  if (f === 'random') return compileRandom(args)

  // the general path: evaluate every argument (at most 16) into per-node buffers
  const vals = new Array(Math.min(n, MAX_FARGS))
  const types = new Uint8Array(Math.min(n, MAX_FARGS))
  const impl = FUNCS[f]
  if (impl === undefined) throw new Error(`no implementation for function ${f}`)
  const nullOk = f === '!is' || f === 'debug'
  return (st) => {
    let hasNull = false
    for (let i = 0; i < n; i++) {
      if (i === MAX_FARGS) throw new EvalError(`too many function arguments, maximum is ${MAX_FARGS}`)
      vals[i] = args[i](st)
      types[i] = st.t
      if (st.t === T_NULL) hasNull = true
    }
    if (hasNull && !nullOk) { st.t = T_NULL; return null }
    return impl(st, vals, types, n)
  }
}

function randomDist (kind) {
  return (st, v, t) => {
    const lb = toInt(t[0], v[0])
    const ub = toInt(t[1], v[1])
    randomRange(lb, ub)
    const p = toDouble(t[2], v[2])
    let r
    if (kind === 'gaussian') {
      if (p < 2.0) throw new EvalError(`gaussian parameter must be at least 2.000000 (not ${formatF(p)})`)
      r = gaussianRand(st.random, lb, ub, p)
    } else if (kind === 'zipfian') {
      if (p < 1.001 || p > 1000) throw new EvalError(`zipfian parameter must be in range [1.001, 1000] (not ${formatF(p)})`)
      r = zipfianRand(st.random, lb, ub, p)
    } else {
      if (p <= 0.0) throw new EvalError(`exponential parameter must be greater than zero (not ${formatF(p)})`)
      r = exponentialRand(st.random, lb, ub, p)
    }
    st.t = T_INT
    return canon(r)
  }
}

function doubleFn (fn) {
  return (st, v, t) => { const d = toDouble(t[0], v[0]); st.t = T_DBL; return fn(d) }
}

function extremum (isLeast) {
  return (st, v, t, n) => {
    let dbl = false
    for (let i = 0; i < n; i++) if (t[i] === T_DBL) { dbl = true; break }
    if (dbl) {
      let m = toDouble(t[0], v[0])
      for (let i = 1; i < n; i++) {
        const d = toDouble(t[i], v[i])
        // C's Min/Max macros: (x < y ? x : y)
        m = isLeast ? (m < d ? m : d) : (m > d ? m : d)
      }
      st.t = T_DBL
      return m
    }
    let m = toInt(t[0], v[0])
    for (let i = 1; i < n; i++) {
      const x = toInt(t[i], v[i])
      m = isLeast ? (m < x ? m : x) : (m > x ? m : x)
    }
    st.t = T_INT
    return m
  }
}

const FUNCS = {
  '&': (st, v, t) => { const r = bitOp('&', toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return r },
  '|': (st, v, t) => { const r = bitOp('|', toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return r },
  '#': (st, v, t) => { const r = bitOp('#', toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return r },
  '<<': (st, v, t) => { const r = bitOp('<<', toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return r },
  '>>': (st, v, t) => { const r = bitOp('>>', toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return r },
  '!not': (st, v, t) => { const b = toBool(t[0], v[0]); st.t = T_BOOL; return !b },
  pi: (st) => { st.t = T_DBL; return Math.PI },
  abs: (st, v, t) => {
    if (t[0] === T_INT) {
      const i = v[0]
      st.t = T_INT
      if (typeof i === 'number') return i < 0 ? -i : i
      return i < 0n ? normInt(BigInt.asIntN(64, -i)) : i
    }
    st.t = T_DBL
    const d = t[0] === T_DBL ? v[0] : Number(v[0])
    return d < 0 ? -d : d
  },
  debug: (st, v, t) => {
    st.debugWrite(`debug(script=${st.scriptIndex},command=${st.commandIndex + 1}): ${debugString(t[0], v[0])}\n`)
    st.t = t[0]
    return v[0]
  },
  double: doubleFn(d => d),
  sqrt: doubleFn(Math.sqrt),
  ln: doubleFn(Math.log),
  exp: doubleFn(Math.exp),
  int: (st, v, t) => { const i = toInt(t[0], v[0]); st.t = T_INT; return i },
  least: extremum(true),
  greatest: extremum(false),
  random_exponential: randomDist('exponential'),
  random_gaussian: randomDist('gaussian'),
  random_zipfian: randomDist('zipfian'),
  pow: (st, v, t) => { const x = toDouble(t[0], v[0]); const y = toDouble(t[1], v[1]); st.t = T_DBL; return pow(x, y) },
  power: (st, v, t) => { const x = toDouble(t[0], v[0]); const y = toDouble(t[1], v[1]); st.t = T_DBL; return pow(x, y) },
  '!is': (st, v, t) => { st.t = T_BOOL; return t[0] === t[1] && (t[0] !== T_BOOL || v[0] === v[1]) },
  hash: (st, v, t) => { const r = hashMurmur2(toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return normInt(r) },
  hash_murmur2: (st, v, t) => { const r = hashMurmur2(toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return normInt(r) },
  hash_fnv1a: (st, v, t) => { const r = hashFnv1a(toInt(t[0], v[0]), toInt(t[1], v[1])); st.t = T_INT; return normInt(r) },
  permute: (st, v, t) => {
    const val = toInt(t[0], v[0])
    const size = toInt(t[1], v[1])
    const seed = toInt(t[2], v[2])
    if (size <= 0) throw new EvalError('permute size parameter must be greater than zero')
    st.t = T_INT
    return normInt(permute(val, size, seed))
  }
}
