// `node --import ./bench/lib/wire-register.js bin/pgload.js run tpcb --url postgres://x@127.0.0.1/x ...`:
// pgload on lean connections to an in-memory server (wire-shim.js): the engine and the driver's
// own CPU per transaction, without socket or server.

import { register } from 'node:module'

register('./connection-hooks.js', import.meta.url, { data: { shim: new URL('./wire-shim.js', import.meta.url).href, alsoLean: true } })
