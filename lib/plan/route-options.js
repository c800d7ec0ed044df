// --target and --route: transaction types (a script, a TPC-C type) that run on a server of their
// own, e.g. reads on a standby while writes stay on --url's primary. A whole transaction type is
// what is routed, so no transaction ever spans two servers. --staleness measures how far behind
// the routed reads are (lib/engine/staleness.js).

import { basename } from 'node:path'
import { PgloadError } from '../errors.js'
import { booleanOption } from './checks.js'
import { shownValue as shownText } from '../options/shown.js'
import { redact } from '../server/target/resolve-target.js'

/** The name of --url's server (the run's own target) among the targets. */
export const MAIN_TARGET = 'main'

// a URL's password never reaches a message
const shownValue = (value) => redact(shownText(value))
const bad = (message, hint) => new PgloadError(message, { code: 'BAD_OPTION', hint })
const NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/
// a connection string, not a target's name: a URI or key=value pairs
const isUrl = (text) => /:\/\/|=/.test(text)

/**
 * @typedef {{ type: string, target: string }} Route a transaction type and its target's name
 * @typedef {{ name: string, url: string }} RouteTarget
 */

/**
 * The routes and their targets from the input (--target NAME=URL..., --route TYPE=NAME-or-URL...).
 * @param {(key: string) => any} opt the caller's input by plan key
 * @returns {{ routes?: Route[], routeTargets?: RouteTarget[], staleness: boolean }}
 */
export function routeOptions (opt) {
  const named = new Map()
  for (const text of list(opt('routeTargets'), '--target')) {
    const [name, url] = split(text, '--target', 'NAME=URL')
    if (!NAME.test(name) || name === MAIN_TARGET) throw bad(`--target ${shownValue(text)}: a target's name is a word (letters, digits, _ . -) other than "${MAIN_TARGET}"`)
    if (named.has(name)) throw bad(`--target ${name} is given twice`)
    named.set(name, url)
  }
  const routes = []
  const used = new Map() // target name -> url, in the order routes name them
  let inline = 0
  for (const text of list(opt('routes'), '--route')) {
    const [type, to] = split(text, '--route', 'TYPE=TARGET')
    let target = to
    if (isUrl(to)) {
      target = [...used].find(([, url]) => url === to)?.[0] ?? `target-${++inline}`
      used.set(target, to)
    } else if (to !== MAIN_TARGET) {
      if (!named.has(to)) throw bad(`--route ${shownValue(text)}: no target named ${shownValue(to)}`, named.size ? `targets: ${[...named.keys()].join(', ')}` : 'name one with --target NAME=URL, or give the URL itself')
      used.set(to, named.get(to))
    }
    const earlier = routes.find((r) => r.type === type)
    if (earlier && earlier.target !== target) throw bad(`--route ${type} is given twice, to different targets: each transaction runs on one server`)
    if (!earlier) routes.push({ type, target })
  }
  for (const name of named.keys()) if (!used.has(name)) throw bad(`--target ${name} is not used by any --route`)
  const staleness = booleanOption(opt('staleness'), '--staleness', false)
  if (staleness && !routes.some((r) => r.target !== MAIN_TARGET)) throw bad('--staleness measures routed reads: it goes with --route TYPE=TARGET sending a type to another server')
  if (routes.length === 0) return { staleness }
  return { routes, routeTargets: [...used].map(([name, url]) => ({ name, url })), staleness }
}

/**
 * Each transaction type's target, by index into [main, ...routeTargets]: 0 for types not routed.
 * A route names a type by its name, or a script file by its file name without the directory.
 * @param {{ routes?: Route[], routeTargets?: RouteTarget[] }} plan
 * @param {{ name: string }[]} types the workload's transaction types
 * @returns {number[]}
 */
export function typeTargets (plan, types) {
  const out = types.map(() => 0)
  for (const route of plan.routes ?? []) {
    let index = types.findIndex((t) => t.name === route.type)
    if (index < 0) {
      const matches = types.flatMap((t, i) => basename(t.name) === route.type ? [i] : [])
      if (matches.length > 1) throw bad(`--route ${route.type}: several scripts are named so; give the path as -f gave it`)
      index = matches.length ? matches[0] : -1
    }
    if (index < 0) throw bad(`--route ${route.type}: no transaction type of that name in this run`, `types: ${types.map((t) => t.name).join(', ')}`)
    out[index] = route.target === MAIN_TARGET ? 0 : 1 + plan.routeTargets.findIndex((t) => t.name === route.target)
  }
  return out
}

// text as typed, or a resolved plan's own entries (replan: ab, sweep) as that text
function list (value, flag) {
  if (value === undefined || value === null) return []
  const items = (Array.isArray(value) ? value : [value]).map((v) => {
    if (typeof v === 'object' && v !== null && typeof v.type === 'string' && typeof v.target === 'string') return `${v.type}=${v.target}`
    if (typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.url === 'string') return `${v.name}=${v.url}`
    return v
  })
  for (const v of items) if (typeof v !== 'string') throw bad(`${flag} needs text, got ${shownValue(v)}`)
  return items
}

function split (text, flag, form) {
  const at = text.indexOf('=')
  const left = at > 0 ? text.slice(0, at).trim() : ''
  const right = at > 0 ? text.slice(at + 1).trim() : ''
  if (!left || !right) throw bad(`${flag} ${shownValue(text)} is not ${form}`)
  return [left, right]
}
