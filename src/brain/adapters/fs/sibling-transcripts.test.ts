import { randomUUID } from 'node:crypto'
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { removeTemporarySync } from '../../../../test/support/remove-temporary.ts'
import { listSiblingTranscripts, SIBLING_ENTRIES_READ_MAX } from './sibling-transcripts.ts'

describe('listSiblingTranscripts', () => {
  const folders: string[] = []
  afterEach(() => {
    for (const folder of folders.splice(0)) removeTemporarySync(folder)
  })

  it('reads a huge folder only up to its cap, streamed, and still dates what it read', () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-siblings-'))
    folders.push(folder)
    const total = SIBLING_ENTRIES_READ_MAX + 1_500
    for (let index = 0; index < total; index += 1) {
      // Other names count towards the cap too: a folder of anything is not listed whole.
      const name = index % 3 === 0 ? `note-${index}.txt` : `${randomUUID()}.jsonl`
      writeFileSync(join(folder, name), '')
    }
    const newest = randomUUID()
    const path = join(folder, `${newest}.jsonl`)
    writeFileSync(path, '')
    utimesSync(path, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000))
    const found = listSiblingTranscripts(join(folder, `${randomUUID()}.jsonl`))
    expect(found.length).toBeGreaterThan(0)
    expect(found.length).toBeLessThanOrEqual(SIBLING_ENTRIES_READ_MAX)
    for (const sibling of found) {
      expect(sibling.path).toBe(join(folder, `${sibling.sessionId}.jsonl`))
      expect(sibling.modifiedMs).toBeGreaterThan(0)
    }
  })

  it('lists a folder under the cap whole; none for a folder that is not there', () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-siblings-'))
    folders.push(folder)
    const ids = Array.from({ length: 20 }, () => randomUUID())
    for (const id of ids) writeFileSync(join(folder, `${id}.jsonl`), '')
    const found = listSiblingTranscripts(join(folder, 'x.jsonl'))
    expect(found.map((sibling) => sibling.sessionId).sort()).toEqual([...ids].sort())
    expect(listSiblingTranscripts(join(folder, 'gone', 'x.jsonl'))).toEqual([])
  })
})
