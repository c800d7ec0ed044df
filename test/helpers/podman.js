// podman for the image tests: whether it can run here, the image built by .ci/image, and
// containers run on the host's network with a directory of the test mounted on /results.

import { execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import { collectOutput } from './cli.js'
import { fileURLToPath } from 'node:url'

const execFileAsync = promisify(execFile)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// runc, cgroupfs and no default ulimit: what running a container needs on the CI machines
const ENV = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? `${ROOT}.ci/containers.conf` }

/**
 * Why podman cannot run containers here, or null.
 * @returns {Promise<string|null>}
 */
export async function podmanUnavailable () {
  try {
    await execFileAsync('podman', ['info', '--format', '{{.Host.OCIRuntime.Name}}'], { env: ENV, timeout: 30_000 })
    return null
  } catch (err) {
    if (err.code === 'ENOENT') return 'podman is not installed (.ci/run installs it as root with apt-get)'
    return `podman cannot run here: ${String(err.stderr || err.message).trim().split('\n').pop()}`
  }
}

/**
 * Build the image with .ci/image (its base and dependency layers cached by podman).
 * @param {string} tag
 * @returns {Promise<string>} the tag
 */
export async function buildImage (tag) {
  const r = await execFileAsync(`${ROOT}.ci/image`, [tag], { env: ENV, timeout: 600_000, maxBuffer: 16 << 20 })
  return r.stdout.trim()
}

/**
 * Run one container of `image` (its entrypoint is pgload) and collect its output.
 * @param {string} image
 * @param {string[]} args pgload's arguments
 * @param {{ results?: string, env?: Record<string, string>, entrypoint?: string, workdir?: string, timeoutMs?: number }} [opts]
 *   results: a host directory mounted on /results (the image's working directory);
 *   entrypoint: a program, or a JSON array as a pod's `command`
 * @returns {Promise<{ code: number|null, stdout: string, stderr: string }>}
 */
export function runContainer (image, args, { results, env = {}, entrypoint, workdir, timeoutMs = 120_000 } = {}) {
  const podmanArgs = ['run', '--rm', '--network', 'host']
  if (entrypoint) podmanArgs.push('--entrypoint', entrypoint)
  if (workdir) podmanArgs.push('--workdir', workdir)
  if (results) podmanArgs.push('-v', `${results}:/results`)
  for (const [k, v] of Object.entries(env)) podmanArgs.push('-e', `${k}=${v}`)
  podmanArgs.push(image, ...args)
  return collectOutput(spawn('podman', podmanArgs, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] }), timeoutMs)
}

/**
 * An image's configuration (`podman image inspect`): User, Entrypoint, WorkingDir, Env...
 * @param {string} image
 * @returns {Promise<{ User: string, Entrypoint: string[], WorkingDir: string, Env: string[] }>}
 */
export async function imageConfig (image) {
  const r = await execFileAsync('podman', ['image', 'inspect', '--format', '{{json .Config}}', image], { env: ENV, timeout: 30_000 })
  return JSON.parse(r.stdout)
}
