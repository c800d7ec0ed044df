// The `script` section (pgbench -r per-command statistics) of partitions of one run, merged.

import { agreed, combineObjects, isNum } from './merge-fields.js'

const SUMMED = new Set(['count', 'failures', 'retries'])

/**
 * Per-command counts, failures and retries added, the mean latency weighted by the counts; the
 * scripts' text, lines and weights as every partition has them.
 * @param {(object|null|undefined)[]} sections `script` of each partition
 * @returns {object|null|undefined}
 */
export function mergeScript (sections) {
  const given = sections.filter((s) => s !== null && s !== undefined)
  if (given.length === 0) return sections[0]
  return combineObjects(given, {}, (scripts) => {
    const present = scripts.filter((s) => s && typeof s === 'object')
    if (present.length === 0) return agreed(scripts)
    return combineObjects(present, { commands: () => mergeCommands(present.map((s) => s.commands)) }, agreed)
  })
}

/** @param {any[][]} lists */
function mergeCommands (lists) {
  const arrays = lists.filter(Array.isArray)
  if (arrays.length === 0) return undefined
  const n = Math.max(...arrays.map((a) => a.length))
  const out = []
  for (let i = 0; i < n; i++) {
    const cmds = arrays.map((a) => a[i]).filter((c) => c && typeof c === 'object')
    const count = cmds.reduce((a, c) => a + (isNum(c.count) ? c.count : 0), 0)
    const latencySum = cmds.reduce((a, c) => a + (isNum(c.count) && isNum(c.latencyMs) ? c.count * c.latencyMs : 0), 0)
    const sum = (k) => () => cmds.reduce((a, c) => a + (isNum(c[k]) ? c[k] : 0), 0)
    const derived = Object.fromEntries([...SUMMED].map((k) => [k, sum(k)]))
    derived.latencyMs = () => count > 0 ? latencySum / count : 0
    out.push(combineObjects(cmds, derived, agreed))
  }
  return out
}
