// Run a program and measure the CPU it used from the kernel's own accounting: bash runs it
// and prints its `times` (user and system CPU of its children) on an extra pipe.

import { spawn } from 'node:child_process'
import { sampleChildSched } from './runner-sched.js'

/**
 * @param {string} file
 * @param {string[]} args
 * @param {{ env?: Record<string,string>, timeoutMs?: number, sched?: boolean }} [opts] sched: sample the
 *   program's scheduler accounting while it runs (runner-sched.js; Linux)
 * @returns {Promise<{ code: number|null, stdout: string, stderr: string, cpuUs: number, userUs: number, systemUs: number, wallMs: number,
 *   schedPoints: import('./runner-sched.js').SchedPoint[] }>}
 */
export function runMeasured (file, args, { env = {}, timeoutMs = 0, sched = false } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn('bash', ['-c', '"$@" 3>&-; s=$?; times >&3; exit $s', 'bash', file, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe']
    })
    const sampler = sched ? sampleChildSched(child.pid) : null
    let stdout = ''
    let stderr = ''
    let times = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.stdio[3].on('data', (d) => { times += d })
    const timer = timeoutMs > 0 ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : null
    child.on('error', reject)
    child.on('close', (code) => {
      if (timer) clearTimeout(timer)
      sampler?.stop()
      const { userUs, systemUs } = childrenCpu(times)
      resolve({ code, stdout, stderr, cpuUs: userUs + systemUs, userUs, systemUs, wallMs: performance.now() - t0, schedPoints: sampler?.points ?? [] })
    })
  })
}

/**
 * The children's user and system time from bash's `times` output ("0m1.234s 0m0.056s" on line 2).
 * @param {string} text
 * @returns {{ userUs: number, systemUs: number }} microseconds, NaN when absent
 */
export function childrenCpu (text) {
  const parts = (text.trim().split('\n')[1] ?? '').trim().split(/\s+/)
  if (parts.length !== 2) return { userUs: NaN, systemUs: NaN }
  const [userUs, systemUs] = parts.map((part) => {
    const m = /^(\d+)m(\d+(?:\.\d+)?)s$/.exec(part)
    return m ? Math.round((Number(m[1]) * 60 + Number(m[2])) * 1e6) : NaN
  })
  return { userUs, systemUs }
}

/**
 * Figures from pgbench's summary.
 * @param {string} out
 * @returns {{ tps: number, transactions: number, failed: number, latencyMs: number }}
 */
export function parsePgbenchOutput (out) {
  const num = (re) => { const m = re.exec(out); return m ? Number(m[1]) : NaN }
  return {
    tps: num(/^tps = ([\d.]+)/m),
    transactions: num(/number of transactions actually processed: (\d+)/),
    failed: num(/number of failed transactions: (\d+)/) || 0,
    latencyMs: num(/latency average = ([\d.]+) ms/)
  }
}
