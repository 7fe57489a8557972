/**
 * Consolidation by a real chat model transport over real HTTP: the Anthropic transport against the
 * loopback Messages-API stand-in, asked with the seed's prompt, its text parsed by the same strict
 * parser as the extractive mind's. A malformed answer is retried with the problem named; two are
 * recorded as a RED observation.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAnthropicTransport } from '../src/engine/adapters/llm/anthropic-transport.ts'
import { sequentialIds } from '../src/engine/ports/id-generator.ts'
import { createMind } from '../src/mind/create-mind.ts'
import { startAnthropicMessagesStandIn } from './support/anthropic-messages-stand-in.ts'
import { runCliCaptured } from './support/run-cli-captured.ts'
import type { RecordedRequest, StandInServer } from './support/stand-in-server.ts'

let standIn: StandInServer | undefined
afterEach(async () => {
  await standIn?.close()
})

interface MessagesBody {
  system: string
  messages: { role: string; content: string }[]
}
const promptOf = (request: RecordedRequest) =>
  (request.body as MessagesBody).messages[0]?.content ?? ''

/** A cooperative answer: one observation per activity line that mentions a deadline, citing it. */
function answerFor(request: RecordedRequest): string {
  const cited = [...promptOf(request).matchAll(/^\[(\d+)\] (\d\d:\d\d) ([^:]+): (.*)$/gm)].filter(
    (match) => /Friday|merged/.test(match[4] ?? ''),
  )
  return [
    'OBSERVATIONS:',
    ...cited.map((match) => `RED ${match[2]} ${match[3]} said: ${match[4]} [lines ${match[1]}]`),
    '',
    'REFLECTION:',
    'The release is on track; the tests still fail.',
    '',
    'PRIORITY:',
    'Make the auth tests pass before Friday.',
  ].join('\n')
}

async function busy(mind: ReturnType<typeof createMind>) {
  await mind.record({ role: 'user', content: 'Ship the janee release by Friday.' })
  for (let index = 1; index <= 5; index += 1)
    await mind.action({ tool: 'bash', content: `npm test -> ${index} failing` })
  await mind.action({ tool: 'bash', content: 'gh pr merge 50 -> merged' })
}

describe('an LLM as the consolidating mind', () => {
  it('is asked with the seed prompt, retried once on a malformed answer, and its text parsed strictly', async () => {
    standIn = await startAnthropicMessagesStandIn((request, index) => ({
      text:
        index === 0
          ? `Sure! Here is the consolidation.\n${answerFor(request)}`
          : answerFor(request),
      usage: { input: 100, output: 40 },
    }))
    const transport = createAnthropicTransport({
      model: 'claude-test',
      env: { ANTHROPIC_API_KEY: 'key', ANTHROPIC_BASE_URL: standIn.url },
    })
    const mind = createMind({
      memory: true,
      transport,
      modelName: 'anthropic:claude-test',
      ids: sequentialIds(),
    })
    await busy(mind)
    const result = await mind.sleep({ seconds: 300 })

    expect(standIn.requests).toHaveLength(2)
    const [first, second] = standIn.requests as [RecordedRequest, RecordedRequest]
    expect((first.body as MessagesBody).system).toMatch(
      /^You are the consolidating mind of an autonomous creature/,
    )
    expect(promptOf(first)).toMatch(
      /^It is now \S+\. Activity since the last sleep \(7 lines\):\n\n\[1\] \d\d:\d\d user: Ship the janee release by Friday\.\n\[2\] \d\d:\d\d tool bash: npm test -> 1 failing/,
    )
    expect(promptOf(second)).toContain(
      'Your previous answer could not be read: text before OBSERVATIONS: ("Sure! Here is the consolidation.")',
    )
    expect(result).toMatchObject({
      consolidation: 'full',
      usage: { input_tokens: 200, output_tokens: 80 },
    })
    expect(result.dream).toMatchObject({
      model: 'anthropic:claude-test',
      priority: 'Make the auth tests pass before Friday.',
    })
    // The model's two lines, then the failure it left out (no later success fixed it): kept RED.
    expect(result.dream?.detail.map((item) => item.sources)).toEqual([[1], [7], [6]])
    const { observations } = await mind.observations()
    expect(observations.map((item) => item.text)).toEqual([
      'user said: Ship the janee release by Friday.',
      'tool bash said: gh pr merge 50 -> merged',
      expect.stringMatching(/^tool bash: npm test -> \d failing/),
    ])
    expect(observations[2]?.priority).toBe('RED')
  })

  it('from the CLI (--model anthropic:<model>): two bad answers become a RED observation, exit 0', async () => {
    standIn = await startAnthropicMessagesStandIn([{ text: '{"observations": []}' }])
    const cwd = mkdtempSync(join(tmpdir(), 'somnus-mind-llm-'))
    const env = { ANTHROPIC_API_KEY: 'key', ANTHROPIC_BASE_URL: standIn.url }
    const run = (args: string[]) =>
      runCliCaptured(['mind', '--model', 'anthropic:claude-test', ...args], { cwd, env })
    for (let index = 1; index <= 6; index += 1) await run(['action', 'bash', `step ${index} -> ok`])
    const slept = await run(['sleep', '300', '--json'])
    expect(slept.code).toBe(0)
    expect(JSON.parse(slept.stdout)).toMatchObject({
      consolidation: 'failed',
      dream: { kind: 'failed', model: 'anthropic:claude-test' },
    })
    expect(standIn.requests).toHaveLength(2)
    const red = JSON.parse((await run(['observations', '-p', 'RED', '--json'])).stdout)
    expect(red).toHaveLength(1)
    expect(red[0].text).toMatch(
      /^Consolidation failed \(expected the headers OBSERVATIONS:, REFLECTION:, PRIORITY:/,
    )
    expect((await run(['recall', 'step', '3'])).stdout).toMatch(
      /^conversation\.jsonl:3 {2}bash: step 3 -> ok/,
    )
  })
})
