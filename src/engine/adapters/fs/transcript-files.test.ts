import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HAS_SHARED, REPO_ROOT, TRANSCRIPTS_DIR } from '../../../../test/support/shared-data.ts'
import { referenceAnalysis } from '../../../../test/support/transcript-reference.ts'
import { SomnusError } from '../../core/errors.ts'
import {
  analyzeTranscriptBytes,
  createTranscriptAnalyzer,
} from '../../core/transcript/transcript-analyzer.ts'
import {
  analyzeSession,
  analyzeTranscriptFile,
  listSubagentTranscripts,
  locateTranscript,
  openTranscriptLines,
  projectFolderName,
  READ_CHUNK_BYTES,
  subagentTranscriptPaths,
} from './transcript-files.ts'

const scratch = mkdtempSync(join(tmpdir(), 'somnus-transcripts-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function write(path: string, text: string | Buffer): string {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
  return path
}

const toolCall = (id: string, name: string, pad = '') =>
  JSON.stringify({
    type: 'assistant',
    message: {
      id: `m-${id}`,
      content: [{ type: 'tool_use', id, name, input: { pad } }],
      usage: { output_tokens: 1 },
    },
    timestamp: '2026-02-12T16:00:00.000Z',
  })

async function collect(lines: AsyncIterable<string> | string[]): Promise<string[]> {
  const all: string[] = []
  for await (const line of lines) all.push(line)
  return all
}

describe('analyzeTranscriptFile', () => {
  it('returns null for a missing file', async () => {
    expect(await analyzeTranscriptFile(join(scratch, 'nope.jsonl'))).toBeNull()
  })

  it('skips a file over maxBytes and says why', async () => {
    const path = write(join(scratch, 'big.jsonl'), `${toolCall('t1', 'Edit')}\n`)
    const reasons: string[] = []
    const result = await analyzeTranscriptFile(path, {
      maxBytes: 10,
      onSkip: (reason) => reasons.push(reason),
    })
    expect(result).toBeNull()
    expect(reasons).toEqual([expect.stringContaining('over the 0.0 MB limit')])
    expect((await analyzeTranscriptFile(path, { maxBytes: 10_000 }))?.change_count).toBe(1)
  })

  it('counts a file much larger than its read buffer, with lines across buffer edges', async () => {
    const lines: string[] = []
    for (let index = 0; lines.join('\n').length < READ_CHUNK_BYTES * 2.5; index++) {
      lines.push(
        toolCall(`t${index}`, index % 3 === 0 ? 'Write' : 'Bash', 'x'.repeat(index % 5000)),
      )
    }
    lines.push(toolCall('huge', 'Edit', 'y'.repeat(READ_CHUNK_BYTES + 1000))) // one line longer than a buffer
    lines.push(toolCall('last', 'Write').slice(0, 40)) // cut off: still being written
    const text = lines.join('\n')
    const path = write(join(scratch, 'large.jsonl'), text)
    const result = await analyzeTranscriptFile(path)
    expect(result).toEqual(analyzeTranscriptBytes(Buffer.from(text)))
    expect(result?.tool_count).toBe(lines.length - 1)
    expect(result?.unparsable_lines).toBe(1)
    expect(await collect((await openTranscriptLines(path)) ?? [])).toEqual(lines)
    expect(await openTranscriptLines(join(scratch, 'none.jsonl'))).toBeNull()
  })

  it.skipIf(!HAS_SHARED)(
    'counts real transcripts through its reused buffers as it counts them read at once',
    async () => {
      // Several megabytes of real records, so tool names recur across reads into the same buffers.
      const names = readdirSync(TRANSCRIPTS_DIR, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
      const bytes = Buffer.concat(names.map((name) => readFileSync(join(TRANSCRIPTS_DIR, name))))
      expect(bytes.length).toBeGreaterThan(READ_CHUNK_BYTES * 4)
      const path = write(join(scratch, 'real.jsonl'), bytes)
      expect(await analyzeTranscriptFile(path)).toEqual(analyzeTranscriptBytes(bytes))
    },
  )

  it('keeps tool names apart when a read buffer is reused for the same layout', async () => {
    // Three lines of exactly one buffer each, read one after the other into reused memory: their
    // tool names ("Read", "Glob", "Bash") land at the same offsets. A name remembered as a view of
    // the buffer, not a copy, would read as the next one.
    const line = (id: string, name: string) => {
      const bare = toolCall(id, name)
      return toolCall(id, name, 'x'.repeat(READ_CHUNK_BYTES - bare.length - 1))
    }
    const lines = [line('t1', 'Read'), line('t2', 'Glob'), line('t3', 'Bash')]
    expect(lines.every((text) => text.length === READ_CHUNK_BYTES - 1)).toBe(true)
    const path = write(join(scratch, 'reused.jsonl'), `${lines.join('\n')}\n`)
    expect((await analyzeTranscriptFile(path))?.tool_counts).toEqual({ Bash: 1, Glob: 1, Read: 1 })
  })

  it('reports an unreadable path as TRANSCRIPT_UNREADABLE', async () => {
    const folder = join(scratch, 'a-folder.jsonl')
    mkdirSync(folder, { recursive: true })
    await expect(analyzeTranscriptFile(folder)).rejects.toBeInstanceOf(SomnusError)
    await expect(analyzeTranscriptFile(folder)).rejects.toMatchObject({
      code: 'TRANSCRIPT_UNREADABLE',
    })
  })
})

describe('analyzeSession', () => {
  it('says missing, or skipped with the reason', async () => {
    expect(await analyzeSession(join(scratch, 'gone.jsonl'), {})).toEqual({ missing: true })
    const path = write(join(scratch, 'session-cap.jsonl'), `${toolCall('t1', 'Edit')}\n`)
    expect(await analyzeSession(path, { maxBytes: 5 })).toEqual({
      skipped: expect.stringContaining('limit'),
    })
  })

  it('folds sub-agent files in, leaves compaction runs out, and keeps user turns from the main file', async () => {
    const main = write(
      join(scratch, 's1.jsonl'),
      [
        toolCall('a', 'Write'),
        JSON.stringify({ type: 'user', message: { content: 'hi there' } }),
      ].join('\n'),
    )
    write(
      join(scratch, 's1/subagents/agent-a1.jsonl'),
      [
        toolCall('b', 'Edit'),
        JSON.stringify({ type: 'user', message: { content: 'sub prompt' } }),
      ].join('\n'),
    )
    write(join(scratch, 's1/subagents/agent-acompact-9.jsonl'), toolCall('c', 'Bash'))
    write(join(scratch, 's1/subagents/agent-a1.meta.json'), '{}')
    const result = await analyzeSession(main, {})
    if (!('analysis' in result)) throw new Error('expected an analysis')
    expect(result.files.map((file) => basename(file))).toEqual(['s1.jsonl', 'agent-a1.jsonl'])
    expect(result.analysis).toMatchObject({
      change_count: 2,
      tool_count: 2,
      user_turns: 1,
      subagent_files: 1,
    })
    expect(result.analysis.tool_counts).toEqual({ Edit: 1, Write: 1 })
  })
})

describe('locateTranscript', () => {
  const home = join(scratch, 'home')
  const projects = join(home, '.claude/projects')
  const cwd = '/work/my_app.v2'
  const id = '11111111-2222-3333-4444-555555555555'

  it('names project folders as Claude Code does', () => {
    expect(projectFolderName('/home/marco/projects/spotter-worktrees/spotter-dov')).toBe(
      '-home-marco-projects-spotter-worktrees-spotter-dov',
    )
    expect(projectFolderName(cwd)).toBe('-work-my-app-v2')
    expect(projectFolderName(`/${'x'.repeat(250)}`)).toBeNull()
  })

  it('prefers a given path, then the computed folder, then a scan of all projects', async () => {
    const computed = write(join(projects, '-work-my-app-v2', `${id}.jsonl`), '')
    const elsewhere = write(join(projects, '-other', 'aaaa.jsonl'), '')
    expect(await locateTranscript(id, { cwd, home })).toBe(computed)
    expect(await locateTranscript('aaaa', { cwd, home })).toBe(elsewhere)
    expect(await locateTranscript('aaaa', { cwd: `/${'x'.repeat(250)}`, home })).toBe(elsewhere)
    expect(await locateTranscript(id, { cwd, home, transcriptPath: elsewhere })).toBe(elsewhere)
    expect(
      await locateTranscript(id, { cwd, home, transcriptPath: join(scratch, 'moved.jsonl') }),
    ).toBe(computed)
    expect(await locateTranscript('missing', { cwd, home })).toBeNull()
    expect(await locateTranscript(id, { home: join(scratch, 'no-home') })).toBeNull()
    expect(await locateTranscript('aaaa', { home: scratch, projectsDir: projects })).toBe(elsewhere)
  })
})

describe.skipIf(!HAS_SHARED)('real transcripts on disk', () => {
  const sessions = [
    '258c7280-ae70-4798-800f-63464d01a85d',
    '4d5611e5-241a-462a-8d15-5122611a9569',
    '8463c716-a2ea-4c14-9efa-87158ebd9f20',
  ]

  for (const session of sessions) {
    it(`${session}: file reading equals in-memory analysis, and sub-agents are folded in`, async () => {
      const main = join(TRANSCRIPTS_DIR, `${session}.jsonl`)
      const alone = await analyzeTranscriptFile(main)
      expect(alone).toEqual(analyzeTranscriptBytes(readFileSync(main)))
      const subagents = await subagentTranscriptPaths(main)
      expect(subagents.length).toBe(1)
      expect(subagents[0]).toMatch(/subagents\/agent-a[0-9a-f]+\.jsonl$/)
      const sub = analyzeTranscriptBytes(readFileSync(subagents[0] as string))
      const result = await analyzeSession(main, {})
      if (!('analysis' in result) || alone === null) throw new Error('expected analyses')
      expect(result.files).toEqual([main, ...subagents])
      expect(result.analysis.tool_count).toBe(alone.tool_count + sub.tool_count)
      expect(result.analysis.novel_tokens).toBe(alone.novel_tokens + sub.novel_tokens)
      expect(result.analysis.user_turns).toBe(alone.user_turns)
      expect(result.analysis.subagent_files).toBe(1)
      expect(sub.tool_count).toBeGreaterThan(0)
    })
  }
})

/**
 * Somnus's own sleep, as Claude Code 2.1.329 wrote it in test/e2e/rem-sleep-dispatch.test.ts: the
 * main agent's `Agent` call (subagent_type somnus-rem-sleep) and its result, and the sub-agent's
 * user and assistant records with the `.meta.json` beside them that names its agentType.
 */
const SLEEP_FIXTURE = join(REPO_ROOT, 'test/fixtures/sleep-subagent-2.1.329')
const SLEEP_AGENT_FILE = 'agent-a25bc6dbb04fa3e9d'
const sleepDispatch = readFileSync(join(SLEEP_FIXTURE, 'dispatch.jsonl'), 'utf8')

/** Copies the sleep sub-agent's file and its `.meta.json` into `<session>/subagents/`. */
function addSleepSubagent(sessionFolder: string): void {
  for (const extension of ['.jsonl', '.meta.json']) {
    const name = `${SLEEP_AGENT_FILE}${extension}`
    write(join(sessionFolder, 'subagents', name), readFileSync(join(SLEEP_FIXTURE, name)))
  }
}

describe("Somnus's own sleep", () => {
  it('does not count the call that dispatches the sleep, on the fast path as in the reference', () => {
    const analyzer = createTranscriptAnalyzer()
    analyzer.push(Buffer.from(sleepDispatch))
    const result = analyzer.finish()
    expect(analyzer.structuralLines).toBe(0)
    expect(result).toEqual(referenceAnalysis(sleepDispatch))
    expect(result).toMatchObject({ tool_count: 0, sleep_dispatches: 1, tool_results: 1 })
    expect(result.tool_counts).toEqual({})
  })

  it("leaves the sleep's sub-agent file out by its .meta.json, and counts every other sub-agent", async () => {
    const main = write(
      join(scratch, 'sleepy.jsonl'),
      [toolCall('w1', 'Write'), toolCall('task1', 'Agent'), sleepDispatch].join('\n'),
    )
    addSleepSubagent(join(scratch, 'sleepy'))
    write(join(scratch, 'sleepy/subagents/agent-b2.jsonl'), toolCall('b', 'Edit'))
    write(
      join(scratch, 'sleepy/subagents/agent-b2.meta.json'),
      JSON.stringify({ agentType: 'Explore' }),
    )
    write(join(scratch, 'sleepy/subagents/agent-b3.jsonl'), toolCall('c', 'Bash'))
    write(join(scratch, 'sleepy/subagents/agent-b3.meta.json'), '{"agentType": ')
    const listed = await listSubagentTranscripts(main)
    expect(listed.work.map((file) => basename(file))).toEqual(['agent-b2.jsonl', 'agent-b3.jsonl'])
    expect(listed.sleep.map((file) => basename(file))).toEqual([`${SLEEP_AGENT_FILE}.jsonl`])
    expect(await subagentTranscriptPaths(main)).toEqual(listed.work)
    const result = await analyzeSession(main, {})
    if (!('analysis' in result)) throw new Error('expected an analysis')
    expect(result.files.map((file) => basename(file))).toEqual([
      'sleepy.jsonl',
      'agent-b2.jsonl',
      'agent-b3.jsonl',
    ])
    expect(result.analysis).toMatchObject({
      change_count: 2,
      tool_count: 4,
      subagent_files: 2,
      sleep_dispatches: 1,
      sleep_subagent_files: 1,
    })
    expect(result.analysis.tool_counts).toEqual({ Agent: 1, Bash: 1, Edit: 1, Write: 1 })
  })

  it('counts a session whose only work was the sleep as no work at all', async () => {
    const main = write(join(scratch, 'only-sleep.jsonl'), sleepDispatch)
    addSleepSubagent(join(scratch, 'only-sleep'))
    const result = await analyzeSession(main, {})
    if (!('analysis' in result)) throw new Error('expected an analysis')
    expect(result.analysis).toMatchObject({ change_count: 0, tool_count: 0, subagent_files: 0 })
  })

  describe.skipIf(!HAS_SHARED)('in a real session', () => {
    for (const session of [
      '258c7280-ae70-4798-800f-63464d01a85d',
      '4d5611e5-241a-462a-8d15-5122611a9569',
    ]) {
      it(`${session}: a sleep run inside it changes no count of the work`, async () => {
        const folder = join(scratch, `real-${session.slice(0, 8)}`)
        const original = join(TRANSCRIPTS_DIR, `${session}.jsonl`)
        const copy = write(
          join(folder, `${session}.jsonl`),
          `${readFileSync(original, 'utf8')}${sleepDispatch}`,
        )
        cpSync(join(TRANSCRIPTS_DIR, session), join(folder, session), { recursive: true })
        addSleepSubagent(join(folder, session))
        const before = await analyzeSession(original, {})
        const after = await analyzeSession(copy, {})
        if (!('analysis' in before) || !('analysis' in after)) throw new Error('expected analyses')
        const work = (analysis: typeof before.analysis) => ({
          change_count: analysis.change_count,
          tool_count: analysis.tool_count,
          tool_counts: analysis.tool_counts,
          user_turns: analysis.user_turns,
          task_slug_list: analysis.task_slug_list,
          decision_markers: analysis.decision_markers,
          subagent_files: analysis.subagent_files,
        })
        expect(work(after.analysis)).toEqual(work(before.analysis))
        expect(after.analysis.tool_count).toBeGreaterThan(50)
        expect(after.analysis).toMatchObject({ sleep_dispatches: 1, sleep_subagent_files: 1 })
        expect(after.files.map((file) => basename(file))).toEqual(
          before.files.map((file) => basename(file)),
        )
      })
    }
  })
})
