/**
 * The creature front door (seed 004, docs/design/origins.md): `createMind(options)` opens a
 * creature's memory (a folder, `.self/` by default, or memory) and returns its sleep cycle —
 * record, action, sleep, wake, status, context, observations, dreams, recall — plus the `set_sleep`
 * tool an agent hands its model. The consolidating mind is the offline extractive one unless a chat
 * transport is given.
 */
import { lstat, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import * as z from 'zod'
import { randomIds } from '../engine/adapters/node/random-ids.ts'
import { memoryRecallShelf, openRecallShelf } from '../engine/adapters/search/recall-shelf-file.ts'
import { SomnusError } from '../engine/core/errors.ts'
import type { Priority } from '../engine/core/model-results.ts'
import type { ChatTransport } from '../engine/ports/chat-transport.ts'
import { type Clock, systemClock } from '../engine/ports/clock.ts'
import type { CpuWork } from '../engine/ports/cpu-work.ts'
import type { IdGenerator } from '../engine/ports/id-generator.ts'
import type { RecallShelf } from '../engine/ports/recall-sources.ts'
import { createFsMindStore } from './adapters/fs/fs-mind-store.ts'
import {
  createChatConsolidationModel,
  createExtractiveConsolidationModel,
} from './adapters/llm/consolidation-models.ts'
import { createMemoryMindStore } from './adapters/memory/memory-mind-store.ts'
import { listDreams, listObservations } from './app/list-memory.ts'
import { type MindContext, mindContext } from './app/mind-context.ts'
import type { MindDeps } from './app/mind-deps.ts'
import { type MindStatus, mindStatus } from './app/mind-status.ts'
import { recallMind } from './app/recall-mind.ts'
import { type ActionInput, type ActionResult, recordAction } from './app/record-action.ts'
import { type MessageInput, recordMessage } from './app/record-message.ts'
import { type SleepRequest, type SleepResult, sleepMind } from './app/sleep-mind.ts'
import { type WakeResult, wakeMind } from './app/wake-mind.ts'
import { type MindConfig, resolveMindConfig } from './core/mind-config.ts'
import type { DreamEntry } from './core/mind-state.ts'
import type { RecallHit } from './core/recall.ts'
import { MIND_RECALL_FILE } from './create-mind-recall.ts'
import type { ConsolidationModel } from './ports/consolidation-model.ts'
import type { MindStore } from './ports/mind-store.ts'

/** The creature folder when none is named. */
export const DEFAULT_MIND_FOLDER = '.self'

export { MIND_RECALL_FILE }

/** How to open a creature. */
export interface MindOptions {
  /** The creature folder. @default `.self` in the current directory */
  folder?: string
  /** How the creature names its folder in messages. @default the folder as given */
  location?: string
  /** Keep everything in memory (tests, embedders that persist elsewhere). */
  memory?: boolean
  /** A store of your own (wins over folder and memory). */
  store?: MindStore
  /** Any of the seed's numbers, changed. */
  config?: Partial<MindConfig>
  /** The consolidating mind. @default the offline extractive mind */
  model?: ConsolidationModel
  /** Where the offline mind does its work: a server's CPU threads, in the creature's lane. */
  cpu?: { work: CpuWork; lane: string }
  /** Or any chat model: asked with the seed's prompt, answers parsed strictly. */
  transport?: ChatTransport
  /** The chat model's name, stamped on its dreams. @default `chat` */
  modelName?: string
  clock?: Clock
  ids?: IdGenerator
}

/** A tool definition in the Anthropic Messages API shape (OpenAI: wrap it as a function). */
export interface ToolDefinition {
  name: string
  description: string
  input_schema: {
    type: 'object'
    properties: Record<string, unknown>
    required: string[]
  }
}

/** A creature's sleep cycle. */
export interface Mind {
  readonly config: MindConfig
  /** Where its files are (`.self`), or `memory`. */
  readonly location: string
  /** The `set_sleep` tool to hand the model. */
  readonly setSleepTool: ToolDefinition
  /** Logs a message (user, assistant or system). */
  record(input: MessageInput): Promise<{ line: number }>
  /** Logs and counts a tool call; warns at 60, forces sleep at 80 (by default). */
  action(input: ActionInput): Promise<ActionResult>
  /** Sleeps; consolidates when the seed's rules say so. */
  sleep(request: SleepRequest): Promise<SleepResult>
  /** Runs a `set_sleep` tool call's input; returns the result and the text to answer the tool call with. */
  setSleep(input: unknown, signal?: AbortSignal): Promise<SleepResult & { text: string }>
  /** Wakes; returns the wake message (logged into the conversation). */
  wake(): Promise<WakeResult>
  status(): Promise<MindStatus>
  /** The in-context window rebuilt from disk. */
  context(): Promise<MindContext>
  observations(filter?: { priority?: Priority }): ReturnType<typeof listObservations>
  dreams(limit?: number): Promise<DreamEntry[]>
  recall(query: string, limit?: number): Promise<RecallHit[]>
}

/** Opens a creature. */
export function createMind(options: MindOptions = {}): Mind {
  const config = resolveMindConfig(options.config)
  const store =
    options.store ??
    (options.memory
      ? createMemoryMindStore()
      : createFsMindStore({
          folder: resolve(options.folder ?? DEFAULT_MIND_FOLDER),
          location: options.location ?? options.folder ?? DEFAULT_MIND_FOLDER,
        }))
  const model =
    options.model ??
    (options.transport
      ? createChatConsolidationModel({
          name: options.modelName ?? 'chat',
          transport: options.transport,
        })
      : createExtractiveConsolidationModel(config.observationShare, options.cpu))
  const deps: MindDeps = {
    store,
    model,
    config,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
  }
  const setSleepTool = setSleepToolFor(config)
  // The recall index: beside the creature's files on disk (a dot-file), in memory otherwise.
  let shelf: RecallShelf | null = null
  const recallFolder =
    options.store || options.memory ? null : resolve(options.folder ?? DEFAULT_MIND_FOLDER)
  const recallShelf = (): RecallShelf => {
    shelf ??=
      recallFolder === null ? memoryRecallShelf() : openRecallShelf(recallFolder, MIND_RECALL_FILE)
    return shelf
  }
  return {
    config,
    location: store.location,
    setSleepTool,
    record: (input) => recordMessage(deps, input),
    action: (input) => recordAction(deps, input),
    sleep: (request) => sleepMind(deps, request),
    async setSleep(input, signal) {
      const seconds = (input as { seconds?: unknown } | null)?.seconds
      if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
        throw new SomnusError(
          'USAGE',
          `set_sleep needs {"seconds": <number>} (got ${JSON.stringify(input)}).`,
        )
      }
      const result = await sleepMind(deps, { seconds, signal })
      return { ...result, text: sleepText(result) }
    },
    wake: () => wakeMind(deps),
    status: () => mindStatus(deps),
    context: () => mindContext(deps),
    observations: (filter) => listObservations(deps, filter),
    dreams: (limit) => listDreams(deps, limit),
    recall: (query, limit) => recallMind({ ...deps, recallShelf: recallShelf() }, { query, limit }),
  }
}

