// Where this thread's connections come from: pgload's drivers, unless a program that embeds pgload
// installed a connector of its own before the first connection (the benches' in-memory
// connections), which then opens every connection pgload makes, whatever the driver, as undici's
// setGlobalDispatcher does for HTTP. Worker threads have their own: a module given to node with
// --import runs in each of them and may install it there too.

/**
 * @callback Connector
 * @param {import('./connection.js').Target} target
 * @param {{ applicationName?: string, protocol?: import('./connection.js').Protocol, connectTimeoutMs?: number }} opts
 * @returns {Promise<any>} a connection with the Connection interface (docs/architecture.md)
 */

/** @type {Connector|null} */
let installed = null

/**
 * Open every connection of this thread with `connector` from now on (null: pgload's drivers again).
 * @param {Connector|null} connector
 */
export function installConnector (connector) {
  installed = connector
}

/** @returns {Connector|null} the connector installed in this thread, if any */
export function installedConnector () {
  return installed
}
