/**
 * SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, as hex. A measured copy for the hook path:
 * SessionStart needs seed 002's project id (a SHA-256 of the project root) on every run
 * (docs/design/origins.md), and loading `node:crypto` there costs ~2.2 ms of a ~35 ms hook (it
 * pulls in Node's streams). Everything off the hook path hashes with `node:crypto`; a test holds
 * the two equal.
 */

const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

const INITIAL_STATE = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]

const rotateRight = (value: number, bits: number) => (value >>> bits) | (value << (32 - bits))

/** The SHA-256 digest of `text` (encoded as UTF-8), 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text)
  // The message, a 1 bit, zeros, and the bit length in the last 8 bytes of a 64-byte block.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64)
  padded.set(bytes)
  padded[bytes.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000))
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0)
  const state = [...INITIAL_STATE]
  const schedule = new Uint32Array(64)
  for (let block = 0; block < padded.length; block += 64) {
    for (let at = 0; at < 16; at += 1) schedule[at] = view.getUint32(block + at * 4)
    for (let at = 16; at < 64; at += 1) {
      const early = schedule[at - 15] as number
      const late = schedule[at - 2] as number
      const sigma0 = rotateRight(early, 7) ^ rotateRight(early, 18) ^ (early >>> 3)
      const sigma1 = rotateRight(late, 17) ^ rotateRight(late, 19) ^ (late >>> 10)
      schedule[at] =
        ((schedule[at - 16] as number) + sigma0 + (schedule[at - 7] as number) + sigma1) | 0
    }
    let [a, b, c, d, e, f, g, h] = state as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ]
    for (let at = 0; at < 64; at += 1) {
      const sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
      const choice = (e & f) ^ (~e & g)
      const first =
        (h + sum1 + choice + (ROUND_CONSTANTS[at] as number) + (schedule[at] as number)) | 0
      const sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
      const majority = (a & b) ^ (a & c) ^ (b & c)
      const second = (sum0 + majority) | 0
      h = g
      g = f
      f = e
      e = (d + first) | 0
      d = c
      c = b
      b = a
      a = (first + second) | 0
    }
    const next = [a, b, c, d, e, f, g, h]
    for (let at = 0; at < 8; at += 1) state[at] = ((state[at] as number) + (next[at] as number)) | 0
  }
  return state.map((word) => (word >>> 0).toString(16).padStart(8, '0')).join('')
}
