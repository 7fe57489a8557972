import { describe, expect, it } from 'vitest'
import { digestFinder, sessionOfDigest, sourcesOfIds, sourcesOfLine } from './source-refs.ts'

const find = digestFinder([
  'knowledge/sessions/2026-02-11-258c7280.md',
  'knowledge/sessions/2026-02-12-4d5611e5.md',
])

describe('sources of a brain line', () => {
  it('resolves a core line to the digest of each cited session and its record ids', () => {
    const line =
      '- Fixed it <!-- sources: session:4d5611e5, e95c1e9a, 9581dab5, session:258c7280, 58436800; extractive 2026-02-12 -->'
    expect(sourcesOfLine(line, find)).toEqual([
      {
        session: '4d5611e5',
        digest: 'knowledge/sessions/2026-02-12-4d5611e5.md',
        records: ['e95c1e9a', '9581dab5'],
      },
      {
        session: '258c7280',
        digest: 'knowledge/sessions/2026-02-11-258c7280.md',
        records: ['58436800'],
      },
    ])
  })

  it("gives a digest's own src comments its own session", () => {
    const path = 'knowledge/sessions/2026-02-11-258c7280.md'
    expect(
      sourcesOfLine('- x <!-- src: d065d1d4, 727232f5 -->', find, sessionOfDigest(path)),
    ).toEqual([{ session: '258c7280', digest: path, records: ['d065d1d4', '727232f5'] }])
  })

  it('keeps a session without a digest, unlinked, and reads changelog id lists', () => {
    expect(sourcesOfLine('- y <!-- sources: demo-0; extractive -->', find)).toEqual([
      { session: 'demo-0', digest: null, records: [] },
    ])
    expect(sourcesOfIds(['258c7280-ae70-4798-800f-63464d01a85d', 'cb804a81'], find)).toEqual([
      {
        session: '258c7280-ae70-4798-800f-63464d01a85d',
        digest: 'knowledge/sessions/2026-02-11-258c7280.md',
        records: ['cb804a81'],
      },
    ])
  })

  it('finds nothing on a line without a sources comment', () => {
    expect(sourcesOfLine('- plain <!-- note: abc -->', find)).toEqual([])
  })
})
