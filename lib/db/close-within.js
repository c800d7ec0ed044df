// Close a connection politely (Terminate), but never wait on a silent server longer than asked:
// past the bound, the socket is destroyed.

/**
 * @param {{ close(): Promise<void>, destroy?(): void }} conn
 * @param {number} timeoutMs 0: destroy at once
 * @returns {Promise<void>}
 */
export async function closeWithin (conn, timeoutMs) {
  if (timeoutMs <= 0 && conn.destroy) { conn.destroy(); return }
  let timer
  const late = new Promise((resolve) => { timer = setTimeout(resolve, timeoutMs, 'late') })
  const closed = conn.close().catch(() => {})
  const first = await Promise.race([closed, late])
  clearTimeout(timer)
  if (first === 'late') conn.destroy?.()
}
