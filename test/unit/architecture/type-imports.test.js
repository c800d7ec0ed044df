// A JSDoc type belongs to the room that owns the data: a type import (`@param {import('x').T}`)
// is a dependency like any other, so no two rooms point at each other even through types.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join, dirname, relative, resolve, sep } from 'node:path'
import { ROOT, sourceFiles, importsOf } from '../../helpers/import-graph.js'
import { roomOf } from './import-graph.test.js'

const TYPE_IMPORT = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g

/** The relative modules a file's text names in type imports, resolved from the root. */
function typeImportsOf (file) {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(TYPE_IMPORT)].map((m) => relative(ROOT, resolve(ROOT, dirname(file), m[1])).split(sep).join('/'))
}

test('no two rooms point at each other, counting JSDoc type imports', () => {
  const edges = new Map()
  const add = (from, to, file, target) => {
    if (from === to) return
    const key = `${from} -> ${to}`
    if (!edges.has(key)) edges.set(key, `${file} -> ${target}`)
  }
  for (const file of sourceFiles('lib')) {
    for (const target of [...importsOf(file), ...typeImportsOf(file)]) {
      if (!target.startsWith('lib/')) continue
      add(roomOf(file), roomOf(target), file, target)
    }
  }
  const mutual = []
  for (const key of edges.keys()) {
    const [from, to] = key.split(' -> ')
    if (from < to && edges.has(`${to} -> ${from}`)) mutual.push(`${from} <-> ${to}: ${edges.get(key)}; ${edges.get(`${to} -> ${from}`)}`)
  }
  assert.deepEqual(mutual, [])
})

test('every JSDoc type import names a module that exists', () => {
  const missing = []
  for (const file of [...sourceFiles('lib'), ...sourceFiles('workloads')]) {
    for (const target of typeImportsOf(file)) if (!existsSync(join(ROOT, target))) missing.push(`${file} -> ${target}`)
  }
  assert.deepEqual(missing, [])
})
