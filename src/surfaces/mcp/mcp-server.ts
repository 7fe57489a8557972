/**
 * `somnus mcp`: the brain as an MCP server over stdio, on the official TypeScript SDK (v2, which
 * speaks the 2026-07-28 protocol that Claude Code 2.1.3xx probes first with `server/discover`, and
 * the 2025 handshake it falls back to). Four tools: `recall`, `read`, `bookmark`, `sleep_status`.
 * Arguments pass a zod schema at the edge: a bad one is answered with an MCP error naming the
 * field, and a failing use case with an error result, never a crash. Nothing but MCP goes to
 * stdout. Loaded only by `somnus mcp`: no hook ever loads this file.
 */
import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'
import {
  type BrainRecall,
  createSomnus,
  type MemoryHit,
  type Somnus,
} from '../../brain/create-somnus.ts'
import { isSomnusError } from '../../engine/core/errors.ts'
import { VERSION } from '../cli/version.ts'

/** The kinds a recall may keep to. */
const KINDS = ['core', 'sessions', 'knowledge', 'patterns', 'transcripts'] as const

/** Characters of each hit's snippet an MCP recall returns. */
const SNIPPET_CHARS = 600
/** The most characters `read` returns (a whole transcript message or file can be long). */
const READ_CHARS = 12_000

/** What the server needs from the world. */
export interface McpContext {
  cwd: string
  env: Record<string, string | undefined>
  /** Problems that do not end a call (stderr: stdout carries MCP only). */
  warn: (message: string) => void
}

/** The tool descriptions, written for the model that decides when to call each. */
export const TOOL_DESCRIPTIONS = {
  recall:
    'Search this project\'s long-term memory (Somnus): decisions, gotchas and their fixes, known issues, what earlier sessions did and why, the core memory files, learned patterns, and the project\'s recent Claude Code transcripts. Call it BEFORE answering a question about earlier work ("why did we…", "how did we fix…", "what was decided about…", "did we already…"), before changing code or config you have not touched in this session, and when an error looks like one seen before. Each hit names its place (file:line, or transcript#message), date and sources; pass a hit\'s id to `read` for the whole section.',
  read: 'Read one memory in full by the id a `recall` hit gave: a file:line id returns the markdown section around that line, a file path returns the file, a transcript id returns that message. Call it when a recall snippet is cut short or you need the context around it.',
  bookmark:
    'Remember something now, so the next consolidation (sleep) keeps it: a decision and its reason, a gotcha and its fix, a preference the user stated, a fact a future session must know. Call it the moment the user says "remember…", or when you learn something that would be costly to rediscover. Salience 3 (critical) always reaches the brain; 2 (default) should; 1 is notable.',
  sleep_status:
    "Somnus's sleep status for this project: sleep debt and level (alert, drowsy, tired, exhausted), sessions and bookmarks waiting for consolidation, the last sleep. Call it when the user asks whether to consolidate or how much work has piled up.",
} as const

/** Serves MCP on this process's stdin and stdout until the client closes them. */
export function serveMcpStdio(context: McpContext): { close(): Promise<void> } {
  return serveStdio(() => createMcpServer(context), {
    onerror: (error) => context.warn(`mcp: ${error.message}`),
  })
}

