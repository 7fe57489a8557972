/**
 * A creature's recall sources: its two logs (total recall, append-only) in chunks of
 * CHUNK_LINES lines, so a new line re-indexes only the last chunk, never the 200,000 before it;
 * and its four markdown documents, each one source stamped by its text's hash.
 */
import { normalizedText } from '../../engine/core/recall/brain-entries.ts'
import type { RecallEntry } from '../../engine/core/recall/recall-entry.ts'
import { sha256Hex } from '../../engine/core/sha256-hex.ts'
import type { RecallHit } from '../../engine/ports/recall.ts'
import type { RecallSource, RecallSources } from '../../engine/ports/recall-sources.ts'
import type { MindDocument, MindLog, MindStore } from '../ports/mind-store.ts'
import { ConversationEntrySchema, DreamEntrySchema } from './mind-records.ts'

/** Lines of a log per source: small enough that re-indexing the growing chunk is cheap. */
export const CHUNK_LINES = 2000

const LOGS: MindLog[] = ['conversation', 'dreams']
const DOCUMENTS: MindDocument[] = ['observations', 'archive', 'priorities', 'diary']

/** The recall sources of the creature in `store`. */
export function mindRecallSources(store: MindStore): RecallSources {
  const documentText = async (document: MindDocument) =>
    (await store.files.readDocument(document)) ?? ''

  return {
    async list() {
      const sources: RecallSource[] = []
      for (const log of LOGS) {
        const count = await store.files.countLines(log)
        for (let start = 0; start < count; start += CHUNK_LINES) {
          const lines = Math.min(CHUNK_LINES, count - start)
          sources.push({ key: `${log}@${start}`, kind: log, stamp: String(lines) })
        }
      }
      for (const document of DOCUMENTS) {
        const text = await documentText(document)
        if (text !== '') sources.push({ key: document, kind: document, stamp: sha256Hex(text) })
      }
      return sources
    },
    async entries(source) {
      const [name, start] = source.key.split('@') as [string, string | undefined]
      if (start !== undefined) {
        const log = name as MindLog
        const first = Number(start)
        const lines = await store.files.readLogLines(log, first, CHUNK_LINES)
        const file = store.fileName(log)
        return lines.flatMap((raw, index): RecallEntry[] => {
          const { text, t } = searchable(log, raw)
          if (text.trim() === '') return []
          const location = `${file}:${first + index + 1}`
          return [{ id: location, kind: log, location, text, date: t ?? null, sources: [] }]
        })
      }
      const document = name as MindDocument
      const file = store.fileName(document)
      return documentEntries(file, document, await documentText(document))
    },
    async locate(hit: RecallHit) {
      // A log only grows: its line n stays line n.
      if (hit.kind === 'conversation' || hit.kind === 'dreams') return hit.location
      const document = hit.kind as MindDocument
      const wanted = normalizedText(hit.text)
      const entries = documentEntries(
        store.fileName(document),
        document,
        await documentText(document),
      )
      const same = entries.filter((entry) => normalizedText(entry.text) === wanted)
      if (same.some((entry) => entry.location === hit.location)) return hit.location
      return same[0]?.location ?? null
    },
  }
}

/** One entry per non-blank line of a document (comments left out), as the old recall searched. */
function documentEntries(file: string, kind: string, text: string): RecallEntry[] {
  return text.split('\n').flatMap((raw, index): RecallEntry[] => {
    if (raw.trim() === '' || raw.startsWith('<!--')) return []
    const location = `${file}:${index + 1}`
    return [{ id: location, kind, location, text: raw, date: null, sources: [] }]
  })
}

/** What a JSON line is searched by: its content (a dream: reflection, priority, observations). */
function searchable(log: MindLog, raw: string): { text: string; t?: string } {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return { text: raw }
  }
  if (log === 'conversation') {
    const entry = ConversationEntrySchema.safeParse(json)
    if (!entry.success) return { text: raw }
    const who = entry.data.name ?? entry.data.tool ?? entry.data.role
    return { text: `${who}: ${entry.data.content}`, t: entry.data.t }
  }
  const dream = DreamEntrySchema.safeParse(json)
  if (!dream.success) return { text: raw }
  const { reflection, priority, detail, t } = dream.data
  return {
    text: [reflection, `Priority: ${priority}`, ...detail.map((item) => item.text)].join(' | '),
    t,
  }
}
