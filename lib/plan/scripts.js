// The scripts of a script run, as the plan holds them: built-ins by name, files with their text
// (read once, so that the plan is complete without the files), weights checked as pgbench does.

import { readFile } from 'node:fs/promises'
import { PgloadError } from '../errors.js'
import { parseInteger } from '../options/parse.js'
import { checkScriptSet } from '../script/options.js'
import { shownValue } from '../options/shown.js'

/**
 * @typedef {{ kind: 'builtin'|'file', name: string, weight: number, text?: string }} PlanScript
 */

/**
 * The scripts of the plan from the caller's list: `{ kind, spec: 'name@weight' }` as the command
 * line gives them, or `{ kind, name, weight, text? }`. A file without text is read (`-` is stdin).
 * No scripts: pgbench's default, tpcb-like.
 * @param {any[]} list
 * @param {{ readStdin?: () => Promise<Buffer> }} [io]
 * @returns {Promise<PlanScript[]>}
 */
export async function loadScripts (list, { readStdin = readProcessStdin } = {}) {
  const { splitWeight, findBuiltin } = await import('../script/index.js')
  const scripts = []
  for (const entry of list) {
    const { kind } = entry
    if (kind !== 'builtin' && kind !== 'file') throw new PgloadError(`a script must be of kind builtin or file, got ${shownValue(kind)}`, { code: 'BAD_OPTION' })
    const { name, weight } = entry.spec !== undefined ? splitWeight(String(entry.spec)) : { name: String(entry.name), weight: parseInteger(entry.weight ?? 1, `the weight of script ${entry.name}`, { min: 0 }) }
    if (kind === 'builtin') {
      scripts.push({ kind, name: findBuiltin(name).name, weight })
      continue
    }
    const text = typeof entry.text === 'string' ? entry.text : await readScriptText(name, readStdin)
    scripts.push({ kind, name, weight, text })
  }
  if (scripts.length === 0) scripts.push({ kind: 'builtin', name: 'tpcb-like', weight: 1 })
  checkScriptSet(scripts)
  return scripts
}

/**
 * Compile the script files once, so that their mistakes are reported before anything connects.
 * @param {PlanScript[]} scripts
 * @param {string} protocol
 */
export async function checkScripts (scripts, protocol) {
  if (!scripts.some((s) => s.kind === 'file')) return
  const { compileScript } = await import('../script/index.js')
  for (const s of scripts) if (s.kind === 'file') compileScript({ name: s.name, file: s.name, text: s.text, weight: s.weight }, { protocol })
}

async function readScriptText (name, readStdin) {
  let bytes
  try {
    bytes = name === '-' ? await readStdin() : await readFile(name)
  } catch (err) {
    throw new PgloadError(`could not read script file ${JSON.stringify(name)}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`, { code: 'BAD_SCRIPT' })
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new PgloadError(`script file ${JSON.stringify(name)} is not valid UTF-8`, { code: 'BAD_SCRIPT' })
  }
}

async function readProcessStdin () {
  const chunks = []
  for await (const c of process.stdin) chunks.push(c)
  return Buffer.concat(chunks)
}
