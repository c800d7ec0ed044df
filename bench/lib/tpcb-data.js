// Make sure the pgbench tables exist for a bench: reuse them at whatever scale they have, or
// load them with `pgload init tpcb --scale N`.

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { openConnection } from '../../lib/db/connection.js'

const PGLOAD = fileURLToPath(new URL('../../bin/pgload.js', import.meta.url))

/**
 * @param {{ target: any, url: string }} server
 * @param {{ scale: number, log: (s: string) => void }} opts
 * @returns {Promise<number>} the scale of the tables
 */
export async function ensureTpcb (server, { scale, log }) {
  const existing = await currentScale(server.target)
  if (existing !== null) return existing
  log(`bench: loading pgbench tables at scale ${scale} (pgload init tpcb)\n`)
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PGLOAD, 'init', 'tpcb', '--scale', String(scale), '--url', server.url], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => code === 0 ? resolve() : reject(new Error(`pgload init tpcb failed (${code}): ${stderr.trim().split('\n').pop()}`)))
  })
  return (await currentScale(server.target)) ?? scale
}

async function currentScale (target) {
  const conn = await openConnection(target, { protocol: 'simple', applicationName: 'pgload-bench' })
  try {
    const t = await conn.simpleQuery("SELECT to_regclass('pgbench_branches') IS NOT NULL AND to_regclass('pgbench_accounts') IS NOT NULL")
    if (t.rows[0][0] !== 't') return null
    const r = await conn.simpleQuery('SELECT count(*) FROM pgbench_branches')
    const n = Number(r.rows[0][0])
    return n > 0 ? n : null
  } finally {
    await conn.close()
  }
}
