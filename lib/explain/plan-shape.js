// EXPLAIN's JSON plans as pgload shows and compares them: a node's one-line label as EXPLAIN's
// text format writes it, the plan as that text tree, its figures, and its shape (node types,
// relations and indexes, tree structure; no costs or timings) for compare's "plan changed".

/**
 * A node's label as EXPLAIN's text format writes it: `Index Scan using x on y`, `Hash Left Join`.
 * @param {Record<string, any>} node a plan node (EXPLAIN JSON's `Plan`)
 * @returns {string}
 */
export function nodeLabel (node) {
  let type = node['Node Type']
  if (type === 'ModifyTable') type = node.Operation ?? type
  else if (type === 'Aggregate') type = AGGREGATES[node.Strategy] ?? type
  const join = node['Join Type']
  if (join && join !== 'Inner' && /Join|Nested Loop/.test(type)) type = type === 'Nested Loop' ? `Nested Loop ${join} Join` : type.replace(/ Join$/, ` ${join} Join`)
  if (node['Parallel Aware']) type = `Parallel ${type}`
  let label = type
  if (node['Index Name']) label += ` using ${node['Index Name']}`
  if (node['Relation Name']) {
    label += ` on ${node['Relation Name']}`
    if (node.Alias && node.Alias !== node['Relation Name']) label += ` ${node.Alias}`
  }
  return label
}

const AGGREGATES = { Hashed: 'HashAggregate', Sorted: 'GroupAggregate', Mixed: 'MixedAggregate', Plain: 'Aggregate' }

/**
 * A replayed plan's figures for the results: its execution time and its top node.
 * @param {{ Plan: any, 'Execution Time'?: number }} plan one element of EXPLAIN's JSON
 * @returns {{ totalMs: number|null, topNode: string }}
 */
export function planFigures (plan) {
  return { totalMs: plan['Execution Time'] ?? null, topNode: nodeLabel(plan.Plan) }
}

// the conditions and counts EXPLAIN's text shows under a node, in its order
const DETAILS = ['Index Cond', 'Recheck Cond', 'Hash Cond', 'Merge Cond', 'Join Filter', 'Filter', 'Sort Key']

/**
 * The plan as EXPLAIN's text format draws it (the main lines: nodes with costs and actual
 * figures, their conditions, buffers, planning and execution times).
 * @param {{ Plan: any, 'Planning Time'?: number, 'Execution Time'?: number }} plan
 * @returns {string}
 */
export function planText (plan) {
  const lines = []
  drawNode(plan.Plan, 0, lines)
  if (plan['Planning Time'] !== undefined) lines.push(`Planning Time: ${plan['Planning Time']} ms`)
  if (plan['Execution Time'] !== undefined) lines.push(`Execution Time: ${plan['Execution Time']} ms`)
  return lines.join('\n')
}

function drawNode (node, depth, lines) {
  // EXPLAIN's text: each level 6 columns in, a child's arrow 4 columns before its label
  const pad = depth === 0 ? '' : ' '.repeat(6 * depth - 4) + '->  '
  const detailPad = ' '.repeat(6 * depth + 2)
  let head = `${pad}${nodeLabel(node)}  (cost=${node['Startup Cost']}..${node['Total Cost']} rows=${node['Plan Rows']} width=${node['Plan Width']})`
  if (node['Actual Loops'] !== undefined) {
    head += node['Actual Loops'] === 0
      ? ' (never executed)'
      : ` (actual time=${node['Actual Startup Time']}..${node['Actual Total Time']} rows=${node['Actual Rows']} loops=${node['Actual Loops']})`
  }
  lines.push(head)
  for (const key of DETAILS) {
    const v = node[key]
    if (v !== undefined) lines.push(`${detailPad}${key}: ${Array.isArray(v) ? v.join(', ') : v}`)
  }
  const buffers = bufferText(node)
  if (buffers) lines.push(`${detailPad}Buffers: ${buffers}`)
  for (const child of node.Plans ?? []) drawNode(child, depth + 1, lines)
}

function bufferText (node) {
  const parts = []
  for (const [scope, key] of [['shared', 'Shared'], ['local', 'Local'], ['temp', 'Temp']]) {
    const counts = ['Hit', 'Read', 'Dirtied', 'Written'].map((k) => [k.toLowerCase(), node[`${key} ${k} Blocks`]]).filter(([, n]) => n > 0)
    if (counts.length > 0) parts.push(`${scope} ${counts.map(([k, n]) => `${k}=${n}`).join(' ')}`)
  }
  return parts.join(', ')
}

/**
 * A plan's shape: its nodes in tree order, each as its depth and label (costs and timings left out).
 * @param {{ Plan: any }} plan
 * @returns {string[]} `depth:label` per node
 */
export function planShape (plan) {
  const out = []
  const walk = (node, depth) => {
    out.push(`${depth}:${nodeLabel(node)}`)
    for (const child of node.Plans ?? []) walk(child, depth + 1)
  }
  walk(plan.Plan, 0)
  return out
}

/**
 * How a plan's shape changed from `a` to `b`, as `Index Scan using x on y -> Seq Scan on y`: the
 * first scan of a relation that differs (how a table is read is what a DBA looks for first),
 * else the first node that differs; null when the shapes are the same.
 * @param {{ Plan: any }} a @param {{ Plan: any }} b
 * @returns {string|null}
 */
export function planChange (a, b) {
  const sa = planShape(a)
  const sb = planShape(b)
  if (sa.length === sb.length && sa.every((s, i) => s === sb[i])) return null
  return firstDifference(scansOf(a), scansOf(b)) ?? firstDifference(sa.map(labelOf), sb.map(labelOf))
}

const labelOf = (s) => s.slice(s.indexOf(':') + 1)

/** The labels of the plan's scans of relations, in tree order. */
function scansOf (plan) {
  const out = []
  const walk = (node) => {
    if (node['Relation Name'] && node['Node Type'] !== 'ModifyTable') out.push(nodeLabel(node))
    for (const child of node.Plans ?? []) walk(child)
  }
  walk(plan.Plan)
  return out
}

/** `x -> y` for the first place two lists differ, or null when they are the same. */
function firstDifference (xs, ys) {
  const n = Math.max(xs.length, ys.length)
  for (let i = 0; i < n; i++) if (xs[i] !== ys[i]) return `${xs[i] ?? '(nothing)'} -> ${ys[i] ?? '(nothing)'}`
  return null
}
