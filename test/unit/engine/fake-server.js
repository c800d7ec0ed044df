// A server for run tests: connections that answer each statement after a millisecond, until the
// test takes the server down (`up = false`): then connecting is refused and a statement in
// flight loses its connection.

/** @returns {{ up: boolean, opened: number, conns: any[], open: () => Promise<any> }} */
export function fakeServer () {
  const server = { up: true, opened: 0, conns: [] }
  server.open = async () => {
    if (!server.up) { const e = new Error('connect ECONNREFUSED'); e.code = 'ECONNREFUSED'; throw e }
    server.opened++
    const conn = {
      backendPid: 1000 + server.opened,
      broken: false,
      closed: false,
      transactionStatus: 'I',
      async prepare () {},
      async execute () {
        await new Promise((resolve) => setTimeout(resolve, 1))
        if (!server.up) { conn.broken = true; const e = new Error('connection lost'); e.code = 'CONNECTION_LOST'; throw e }
        return { command: 'SELECT', rowCount: 1, fields: ['x'], rows: [['1']] }
      },
      async simpleQuery () { return conn.execute() },
      async close () { conn.closed = true }
    }
    server.conns.push(conn)
    return conn
  }
  return server
}
