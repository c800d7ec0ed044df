// The Kubernetes recipe of docs/shards.md as data: its Secret, load Job, Indexed Job and merge Job, and a
// container of a Job turned into what Kubernetes would run (environment, `$(VAR)` expanded).

import { readFileSync } from 'node:fs'
import yaml from 'js-yaml'

/**
 * The recipe's objects, parsed from the ```yaml blocks of a markdown file.
 * @param {string|URL} file
 * @returns {{ secret: any, init: any, shards: any, merge: any }}
 */
export function readRecipe (file) {
  const docs = []
  for (const m of readFileSync(file, 'utf8').matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)) docs.push(...yaml.loadAll(m[1]))
  const jobs = docs.filter((d) => d?.kind === 'Job')
  const loads = (j) => j.spec.template.spec.containers[0].args?.[0] === 'init'
  return {
    secret: docs.find((d) => d?.kind === 'Secret'),
    init: jobs.find(loads),
    shards: jobs.find((j) => j.spec.completionMode === 'Indexed'),
    merge: jobs.find((j) => j.spec.completionMode !== 'Indexed' && !loads(j))
  }
}

/**
 * One pod's container as Kubernetes starts it: its environment (from the Secret, the pod's
 * `job-name` label and completion index annotation, JOB_COMPLETION_INDEX) and its command and
 * arguments with `$(VAR)` references expanded.
 * @param {any} job
 * @param {{ secret?: any, index?: number }} [opts]
 * @returns {{ image: string, env: Record<string, string>, command?: string[], args: string[], workingDir?: string }}
 */
export function podContainer (job, { secret, index } = {}) {
  const spec = job.spec.template.spec
  const c = spec.containers[0]
  const env = {}
  for (const from of c.envFrom ?? []) {
    if (from.secretRef?.name === secret?.metadata.name) Object.assign(env, secret.stringData)
  }
  for (const e of c.env ?? []) env[e.name] = e.value ?? fieldValue(e.valueFrom?.fieldRef?.fieldPath, job, index)
  if (index !== undefined) env.JOB_COMPLETION_INDEX = String(index)
  const expand = (s) => String(s).replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (ref, name) => env[name] ?? ref)
  return {
    image: c.image,
    env,
    command: c.command?.map(expand),
    args: (c.args ?? []).map(expand),
    workingDir: c.workingDir
  }
}

function fieldValue (path, job, index) {
  if (path === "metadata.labels['job-name']") return job.metadata.name
  if (path === "metadata.annotations['batch.kubernetes.io/job-completion-index']") return String(index)
  throw new Error(`the recipe uses a field this test does not know: ${path}`)
}
