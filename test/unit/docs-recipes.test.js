// The recipes of the docs as a user copies them: every YAML block parses, and every container in
// them runs pgload's image, never code fetched by name when the pod starts (`npx`).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yaml from 'js-yaml'
import { readRecipe } from '../helpers/k8s-recipe.js'

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url))
const ROOT_DOCS = [fileURLToPath(new URL('../../README.md', import.meta.url))]

/** Every ```yaml block of the markdown files under docs/ and the README, with where it is. */
function yamlBlocks () {
  const files = [...ROOT_DOCS, ...readdirSync(DOCS, { recursive: true }).filter((f) => f.endsWith('.md')).map((f) => join(DOCS, f))]
  const blocks = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)) {
      const line = text.slice(0, m.index).split('\n').length
      blocks.push({ where: `${file}:${line}`, text: m[1] })
    }
  }
  return blocks
}

/** The containers (and init containers) anywhere in a parsed document. */
function containersOf (node, out = []) {
  if (Array.isArray(node)) for (const item of node) containersOf(item, out)
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) out.push(...value)
      else containersOf(value, out)
    }
  }
  return out
}

const blocks = yamlBlocks()

test('the docs have their Kubernetes recipes', () => {
  assert.ok(blocks.some((b) => b.where.includes('shards.md')), 'docs/shards.md has YAML blocks')
})

test('every YAML block of the docs parses', () => {
  for (const b of blocks) {
    assert.doesNotThrow(() => yaml.loadAll(b.text), `${b.where} does not parse`)
  }
})

test('every container of the docs runs pgload\'s image, and no recipe runs npx', () => {
  let containers = 0
  for (const b of blocks) {
    assert.doesNotMatch(b.text, /\bnpx\b/, `${b.where} runs npx`)
    for (const doc of yaml.loadAll(b.text)) {
      for (const c of containersOf(doc)) {
        containers++
        assert.match(String(c.image), /^[^\s]+\/pgload:[^\s]+$/, `${b.where}: container ${c.name} runs ${c.image}, not REGISTRY/pgload:VERSION`)
      }
    }
  }
  assert.ok(containers >= 2, 'the Indexed Job and the merge Job')
})

test('docs/shards.md runs nothing fetched by name', () => {
  assert.doesNotMatch(readFileSync(join(DOCS, 'shards.md'), 'utf8'), /\bnpx\b/)
})

test('docs/shards.md loads the tables before the shards run, and its Secret says how to reach an SSL-only server', () => {
  const recipe = readRecipe(join(DOCS, 'shards.md'))
  assert.ok(recipe.init, 'a Job that runs pgload init')
  const args = (job) => job.spec.template.spec.containers[0].args
  assert.equal(args(recipe.init)[1], args(recipe.shards)[1], 'the load is of the workload the shards run')
  assert.equal(recipe.init.spec.template.spec.containers[0].envFrom[0].secretRef.name, recipe.secret.metadata.name)
  assert.ok('PGSSLMODE' in recipe.secret.stringData, 'PGSSLMODE in the Secret')
  const text = readFileSync(join(DOCS, 'shards.md'), 'utf8')
  const steps = text.indexOf(`job_ends ${recipe.init.metadata.name}`)
  assert.ok(steps >= 0 && steps < text.indexOf(`job_ends ${recipe.shards.metadata.name}`), 'the load is waited for before the shards start')
  // a failed Job is seen at once, not after kubectl wait's whole timeout
  assert.doesNotMatch(text, /^\s*kubectl wait --for=condition=complete/m)
  assert.match(text, /\*" Failed "\*\)/)
})
