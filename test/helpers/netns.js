// Network namespaces of a test's own (root only): a server namespace joined to each client
// namespace by a veth pair, a /30 of 10.213.K.0 per link. The addresses exist only inside these
// namespaces; nothing is sent anywhere else. Removed when the test ends or its process exits.

import { execFile, spawn, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { collectOutput } from './cli.js'
import { userInfo } from 'node:os'

const execFileAsync = promisify(execFile)

/**
 * Run `cleanup` (synchronous) when the process exits or is stopped by SIGINT/SIGTERM; the
 * returned function runs it now instead, once.
 * @param {() => void} cleanup
 * @returns {() => void}
 */
export function cleanUpAlways (cleanup) {
  let done = false
  const signals = ['SIGINT', 'SIGTERM']
  const run = () => {
    if (done) return
    done = true
    process.off('exit', run)
    for (const sig of signals) process.off(sig, onSignal)
    cleanup()
  }
  const onSignal = (sig) => {
    run()
    // the signal's default (end the process) once nothing else listens for it
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig)
  }
  process.on('exit', run)
  for (const sig of signals) process.on(sig, onSignal)
  return run
}

/**
 * Why network namespaces cannot be made here, or null.
 * @returns {Promise<string|null>}
 */
export async function netnsUnavailable () {
  if (userInfo().uid !== 0) return 'network namespaces need root'
  const probe = `pgl-probe-${process.pid}`
  try {
    await execFileAsync('ip', ['netns', 'add', probe])
  } catch (err) {
    return err.code === 'ENOENT' ? 'ip (iproute2) is not installed' : `ip netns add fails here: ${String(err.stderr).trim()}`
  }
  await execFileAsync('ip', ['netns', 'del', probe]).catch(() => {})
  return null
}

/**
 * @typedef {object} Topology
 * @property {string} server the server's namespace
 * @property {{ ns: string, address: string, serverAddress: string, device: string }[]} clients
 *   each client's namespace, its address, the server's address on its link, its end of the link
 * @property {() => void} remove delete the namespaces (their links go with them)
 */

/**
 * A server namespace and `clients` client namespaces, each on its own link to the server.
 * @param {number} clients
 * @returns {Promise<Topology>}
 */
export async function createTopology (clients) {
  const tag = `pgl${process.pid}`
  const server = `${tag}-srv`
  const names = [server]
  const remove = cleanUpAlways(() => {
    for (const ns of names) spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' })
  })
  const ip = (...args) => execFileAsync('ip', args)
  try {
    await ip('netns', 'add', server)
    await ip('-n', server, 'link', 'set', 'lo', 'up')
    const out = []
    for (let k = 0; k < clients; k++) {
      const ns = `${tag}-c${k}`
      names.push(ns)
      await ip('netns', 'add', ns)
      await ip('-n', ns, 'link', 'set', 'lo', 'up')
      const device = 'pgl0'
      const serverDevice = `pgl${k}`
      await ip('link', 'add', device, 'netns', ns, 'type', 'veth', 'peer', 'name', serverDevice, 'netns', server)
      const serverAddress = `10.213.${k + 1}.1`
      const address = `10.213.${k + 1}.2`
      await ip('-n', server, 'addr', 'add', `${serverAddress}/30`, 'dev', serverDevice)
      await ip('-n', ns, 'addr', 'add', `${address}/30`, 'dev', device)
      await ip('-n', server, 'link', 'set', serverDevice, 'up')
      await ip('-n', ns, 'link', 'set', device, 'up')
      out.push({ ns, address, serverAddress, device })
    }
    return { server, clients: out, remove }
  } catch (err) {
    remove()
    throw err
  }
}

/**
 * Run a command inside a namespace and collect its output.
 * @param {string} ns
 * @param {string[]} command
 * @param {{ timeoutMs?: number, env?: Record<string, string> }} [opts]
 * @returns {Promise<{ code: number|null, stdout: string, stderr: string }>}
 */
export function runInNamespace (ns, command, { timeoutMs = 120_000, env = {} } = {}) {
  return collectOutput(spawn('ip', ['netns', 'exec', ns, ...command], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }), timeoutMs)
}

/**
 * Start a long-running command inside a namespace; resolves once it printed a line matching `ready`.
 * @param {string} ns
 * @param {string[]} command
 * @param {RegExp} ready
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, match: RegExpExecArray }>}
 */
export function startInNamespace (ns, command, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', ns, ...command], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.on('error', reject)
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited (${code}) before it was ready`)))
    child.stdout.on('data', (d) => {
      out += d
      const match = ready.exec(out)
      if (match) resolve({ child, match })
    })
  })
}