/** The `set_sleep` tool for these settings. */
export function setSleepToolFor(config: MindConfig): ToolDefinition {
  return {
    name: 'set_sleep',
    description: `Go to sleep for a while. A sleep of ${config.quickNapSeconds} s or more, at least ${Math.round(config.minDreamIntervalMs / 60_000)} minutes after your last dream, consolidates: your recent activity becomes prioritized observations and a reflection you will be shown when you wake. Shorter or more frequent sleeps only pause.`,
    input_schema: {
      type: 'object',
      properties: {
        seconds: {
          type: 'integer',
          minimum: config.minSleepSeconds,
          maximum: config.maxSleepSeconds,
          description: 'How long to sleep, in seconds.',
        },
      },
      required: ['seconds'],
    },
  }
}

/** What a sleep says back to the model that asked for it. */
export function sleepText(result: SleepResult): string {
  const until = `Sleeping ${result.sleep.seconds} s, until ${result.sleep.wakeAt}.`
  if (!result.dream) return `${until} No consolidation: ${result.reason}.`
  const deep = result.deep ? ' It was a deep sleep: observations pruned, priorities rewritten.' : ''
  return `${until} Dreamed (${result.consolidation}): ${result.dream.observations} observations.${deep}`
}

/** The folder's optional settings file: `<folder>/mind.json`. */
export function mindSettingsPath(folder: string): string {
  return join(folder, 'mind.json')
}

