// compare, stage by stage: when every run has the same stages (--stages, --clients-stages, or the
// steps of `pgload capacity`), each stage is compared as a run of its own (its summary, histograms
// and intervals); when they differ, one line says why not.

import { stageDocument } from './thresholds/window-view.js'

/** Latency figures compared per stage (all types together). */
const STAGE_LATENCY = ['p50', 'p95', 'p99']

const plan = (s) => `${s.kind} ${s.target.from}->${s.target.to}${s.ramp ? '' : ' (step)'} ${s.startS}-${s.endS} s`

/**
 * Whether the runs' stages can be compared one by one, and why not.
 * @param {object[]} docs both sides' results documents
 * @returns {{ count: number, note: string|null }} count 0: no stage rows
 */
export function stagePlan (docs) {
  const staged = docs.filter(d => Array.isArray(d.stages) && d.stages.length > 0)
  if (staged.length === 0) return { count: 0, note: null }
  if (staged.length < docs.length) return { count: 0, note: `stages not compared: ${docs.length - staged.length} of ${docs.length} runs ${docs.length - staged.length === 1 ? 'has' : 'have'} no stages` }
  const first = staged[0].stages
  for (const d of staged.slice(1)) {
    if (d.stages.length !== first.length) return { count: 0, note: `stages not compared: the runs have ${[...new Set(staged.map(x => x.stages.length))].join(' and ')} stages` }
    const i = d.stages.findIndex((s, k) => plan(s) !== plan(first[k]))
    if (i >= 0) return { count: 0, note: `stages not compared: stage ${i + 1} differs (${plan(first[i])} vs ${plan(d.stages[i])})` }
  }
  return { count: first.length, note: null }
}

/**
 * The metrics of stage n (from 1), read from a stage view (stageDocument).
 * @param {number} n
 */
export function stageMetrics (n) {
  const tag = `stage(${n})`
  return [
    { id: `${tag}:tps`, metric: 'tps', txn: null, stage: n, unit: 'tps', better: 'higher', get: d => d.summary.tps },
    ...STAGE_LATENCY.map(stat => ({ id: `${tag}:${stat}`, metric: stat, txn: null, stage: n, unit: 'ms', better: 'lower', get: d => d.summary.latencyMs?.[stat] }))
  ]
}

/**
 * Each run's stage n as a run of its own.
 * @param {object[]} docs @param {number} n from 1
 */
export function stageViews (docs, n) {
  return docs.map(d => stageDocument(d, n))
}
