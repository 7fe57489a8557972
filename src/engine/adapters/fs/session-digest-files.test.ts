/** Session digests read from disk: what goes into a digest besides the main transcript. */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readSessionDigest } from './session-digest-files.ts'

/** Somnus's own sleep as Claude Code 2.1.329 wrote it (see transcript-files.test.ts). */
const SLEEP_FIXTURE = join(import.meta.dirname, '../../../../test/fixtures/sleep-subagent-2.1.329')
const SLEEP_AGENT = 'agent-a25bc6dbb04fa3e9d'
const scratch = mkdtempSync(join(tmpdir(), 'somnus-digest-files-'))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('readSessionDigest', () => {
  it("leaves Somnus's own sleep sub-agent out of the digest, and reads every other sub-agent", async () => {
    const main = join(scratch, 'sleepy.jsonl')
    writeFileSync(main, readFileSync(join(SLEEP_FIXTURE, 'dispatch.jsonl')))
    const subagents = join(scratch, 'sleepy', 'subagents')
    mkdirSync(subagents, { recursive: true })
    for (const extension of ['.jsonl', '.meta.json'])
      copyFileSync(
        join(SLEEP_FIXTURE, `${SLEEP_AGENT}${extension}`),
        join(subagents, `${SLEEP_AGENT}${extension}`),
      )
    // Another sub-agent's work is part of the session: the same records, under another type.
    copyFileSync(join(SLEEP_FIXTURE, `${SLEEP_AGENT}.jsonl`), join(subagents, 'agent-b2.jsonl'))
    writeFileSync(join(subagents, 'agent-b2.meta.json'), JSON.stringify({ agentType: 'Explore' }))

    const found = await readSessionDigest(main, {})
    if (!('digest' in found)) throw new Error(`not read: ${JSON.stringify(found)}`)
    expect(found.digest.files).toEqual(['sleepy.jsonl', 'subagents/agent-b2.jsonl'])
  })
})
