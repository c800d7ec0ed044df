// server.json, the state of the running embedded server (see embedded-server.js), and its users:
// the pgload commands using a server that a pgload command started, changed only under the home
// lock. Each command adds itself when it begins using the server and removes itself when done,
// and the last one out stops the server, whichever it is. Users whose process is gone (killed)
// are dropped whenever the list is read.

import { readFile, rename, writeFile } from 'node:fs/promises'
import { pidAlive } from './home-lock.js'

/**
 * server.json when it describes the running postmaster, else {} (stale after a crash).
 * @param {{ state: string }} paths
 * @param {number} pid
 */
export async function readState (paths, pid) {
  const state = JSON.parse(await readFile(paths.state, 'utf8').catch(() => '{}'))
  return state.pid === pid ? state : {}
}

/**
 * Write server.json atomically.
 * @param {{ state: string }} paths
 * @param {object} state
 */
export async function writeState (paths, state) {
  await writeFile(paths.state + '.tmp', JSON.stringify(state, null, 2) + '\n', { mode: 0o600 })
  await rename(paths.state + '.tmp', paths.state)
}

/** @typedef {{ pid: number, use: number }} ServerUser one use of the server by one pgload process */

let nextUse = 0

/**
 * A new use of the server by this process (one process may use it more than once at a time:
 * a sweep and each of its runs).
 * @returns {ServerUser}
 */
export function newUser () {
  return { pid: process.pid, use: nextUse++ }
}

/**
 * The users of a server.json state whose process is alive. A state written before users were
 * recorded counts its owner as its one user.
 * @param {{ users?: ServerUser[], owner?: number }} state
 * @returns {ServerUser[]}
 */
export function liveUsers (state) {
  const users = Array.isArray(state.users) ? state.users : Number.isInteger(state.owner) ? [{ pid: state.owner, use: 0 }] : []
  return users.filter((u) => Number.isInteger(u?.pid) && pidAlive(u.pid))
}

/**
 * The state with `user` added (and the dead ones dropped).
 * @template {object} S
 * @param {S} state
 * @param {ServerUser} user
 * @returns {S & { users: ServerUser[] }}
 */
export function withUser (state, user) {
  return { ...state, users: [...liveUsers(state), user] }
}

/**
 * The state with `user` removed (and the dead ones dropped).
 * @template {object} S
 * @param {S} state
 * @param {ServerUser} user
 * @returns {S & { users: ServerUser[] }}
 */
export function withoutUser (state, user) {
  return { ...state, users: liveUsers(state).filter((u) => u.pid !== user.pid || u.use !== user.use) }
}
