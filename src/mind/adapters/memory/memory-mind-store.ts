/** A creature's memory in memory: the same contract as the folder, for tests and embedders. */
import type { MindDocument, MindFiles, MindLog, MindStore } from '../../ports/mind-store.ts'
import { MIND_FILE_NAMES } from '../../ports/mind-store.ts'

/** A fresh, empty in-memory creature. */
export function createMemoryMindStore(): MindStore {
  let state: string | null = null
  const logs = new Map<MindLog, string[]>()
  const documents = new Map<MindDocument, string>()
  const files: MindFiles = {
    readState: async () => state,
    writeState: async (text) => {
      state = text
    },
    appendLog: async (log, lines) => {
      logs.set(log, [...(logs.get(log) ?? []), ...lines])
    },
    readLog: async (log) => [...(logs.get(log) ?? [])],
    readLogLines: async (log, start, count) =>
      (logs.get(log) ?? []).slice(Math.max(0, start), Math.max(0, start) + Math.max(0, count)),
    countLines: async (log) => logs.get(log)?.length ?? 0,
    readDocument: async (document) => documents.get(document) ?? null,
    writeDocument: async (document, text) => {
      documents.set(document, text)
    },
    appendDocument: async (document, text) => {
      documents.set(document, (documents.get(document) ?? '') + text)
    },
  }
  let queue: Promise<unknown> = Promise.resolve()
  let consolidating = false
  return {
    location: 'memory',
    fileName: (name) => MIND_FILE_NAMES[name],
    files,
    holdConsolidation: async () => {
      if (consolidating) return null
      consolidating = true
      let held = true
      return {
        release: () => {
          if (held) consolidating = false
          held = false
        },
      }
    },
    exclusive(work) {
      const run = queue.then(() => work(files))
      queue = run.catch(() => undefined)
      return run
    },
  }
}
