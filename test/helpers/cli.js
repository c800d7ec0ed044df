// Spawn bin/pgload.js and collect its exit code and output.

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/pgload.js', import.meta.url))

/**
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, timeoutMs?: number, input?: string, onSpawn?: (child: import('node:child_process').ChildProcess) => void }} [opts]
 * @returns {Promise<{ code: number|null, signal: string|null, stdout: string, stderr: string }>}
 */
export function runCli (args, { env = {}, timeoutMs = 120_000, input, onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    // No PG* variables leak in from the developer's shell: each test says where to connect.
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')))
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
    if (input !== undefined) child.stdin.end(input)
    else child.stdin.end()
    onSpawn?.(child)
  })
}
