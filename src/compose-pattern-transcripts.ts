/** A session's transcript lines for encoding: the main file, then its sub-agent files. */
import { basename } from 'node:path'
import { transcriptFiles } from './compose-transcripts.ts'
import { SomnusError } from './core/errors.ts'

/** The lines of `transcriptPath` and `<session>/subagents/*.jsonl`, and the session id its name gives. */
export async function sessionLines(
  transcriptPath: string,
): Promise<{ sessionId: string; lines: AsyncIterable<string> }> {
  const main = await transcriptFiles.openTranscriptLines(transcriptPath)
  if (main === null) {
    throw new SomnusError(
      'TRANSCRIPT_UNREADABLE',
      `No transcript at ${transcriptPath}: pass the path of a Claude Code session's .jsonl file.`,
    )
  }
  const { subagentTranscriptPaths } = await import('./adapters/fs/transcript-files.ts')
  const others = await subagentTranscriptPaths(transcriptPath)
  async function* all(): AsyncGenerator<string> {
    yield* main as AsyncGenerator<string>
    for (const path of others) {
      const lines = await transcriptFiles.openTranscriptLines(path)
      if (lines) yield* lines
    }
  }
  return { sessionId: basename(transcriptPath, '.jsonl'), lines: all() }
}
