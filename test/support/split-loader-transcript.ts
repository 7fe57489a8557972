/**
 * The hook tests' small real-format session: a prompt, `writes` Write calls and a closing text,
 * stamped now, as Claude Code writes a turn just before its Stop (records older than the brain or
 * the last sleep would not count, so a stale stamp would hide the session's work).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { assistant, text, toolResult, toolUse, user } from './transcript-lines.ts'

/** The transcript's text; `from` > 0 continues a session (no prompt, Writes numbered on). */
export function splitLoaderTranscript(sessionId: string, writes: number, from = 0): string {
  const lines = from === 0 ? [user(`Split the ${sessionId} loader into ${writes} modules.`)] : []
  for (let index = from; index < from + writes; index += 1) {
    const id = `${sessionId}-t${index}`
    lines.push(
      assistant(`${sessionId}-m${index}`, [
        toolUse(id, 'Write', { file_path: `src/part${index}.ts`, content: 'x' }),
      ]),
      toolResult(id, 'File created'),
    )
  }
  lines.push(assistant(`${sessionId}-end${from}`, [text(`Split ${sessionId}; tests pass.`)]))
  const now = JSON.stringify(new Date().toISOString())
  return `${lines.map((line) => line.replace(/"timestamp":"[^"]*"/, `"timestamp":${now}`)).join('\n')}\n`
}

/** Writes it as `<folder>/<sessionId>.jsonl`, as Claude Code names a transcript; returns the path. */
export function writeSplitLoaderTranscript(
  folder: string,
  sessionId: string,
  writes: number,
): string {
  const path = join(folder, `${sessionId}.jsonl`)
  writeFileSync(path, splitLoaderTranscript(sessionId, writes))
  return path
}
