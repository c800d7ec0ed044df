// lib/db/connection.js with openConnection replaced by the lean connection (see connection-hooks.js).

export * from '../../lib/db/connection.js'
export { openLeanConnection as openConnection } from '../../lib/db/lean-connection.js'
