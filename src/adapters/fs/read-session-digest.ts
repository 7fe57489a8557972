/**
 * A session's digest from its transcript files on disk: the main transcript, then its sub-agent
 * and compaction files (`<session>/subagents/agent-*.jsonl`), each record fed to the pure builder.
 */
import { basename, dirname, join } from 'node:path'
import { SessionDigestBuilder } from '../../core/digest/session-digest-builder.ts'
import type { SessionDigestResult } from '../../ports/session-digests.ts'
import { openTranscriptLines } from './transcript-files.ts'

/** Digests the session of `transcriptPath` (records after `since` only). */
export async function readSessionDigest(
  transcriptPath: string,
  options: { sessionId: string; since?: string },
): Promise<SessionDigestResult> {
  const main = await openTranscriptLines(transcriptPath)
  if (main === null) return { missing: true }
  const builder = new SessionDigestBuilder({
    sessionId: options.sessionId,
    ...(options.since === undefined ? {} : { since: options.since }),
  })
  builder.beginFile(basename(transcriptPath), 'main')
  for await (const line of main) addLine(builder, line)
  const folder = join(dirname(transcriptPath), basename(transcriptPath, '.jsonl'), 'subagents')
  const { readdir } = process.getBuiltinModule('node:fs/promises')
  const names = await readdir(folder).catch(() => [] as string[])
  for (const name of names.filter((file) => /^agent-.+\.jsonl$/.test(file)).sort()) {
    const lines = await openTranscriptLines(join(folder, name))
    if (lines === null) continue
    const kind = name.startsWith('agent-acompact-') ? 'compaction' : 'subagent'
    builder.beginFile(`${basename(transcriptPath, '.jsonl')}/subagents/${name}`, kind)
    for await (const line of lines) addLine(builder, line)
  }
  return { digest: builder.build() }
}

function addLine(builder: SessionDigestBuilder, line: string): void {
  if (line.trim() === '') return
  try {
    builder.addRecord(JSON.parse(line))
  } catch {
    // A line Claude Code was still writing (the last one) is not a record yet.
  }
}
