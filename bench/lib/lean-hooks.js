// Module resolution hooks that make every importer of lib/db/connection.js (except the lean
// connection itself) get lean-shim.js: runs `pgload` on the lean connection without changing it.
// Used by `bench vs-pgbench --driver lean` until pgload has its own driver option.

const CONNECTION = new URL('../../lib/db/connection.js', import.meta.url).href
const SHIM = new URL('./lean-shim.js', import.meta.url).href
const LEAN = new URL('../../lib/db/lean-connection.js', import.meta.url).href

export async function resolve (specifier, context, next) {
  const r = await next(specifier, context)
  if (r.url === CONNECTION && context.parentURL !== SHIM && context.parentURL !== LEAN) return { ...r, url: SHIM }
  return r
}
