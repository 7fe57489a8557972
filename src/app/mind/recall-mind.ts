/** `recall`: ranked search over total recall (conversation, dreams) and the markdown files. */
import { type RecallHit, type RecallLine, rankRecall } from '../../core/mind/recall.ts'
import type { MindDocument, MindLog } from '../../ports/mind-store.ts'
import type { MindDeps } from './mind-deps.ts'
import { ConversationEntrySchema, DreamEntrySchema } from './mind-records.ts'

const LOGS: MindLog[] = ['conversation', 'dreams']
const DOCUMENTS: MindDocument[] = ['observations', 'archive', 'priorities', 'diary']

/** The best `limit` lines for `query`, each naming its file and line. */
export async function recallMind(
  deps: MindDeps,
  request: { query: string; limit?: number },
): Promise<RecallHit[]> {
  const files = deps.store.files
  const lines: RecallLine[] = []
  for (const log of LOGS) {
    const file = deps.store.fileName(log)
    ;(await files.readLog(log)).forEach((raw, index) => {
      lines.push({ file, line: index + 1, ...searchable(log, raw) })
    })
  }
  for (const document of DOCUMENTS) {
    const file = deps.store.fileName(document)
    const text = (await files.readDocument(document)) ?? ''
    text.split('\n').forEach((raw, index) => {
      if (raw.trim() !== '' && !raw.startsWith('<!--'))
        lines.push({ file, line: index + 1, text: raw })
    })
  }
  return rankRecall(lines, request.query, request.limit ?? 10)
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
