// The rules docs/architecture.md states about the rooms of lib/, checked on the import graph of the
// sources (static imports and dynamic ones with a literal specifier): no cycles between rooms, the engine imports no workload (nor the script
// language, nor the command line), the db room imports nothing above it.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, sourceFiles, importsOf, specifiersIn } from '../../helpers/import-graph.js'

/**
 * The room of a file, as docs/architecture.md counts them: a directory directly under lib/ with
 * all its sub-rooms (lib/server/stats is lib/server), each module directly in lib/ a room of its
 * own, and outside lib/ the top directory (workloads).
 * @param {string} file
 */
export function roomOf (file) {
  const parts = file.split('/')
  if (parts[0] !== 'lib') return parts[0]
  return parts.length > 2 ? `lib/${parts[1]}` : file
}

/** Room -> room -> the file imports that make the edge. */
function roomGraph () {
  const graph = new Map()
  for (const file of sourceFiles('lib')) {
    for (const target of importsOf(file)) {
      const from = roomOf(file)
      const to = roomOf(target)
      if (from === to) continue
      if (!graph.has(from)) graph.set(from, new Map())
      const edges = graph.get(from)
      if (!edges.has(to)) edges.set(to, [])
      edges.get(to).push(`${file} -> ${target}`)
    }
  }
  return graph
}

/**
 * The strongly connected components of more than one room (Tarjan's algorithm): each is a set of
 * rooms that import each other, directly or around a loop.
 * @param {Map<string, Map<string, string[]>>} graph
 * @returns {string[][]}
 */
export function roomCycles (graph) {
  let index = 0
  const idx = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const out = []
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++
    stack.push(v); onStack.add(v)
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))) } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) !== idx.get(v)) return
    const component = []
    let w
    do { w = stack.pop(); onStack.delete(w); component.push(w) } while (w !== v)
    if (component.length > 1) out.push(component.sort())
  }
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v)
  return out
}

// The imports inside one cycle, to say which to move.
function explain (graph, component) {
  const inside = new Set(component)
  const lines = []
  for (const from of component) {
    for (const [to, imports] of graph.get(from) ?? []) if (inside.has(to)) lines.push(...imports)
  }
  return `rooms ${component.join(', ')} import each other:\n  ${lines.join('\n  ')}`
}

const graph = roomGraph()

test('no import cycles between rooms', () => {
  const cycles = roomCycles(graph)
  assert.deepEqual(cycles.map((c) => explain(graph, c)), [])
})

test('the engine imports no workload, no script language and no command line', () => {
  const banned = ['workloads', 'lib/script', 'lib/cli']
  const found = banned.flatMap((room) => graph.get('lib/engine')?.get(room) ?? [])
  assert.deepEqual(found, [])
})

test('the db room imports nothing above it: only lib/db and the leaf modules errors.js and node-options.js', () => {
  const allowed = new Set(['lib/errors.js', 'lib/node-options.js'])
  const found = [...(graph.get('lib/db') ?? [])].filter(([to]) => !allowed.has(to)).flatMap(([, imports]) => imports)
  assert.deepEqual(found, [])
  // a leaf module imports nothing of pgload's, so the db room's floor stays the floor
  for (const leaf of allowed) assert.deepEqual(importsOf(leaf), [], `${leaf} is a leaf`)
})

test('the cycle finder finds a loop of three rooms and ignores a room importing itself', () => {
  const g = new Map([['a', new Map([['b', []]])], ['b', new Map([['c', []]])], ['c', new Map([['a', []]])], ['d', new Map([['a', []]])]])
  assert.deepEqual(roomCycles(g), [['a', 'b', 'c']])
  assert.deepEqual(roomCycles(new Map([['a', new Map([['b', []]])]])), [])
})

test('the graph holds the dynamic imports with a literal specifier: a module loaded when needed is still a dependency', () => {
  // lib/orchestration/ab/runner.js loads the embedded server's restart only for a restart
  assert.ok(importsOf('lib/orchestration/ab/runner.js').includes('lib/server/embedded/restart.js'))
  assert.ok(graph.get('lib/session')?.has('lib/benchmark.js'), 'lib/session/run-session.js loads measureBenchmark when it runs')
})

test('dynamic imports are read from code, not from JSDoc types, comments or computed specifiers', () => {
  const text = [
    "import { a } from './a.js'",
    "const { b } = await import('./b.js')",
    'const c = (await import("./c.js")).c',
    'const lazy = () => import(`./d.js`)',
    "/** @param {import('./typed.js').T} t */",
    '/**',
    " * @returns {typeof import('./typed-too.js').f}",
    ' */',
    "// const { e } = await import('./commented.js')",
    'const f = await import(name)',
    'const g = await import(`./${name}.js`)', // eslint-disable-line no-template-curly-in-string
    "x.import('./not-an-import.js')"
  ].join('\n')
  assert.deepEqual(specifiersIn(text), ['./a.js', './b.js', './c.js', './d.js'])
})

test('docs/architecture.md states the rules this file checks', () => {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
  for (const rule of [/no import cycles between rooms/i, /engine imports nothing from the command line, the workloads or the script language/,
    /db room imports nothing above it/, /test\/unit\/architecture\/import-graph\.test\.js/]) {
    assert.ok(rule.test(doc), `docs/architecture.md no longer says ${rule}`)
  }
})