/** How `somnus mind` opens a creature folder. */
export interface OpenMindFolderOptions {
  folder: string
  /** The folder as the creature names it in messages. */
  location?: string
  /** `extractive` (default), `anthropic:<model>` or `openai:<model>`; wins over mind.json. */
  model?: string | undefined
  env?: Record<string, string | undefined>
  clock?: Clock
  /** Where the offline mind does its work (MindOptions.cpu). */
  cpu?: { work: CpuWork; lane: string }
}

const SettingsSchema = z.looseObject({ model: z.string().optional() })

/**
 * Opens a creature folder with its optional settings file `<folder>/mind.json`: any of the seed's
 * numbers by name (`{"fatigueLimit": 100}`) and `model`.
 */
export async function openMindFolder(options: OpenMindFolderOptions): Promise<Mind> {
  // A creature folder linked elsewhere (a tenant's under --minds-dir) is never followed.
  if ((await lstat(options.folder).catch(() => null))?.isSymbolicLink()) {
    throw new SomnusError(
      'OUTSIDE_BRAIN',
      `Refused ${options.folder}: the creature folder is a symlink. Replace it with a real folder.`,
      { details: { path: options.folder } },
    )
  }
  const path = mindSettingsPath(options.folder)
  let settings: Record<string, unknown> = {}
  let text: string | null = null
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (text !== null) {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const parsed = SettingsSchema.safeParse(json)
    if (!parsed.success) {
      throw new SomnusError(
        'INVALID_INPUT',
        `${path} must be a JSON object of mind settings (e.g. {"fatigueLimit": 100}).`,
      )
    }
    settings = parsed.data
  }
  const { model: configuredModel, ...config } = settings as { model?: string }
  const spec = (options.model ?? configuredModel ?? 'extractive').trim()
  const env = options.env ?? {}
  const transport = await transportFor(spec, env)
  return createMind({
    folder: options.folder,
    ...(options.location ? { location: options.location } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    config: config as Partial<MindConfig>,
    ...(transport ? { transport, modelName: spec } : {}),
    ...(options.cpu ? { cpu: options.cpu } : {}),
  })
}

/** The chat transport for a model spec; undefined for `extractive`. */
async function transportFor(
  spec: string,
  env: Record<string, string | undefined>,
): Promise<ChatTransport | undefined> {
  if (spec === 'extractive') return undefined
  const [provider, ...rest] = spec.split(':')
  const model = rest.join(':').trim()
  if (provider === 'anthropic' && model !== '') {
    const { createAnthropicTransport } = await import(
      '../engine/adapters/llm/anthropic-transport.ts'
    )
    return createAnthropicTransport({ model, env })
  }
  if (provider === 'openai' && model !== '') {
    const { createOpenAiTransport } = await import('../engine/adapters/llm/openai-transport.ts')
    return createOpenAiTransport({ model, env })
  }
  throw new SomnusError(
    'MODEL_CONFIG',
    `Unknown consolidation model "${spec}". Use extractive, anthropic:<model> or openai:<model>.`,
  )
}
