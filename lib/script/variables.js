// Per-terminal variables with slots resolved at load time: every name a script can read is
// known before the run, so a variable is an index into three parallel arrays.

import { T_INT, T_NONE, T_STR, valueToString } from './values.js'

/** Name → slot for all the scripts of one workload. */
export class VarRegistry {
  constructor () {
    /** @type {string[]} */
    this.names = []
    /** @type {Map<string, number>} */
    this.index = new Map()
  }

  /** The slot of a name, created on first use. @param {string} name */
  slotOf (name) {
    let s = this.index.get(name)
    if (s === undefined) {
      s = this.names.length
      this.names.push(name)
      this.index.set(name, s)
    }
    return s
  }

  /** @param {string} name @returns {number|undefined} */
  find (name) {
    return this.index.get(name)
  }
}

/** One terminal's variables: type code, typed value and cached string form per slot. */
export class VarStore {
  /** @param {VarRegistry} registry */
  constructor (registry) {
    const n = registry.names.length
    this.registry = registry
    this.types = new Uint8Array(n)
    this.vals = new Array(n).fill(null)
    /** @type {(string|undefined)[]} string form (pgbench's svalue), undefined until needed */
    this.strs = new Array(n).fill(undefined)
  }

  /** putVariable(): a string value, converted lazily when an expression reads it. */
  setString (slot, s) {
    this.types[slot] = T_STR
    this.vals[slot] = null
    this.strs[slot] = s
  }

  /** putVariableValue(): a typed value; the string form is computed when needed. */
  setValue (slot, t, v) {
    this.types[slot] = t
    this.vals[slot] = v
    this.strs[slot] = undefined
  }

  setInt (slot, v) { this.setValue(slot, T_INT, v) }

  /** getVariable(): the string form, or undefined when the variable does not exist. */
  getString (slot) {
    const t = this.types[slot]
    if (t === T_NONE) return undefined
    let s = this.strs[slot]
    if (s === undefined) {
      s = valueToString(t, this.vals[slot])
      this.strs[slot] = s
    }
    return s
  }

  /**
   * A bind parameter: an int32 as the number itself (the connection writes its digits without
   * making a string), anything else as getString; null when the variable does not exist.
   * @param {number} slot
   * @returns {number|string|null}
   */
  getParam (slot) {
    if (this.types[slot] === T_INT) {
      const v = this.vals[slot]
      if (typeof v === 'number' && v === (v | 0)) return v
    }
    return this.getString(slot) ?? null
  }

  /** @param {number} slot */
  isDefined (slot) { return this.types[slot] !== T_NONE }
}
