// A TCP proxy on loopback between pgload and a server, with faults on demand: pause (stop
// forwarding both ways, sockets kept open), drop all (destroy every connection) and refuse new.

import { createServer, connect } from 'node:net'

/**
 * A proxy to `target` listening on 127.0.0.1 (a free port).
 * @param {{ host: string, port: number }} target
 * @returns {Promise<FaultProxy>}
 */
export async function startFaultProxy (target) {
  const proxy = new FaultProxy(target)
  await proxy.listen()
  return proxy
}

export class FaultProxy {
  /** @param {{ host: string, port: number }} target */
  constructor (target) {
    this.target = target
    this.paused = false
    this.refusing = false
    /** @type {Set<{ client: import('node:net').Socket, server: import('node:net').Socket, held: (() => void)[] }>} */
    this.pairs = new Set()
    this.accepted = 0
    this.server = createServer((client) => this._accept(client))
    this.port = 0
  }

  listen () {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(0, '127.0.0.1', () => {
        this.port = this.server.address().port
        resolve()
      })
    })
  }

  /** Where pgload connects instead of the server. */
  url (serverUrl) {
    const u = new URL(serverUrl)
    u.hostname = '127.0.0.1'
    u.port = String(this.port)
    return u.toString()
  }

  _accept (client) {
    if (this.refusing) { client.destroy(); return }
    this.accepted++
    const server = connect(this.target.port, this.target.host)
    const pair = { client, server, held: [] }
    this.pairs.add(pair)
    const forward = (from, to) => {
      from.on('data', (chunk) => {
        if (this.paused) pair.held.push(() => to.write(chunk))
        else to.write(chunk)
      })
      from.on('end', () => {
        if (this.paused) pair.held.push(() => to.end())
        else to.end()
      })
    }
    forward(client, server)
    forward(server, client)
    const close = () => {
      this.pairs.delete(pair)
      client.destroy()
      server.destroy()
    }
    client.on('error', close)
    server.on('error', close)
    client.on('close', () => { if (!this.paused) close() })
    server.on('close', () => { if (!this.paused) close() })
  }

  /** Stop forwarding in both directions; connections stay open and new ones are held too. */
  pause () { this.paused = true }

  /** Forward again, what was held first. */
  resume () {
    this.paused = false
    for (const pair of this.pairs) {
      const held = pair.held
      pair.held = []
      for (const fn of held) fn()
      if (pair.client.destroyed || pair.server.destroyed) {
        this.pairs.delete(pair)
        pair.client.destroy()
        pair.server.destroy()
      }
    }
  }

  /** Destroy every connection now (both sides see a reset). */
  dropAll () {
    for (const pair of this.pairs) {
      pair.client.destroy()
      pair.server.destroy()
    }
    this.pairs.clear()
  }

  /** Close incoming connections at once (true) or accept them again (false). */
  refuseNew (on = true) { this.refusing = on }

  async close () {
    this.dropAll()
    await new Promise((resolve) => this.server.close(() => resolve()))
  }
}
