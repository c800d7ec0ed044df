// `node --import ./bench/lib/lean-register.js bin/pgload.js ...`: pgload on the lean connection.

import { register } from 'node:module'

register('./connection-hooks.js', import.meta.url, { data: { shim: new URL('./lean-shim.js', import.meta.url).href } })
