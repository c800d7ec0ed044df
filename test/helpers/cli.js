// Spawn bin/pgload.js and collect its exit code and output.

import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/pgload.js', import.meta.url))

/**
 * Run a Node script and collect its exit code and output.
 * @param {string} script path of the script
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, cleanEnv?: (env: Record<string, string|undefined>) => Record<string, string|undefined>,
 *   cwd?: string, timeoutMs?: number, input?: string, onSpawn?: (child: import('node:child_process').ChildProcess) => void }} [opts]
 * @returns {Promise<{ code: number|null, signal: string|null, stdout: string, stderr: string }>}
 */
export function runNode (script, args, { env = {}, cleanEnv = (e) => e, cwd, timeoutMs = 120_000, input, onSpawn } = {}) {
  const child = spawn(process.execPath, [script, ...args], { env: { ...cleanEnv({ ...process.env }), ...env }, cwd, stdio: ['pipe', 'pipe', 'pipe'] })
  const done = collectOutput(child, timeoutMs)
  if (input !== undefined) child.stdin.end(input)
  else child.stdin.end()
  onSpawn?.(child)
  return done
}

/**
 * A spawned child's exit code, signal and whole output; killed after `timeoutMs`.
 * @param {import('node:child_process').ChildProcess} child spawned with piped stdout and stderr
 * @param {number} timeoutMs
 * @returns {Promise<{ code: number|null, signal: string|null, stdout: string, stderr: string }>}
 */
export function collectOutput (child, timeoutMs) {
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', (err) => { clearTimeout(timer); reject(err) })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

/** No PG* variables leak in from the developer's shell: each test says where to connect. */
function withoutPgVariables (env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('PG')))
}

/**
 * Spawn bin/pgload.js.
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, timeoutMs?: number, input?: string, onSpawn?: (child: import('node:child_process').ChildProcess) => void }} [opts]
 */
export function runCli (args, opts = {}) {
  return runNode(BIN, args, { cleanEnv: withoutPgVariables, ...opts })
}

/**
 * Exit 1 and a single `pgload:` line matching `pattern` (then an optional hint), no stack trace.
 * @param {{ code: number|null, stderr: string }} r
 * @param {RegExp} pattern
 */
export function assertOneLineError (r, pattern) {
  assert.equal(r.code, 1, `exit code ${r.code}; stderr: ${r.stderr}`)
  const all = r.stderr.trim().split('\n')
  const hintAt = all.findIndex((l) => l.startsWith('hint: '))
  const lines = hintAt < 0 ? all : all.slice(0, hintAt)
  assert.equal(lines.length, 1, `expected one line, got:\n${r.stderr}`)
  assert.match(lines[0], /^pgload: /)
  assert.match(lines[0], pattern)
}

/**
 * Start pgload with a dashboard: the child, its dashboard's URL once it prints it (rejected when
 * pgload exits first), its exit with what it printed, and its output so far.
 * @param {string[]} args
 * @returns {{ child: import('node:child_process').ChildProcess, url: Promise<string>,
 *   exited: Promise<{ code: number|null, stderr: string, stdout: string }>, output: { stderr: string, stdout: string } }}
 */
export function startWithDashboard (args) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const output = { stderr: '', stdout: '' }
  child.stdout.on('data', (d) => { output.stdout += d })
  const exited = new Promise((resolve) => child.on('close', (code) => resolve({ code, ...output })))
  const url = new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      output.stderr += d
      const m = /dashboard at (http:\S+)/.exec(output.stderr)
      if (m) resolve(m[1])
    })
    exited.then(() => reject(new Error(`pgload exited before its dashboard: ${output.stderr}`)))
  })
  return { child, url, exited, output }
}
