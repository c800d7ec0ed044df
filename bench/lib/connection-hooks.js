// Module resolution hooks that hand every importer of lib/db/connection.js (and, for the fake
// one, of lib/db/lean-connection.js), except the shim and the lean connection, a shim instead: lean-shim.js runs `pgload` on the lean
// connection, fake-shim.js on in-memory connections. Registered by lean-register.js and
// fake-register.js (`node --import bench/lib/<name>-register.js bin/pgload.js ...`).

const CONNECTION = new URL('../../lib/db/connection.js', import.meta.url).href
const LEAN = new URL('../../lib/db/lean-connection.js', import.meta.url).href
let shim = null
let alsoLean = false

/** @param {{ shim: string, alsoLean?: boolean }} data the shim's URL; alsoLean: redirect lean-connection.js too */
export function initialize (data) {
  shim = data.shim
  alsoLean = data.alsoLean ?? false
}

export async function resolve (specifier, context, next) {
  const r = await next(specifier, context)
  if (context.parentURL === shim || context.parentURL === LEAN) return r
  if (r.url === CONNECTION || (alsoLean && r.url === LEAN)) return { ...r, url: shim }
  return r
}
