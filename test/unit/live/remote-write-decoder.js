// A decoder of remote-write bodies for the tests: snappy's block format (literals and copies)
// and the WriteRequest's protobuf, written from the format descriptions, not from the encoder.

/**
 * @param {Uint8Array} block
 * @returns {Buffer}
 */
export function snappyDecode (block) {
  let at = 0
  let length = 0
  for (let shift = 1; ; shift *= 128) {
    const b = block[at++]
    length += (b & 0x7f) * shift
    if (b < 0x80) break
  }
  const out = Buffer.alloc(length)
  let n = 0
  while (at < block.length) {
    const tag = block[at++]
    const kind = tag & 3
    if (kind === 0) {
      let len = tag >> 2
      if (len >= 60) {
        const bytes = len - 59
        len = 0
        for (let i = 0; i < bytes; i++) len += block[at++] * 256 ** i
      }
      len += 1
      out.set(block.subarray(at, at + len), n)
      at += len
      n += len
      continue
    }
    let len, offset
    if (kind === 1) { len = 4 + ((tag >> 2) & 7); offset = ((tag >> 5) << 8) | block[at++] } else if (kind === 2) { len = 1 + (tag >> 2); offset = block[at] | (block[at + 1] << 8); at += 2 } else { len = 1 + (tag >> 2); offset = block.readUInt32LE(at); at += 4 }
    for (let i = 0; i < len; i++, n++) out[n] = out[n - offset]
  }
  if (n !== length) throw new Error(`snappy: ${n} bytes decoded, the header says ${length}`)
  return out
}

/**
 * @param {Buffer} bytes a WriteRequest
 * @returns {{ labels: [string, string][], samples: { value: number, timestampMs: number }[] }[]}
 */
export function decodeWriteRequest (bytes) {
  return fields(bytes).filter((f) => f.field === 1).map(({ bytes: ts }) => {
    const labels = []
    const samples = []
    for (const f of fields(ts)) {
      if (f.field === 1) {
        const l = fields(f.bytes)
        labels.push([l.find((x) => x.field === 1)?.bytes.toString('utf8') ?? '', l.find((x) => x.field === 2)?.bytes.toString('utf8') ?? ''])
      } else if (f.field === 2) {
        const s = fields(f.bytes)
        samples.push({ value: s.find((x) => x.field === 1)?.double ?? 0, timestampMs: s.find((x) => x.field === 2)?.varint ?? 0 })
      }
    }
    return { labels, samples }
  })
}

/** The fields of one protobuf message: varint, fixed64 (as a double) and length-delimited. */
function fields (buf) {
  const out = []
  let at = 0
  const readVarint = () => {
    let v = 0
    for (let shift = 1; ; shift *= 128) {
      const b = buf[at++]
      v += (b & 0x7f) * shift
      if (b < 0x80) return v
    }
  }
  while (at < buf.length) {
    const key = readVarint()
    const field = Math.floor(key / 8)
    const wire = key & 7
    if (wire === 0) out.push({ field, varint: readVarint() })
    else if (wire === 1) { out.push({ field, double: buf.readDoubleLE(at) }); at += 8 } else if (wire === 2) {
      const len = readVarint()
      out.push({ field, bytes: buf.subarray(at, at + len) })
      at += len
    } else throw new Error(`protobuf: wire type ${wire}`)
  }
  return out
}
