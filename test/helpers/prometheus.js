// A real Prometheus for the tests that read what pgload serves or pushes: started on a loopback
// port with a temporary config and data directory, queried over its HTTP API, stopped with a bound.

import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from './free-port.js'

export const PROMETHEUS = process.env.PGLOAD_PROMETHEUS ?? '/usr/bin/prometheus'
/** The skip reason of a test that needs Prometheus, or false. */
export const prometheusSkip = existsSync(PROMETHEUS) ? false : `no Prometheus at ${PROMETHEUS} (apt-get install prometheus)`
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Prometheus on a free loopback port, ready to answer.
 * @param {{ dir: string, config: string, args?: string[] }} o its directory, prometheus.yml's text, extra flags
 * @returns {Promise<{ url: string, log: () => string, query: (q: string, time?: number) => Promise<any[]>, stop: () => Promise<void> }>}
 */
export async function startPrometheus ({ dir, config, args = [] }) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  writeFileSync(join(dir, 'prometheus.yml'), config)
  let log = ''
  const prom = spawn(PROMETHEUS, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`, ...args, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] })
  prom.stderr.on('data', (d) => { log += d })
  const stop = async () => {
    if (prom.exitCode !== null) return
    const exited = new Promise((resolve) => prom.once('close', resolve))
    prom.kill('SIGTERM')
    await Promise.race([exited, sleep(10_000)])
    if (prom.exitCode === null) prom.kill('SIGKILL')
  }
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false)
    if (ok) break
    if (i >= 100 || prom.exitCode !== null) await stop()
    assert.ok(i < 100 && prom.exitCode === null, `Prometheus did not start: ${log}`)
    await sleep(200)
  }
  const query = async (q, time) => {
    const u = new URL('/api/v1/query', url)
    u.searchParams.set('query', q)
    if (time !== undefined) u.searchParams.set('time', String(time))
    const body = await (await fetch(u)).json()
    assert.equal(body.status, 'success', JSON.stringify(body))
    return body.data.result
  }
  return { url, log: () => log, query, stop }
}
