// compare's plans: where both A and B carry a replayed plan (--explain-slowest, the results'
// `slowest`) for the same statement of a type (same SQL text), whether the plan's shape (node
// types, relations and indexes, tree structure; not costs or timings) changed, and how.

import { planChange } from '../explain/plan-shape.js'

/**
 * @typedef {{ type: string, statement: number, line: number, sql: string, change: string }} PlanChange
 *   statement: the script's command number, from 1
 */

/**
 * The statements whose plan changed from A to B.
 * @param {object[]} as results documents of A
 * @param {object[]} bs results documents of B
 * @returns {PlanChange[]} empty when no plan changed or a side has no plans
 */
export function planChanges (as, bs) {
  const a = plansOf(as)
  const b = plansOf(bs)
  const out = []
  for (const [key, pa] of a) {
    const pb = b.get(key)
    if (pb === undefined) continue
    const change = planChange(pa.plan, pb.plan)
    if (change !== null) out.push({ type: pa.type, statement: pa.command + 1, line: pa.line, sql: pa.sql, change })
  }
  return out
}

/**
 * One side's plans by type and SQL text: the slowest replayed transaction's plan of each statement.
 * @returns {Map<string, { type: string, command: number, line: number, sql: string, plan: any }>}
 */
function plansOf (docs) {
  const out = new Map()
  for (const d of docs) {
    if (d.slowest?.available !== true) continue
    for (const [type, list] of Object.entries(d.slowest.types ?? {})) {
      for (const t of list) {
        for (const s of t.statements) {
          const key = `${type}\u0000${s.sql}`
          if (s.plan && !out.has(key)) out.set(key, { type, command: s.command, line: s.line, sql: s.sql, plan: s.plan })
        }
      }
    }
  }
  return out
}

/**
 * The verdict's lines on changed plans: `plan changed for <type> statement N: X -> Y`.
 * @param {{ plans?: PlanChange[] }} v the compare verdict
 * @returns {string[]}
 */
export function planChangeLines (v) {
  return (v.plans ?? []).map((p) => `plan changed for ${p.type} statement ${p.statement} (line ${p.line}): ${p.change}`)
}
