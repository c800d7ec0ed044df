// `node --import ./bench/lib/lean-register.js bin/pgload.js ...`: pgload on the lean connection.

import { register } from 'node:module'

register('./lean-hooks.js', import.meta.url)