/** A server with the four tools, on the brain found from `context.cwd` (opened at first use). */
export function createMcpServer(context: McpContext): McpServer {
  const server = new McpServer(
    { name: 'somnus', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "Somnus keeps this project's memory across sessions. Use `recall` before answering questions about earlier work or changing unfamiliar code; `bookmark` what a later session must know.",
    },
  )
  let somnus: Promise<Somnus> | null = null
  let recall: Promise<BrainRecall> | null = null
  const open = () => {
    somnus ??= createSomnus({ cwd: context.cwd, env: context.env, warn: context.warn })
    // A brain not found now may be created later (somnus init): try again next call.
    somnus.catch(() => {
      somnus = null
    })
    return somnus
  }
  const openRecall = async () => {
    recall ??= open().then((engine) => engine.recall())
    recall.catch(() => {
      recall = null
    })
    return recall
  }

  server.registerTool(
    'recall',
    {
      title: 'Recall from project memory',
      description: TOOL_DESCRIPTIONS.recall,
      inputSchema: z.object({
        query: z
          .string()
          .trim()
          .min(1)
          .max(2000)
          .describe('What to look for: plain words, an error message or a code name'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(20)
          .default(5)
          .describe('How many hits (1-20, default 5)'),
        in: z.array(z.enum(KINDS)).optional().describe('Only these kinds of memory'),
        since: z.iso
          .date()
          .or(z.iso.datetime({ offset: true }))
          .optional()
          .describe('Only memory dated on or after this day (YYYY-MM-DD) or time'),
      }),
      annotations: { readOnlyHint: true },
    },
    async (input) =>
      answer(async () => {
        const hits = await (await openRecall()).recall({
          text: input.query,
          limit: input.limit,
          snippetChars: SNIPPET_CHARS,
          ...(input.in ? { in: input.in } : {}),
          ...(input.since ? { since: input.since } : {}),
        })
        return hits.length === 0
          ? `Nothing in memory matches "${input.query}".`
          : hits.map(renderHit).join('\n\n')
      }),
  )

  server.registerTool(
    'read',
    {
      title: 'Read a memory in full',
      description: TOOL_DESCRIPTIONS.read,
      inputSchema: z.object({
        id: z
          .string()
          .trim()
          .min(1)
          .max(4000)
          .describe('The id of a recall hit (its file:line, file path or transcript#message)'),
      }),
      annotations: { readOnlyHint: true },
    },
    async (input) =>
      answer(async () => {
        const text = await (await openRecall()).read(input.id)
        if (text === null)
          throw new ToolProblem(
            `No memory has the id "${input.id}": pass an id exactly as a recall hit gave it.`,
          )
        return text.length > READ_CHARS
          ? `${text.slice(0, READ_CHARS)}\n… (cut at ${READ_CHARS} characters)`
          : text
      }),
  )

  server.registerTool(
    'bookmark',
    {
      title: 'Bookmark for the next sleep',
      description: TOOL_DESCRIPTIONS.bookmark,
      inputSchema: z.object({
        message: z
          .string()
          .trim()
          .min(1)
          .max(2000)
          .describe('What to remember, in one or two sentences'),
        salience: z
          .number()
          .int()
          .min(1)
          .max(3)
          .default(2)
          .describe('1 notable, 2 should (default), 3 must consolidate'),
      }),
    },
    async (input) =>
      answer(async () => {
        const added = await (await open()).addBookmark({
          message: input.message,
          salience: input.salience,
        })
        return `Bookmarked ${'★'.repeat(added.salience)} ${added.id}: ${added.message}`
      }),
  )

  server.registerTool(
    'sleep_status',
    {
      title: 'Sleep status',
      description: TOOL_DESCRIPTIONS.sleep_status,
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    async () =>
      answer(async () => {
        const status = await (await open()).getSleepStatus()
        const last = status.last_sleep ? `last sleep ${status.last_sleep}` : 'never slept'
        return [
          `Sleep debt ${status.debt} (${status.level}); ${last}.`,
          `${status.sessions_since_last_sleep} session(s) and ${status.bookmarks_pending} bookmark(s) wait for consolidation.`,
          status.sleep_started_at
            ? `A consolidation is in progress since ${status.sleep_started_at}.`
            : '',
        ]
          .filter(Boolean)
          .join('\n')
      }),
  )
  return server
}

/** A problem the caller can fix, reported as the tool's error result. */
class ToolProblem extends Error {}

/** The tool result of `work`: its text, or an error result saying what went wrong and the fix. */
async function answer(work: () => Promise<string>) {
  try {
    return { content: [{ type: 'text' as const, text: await work() }] }
  } catch (error) {
    const message =
      error instanceof ToolProblem || isSomnusError(error)
        ? error.message
        : `Somnus failed: ${error instanceof Error ? error.message : String(error)}`
    return { content: [{ type: 'text' as const, text: message }], isError: true }
  }
}

function renderHit(hit: MemoryHit, index: number): string {
  const date = hit.date ? `, ${hit.date.slice(0, 10)}` : ''
  const place = hit.location === hit.id ? '' : ` at ${hit.location}`
  const lines = [`${index + 1}. id ${hit.id}${place} (${hit.kind}${date})`, hit.snippet]
  if (hit.also.length > 0) lines.push(`also at: ${hit.also.join(', ')}`)
  if (hit.sources.length > 0) lines.push(`sources: ${hit.sources.slice(0, 8).join(', ')}`)
  return lines.join('\n')
}
