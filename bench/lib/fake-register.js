// `node --import ./bench/lib/fake-register.js bin/pgload.js run tpcb --url postgres://x@127.0.0.1/x ...`:
// pgload on in-memory connections (no server), to measure the engine's own CPU per transaction.

import { register } from 'node:module'

register('./connection-hooks.js', import.meta.url, { data: { shim: new URL('./fake-shim.js', import.meta.url).href, alsoLean: true } })
