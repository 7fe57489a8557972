/**
 * A recall shelf kept beside what it indexes (`_agent_context/state/.recall-brain.json`, a
 * creature's `.recall-index.json`): a small manifest naming the index's segment files and their
 * dead documents, a stamps file (each source's stamp and entry ids, read only to update the
 * shelf), and the segments (`.recall-brain.<token>.seg`), each written once and then only read,
 * piece by piece. Files are written whole by atomic rename and read confined to their folder,
 * never through a symlink. A missing, damaged or older-format shelf starts empty and is rebuilt
 * from its sources: it is derived data only.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { RecallShelf } from '../../ports/recall-sources.ts'
import { writeFileAtomicSync } from '../fs/atomic-write.ts'
import { confineTo } from '../fs/confined-path.ts'
import { createMiniSearchRecallIndex } from './minisearch-recall-index.ts'
import { type ByteSource, openSegment } from './recall-segment.ts'
import {
  createSegmentedRecallIndex,
  type Segment,
  type SegmentedRecallIndex,
} from './segmented-recall-index.ts'

/** Bumped when the layout changes: a shelf of another format is rebuilt, not read. */
const SHELF_FORMAT = 4
/** Segment files no manifest names are removed once this old (a writer may not have saved yet). */
const ORPHAN_AGE_MS = 60_000

type Stamps = Map<string, { stamp: string; ids: string[] }>

interface Manifest {
  format: number
  segments: { file: string; dead: number[] }[]
}

/** A shelf on disk. */
export interface FileRecallShelf extends RecallShelf {
  readonly index: SegmentedRecallIndex
}

/**
 * The shelf `name` (`state/.recall-brain.json`: a path relative to `root`, the folder Somnus owns);
 * an empty one when there is none yet.
 */
export function openRecallShelf(root: string, name: string): FileRecallShelf {
  const confined = confineTo(root)
  const base = name.replace(/\.json$/, '')
  const folder = dirname(name)
  const manifestPath = confined.resolve(name)
  const stampsPath = confined.resolve(`${base}.stamps.json`)
  // The real folder, checked to be inside root: segments are opened in it without following links.
  const realFolder = () => confined.existingFolder(folder === '.' ? root : confined.resolve(folder))
  const loaded = loadSegments(
    realFolder,
    readOrNull(() => confined.readText(manifestPath)),
  )
  const index = createSegmentedRecallIndex(loaded ?? [])
  const idsPath = confined.resolve(`${base}.ids.json`)
  let stamps: Stamps | null = loaded === null ? new Map() : null
  let ids: Map<string, string[]> | null = null
  // The ids of each source's entries are needed only to replace them: a query reads the stamps
  // (a line per source), never the ids (a line per entry: 200,000 for a large creature).
  const idsOf = (key: string): string[] => {
    ids ??= new Map(parseList<string[]>(readOrNull(() => confined.readText(idsPath))))
    return ids.get(key) ?? []
  }
  const readStamps = (): Stamps =>
    new Map(
      parseList<string>(readOrNull(() => confined.readText(stampsPath))).map(([key, stamp]) => {
        const value = {
          stamp,
          get ids() {
            return idsOf(key)
          },
        }
        return [key, value]
      }),
    )
  return {
    index,
    get stamps() {
      stamps ??= readStamps()
      return stamps
    },
    existed: loaded !== null,
    async save() {
      index.compact()
      let counter = 0
      for (const segment of index.segments) {
        if (segment.name !== null || segment.bytes === null) continue
        counter += 1
        const file = `${basename(base)}.${Date.now().toString(36)}-${process.pid}-${counter}.seg`
        const path = confined.prepareWrite(confined.resolve(join(folder, file)))
        writeFileAtomicSync(path, segment.bytes)
        segment.name = file
        segment.bytes = null
        // Read from the file from now on: a reader over the buffer kept every segment a build
        // wrote in memory (a 200,000-line creature: ~120 MB of its 400 MB peak).
        segment.reader = openSegment(fileSource(path))
      }
      const manifest: Manifest = {
        format: SHELF_FORMAT,
        segments: index.segments.map((segment) => ({
          file: segment.name ?? '',
          dead: [...segment.dead],
        })),
      }
      const current = [...(stamps ?? readStamps())]
      writeFileAtomicSync(
        confined.prepareWrite(idsPath),
        JSON.stringify(current.map(([key, value]) => [key, value.ids])),
      )
      writeFileAtomicSync(
        confined.prepareWrite(stampsPath),
        JSON.stringify(current.map(([key, value]) => [key, value.stamp])),
      )
      writeFileAtomicSync(confined.prepareWrite(manifestPath), JSON.stringify(manifest))
      const real = realFolder()
      if (real !== null)
        removeOrphans(
          real,
          basename(base),
          new Set(manifest.segments.map((segment) => segment.file)),
        )
    },
  }
}

/** The segments a manifest names, or null when it is missing, foreign or any segment unreadable. */
function loadSegments(realFolder: () => string | null, text: string | null): Segment[] | null {
  if (text === null) return null
  try {
    const folder = realFolder()
    if (folder === null) return null
    const manifest = JSON.parse(text) as Manifest
    if (manifest.format !== SHELF_FORMAT || !Array.isArray(manifest.segments)) return null
    return manifest.segments.map((entry) => {
      if (!/^[\w.-]+\.seg$/.test(entry.file)) throw new Error('bad segment name')
      return {
        name: entry.file,
        reader: openSegment(fileSource(join(folder, entry.file))),
        bytes: null,
        dead: new Set(entry.dead),
      }
    })
  } catch {
    return null
  }
}

/**
 * A regular file read piece by piece (never through a symlink); kept open for the process.
 * O_NONBLOCK: a FIFO planted in a segment's place would otherwise block the prompt hook in open().
 */
function fileSource(path: string): ByteSource {
  const descriptor = openSync(
    path,
    constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
  )
  const stat = fstatSync(descriptor)
  if (!stat.isFile()) {
    closeSync(descriptor)
    throw new Error(`${path} is not a file`)
  }
  return {
    size: stat.size,
    read(offset, bytes) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(bytes, stat.size - offset)))
      let done = 0
      while (done < buffer.length) {
        const read = readSync(descriptor, buffer, done, buffer.length - done, offset + done)
        if (read === 0) throw new Error(`${path} ended early`)
        done += read
      }
      return buffer
    },
  }
}

/** Deletes this shelf's segment files that no manifest names and that are old enough. */
function removeOrphans(folder: string, base: string, kept: Set<string>): void {
  try {
    for (const file of readdirSync(folder)) {
      if (!file.startsWith(`${base}.`) || !file.endsWith('.seg') || kept.has(file)) continue
      const path = join(folder, file)
      const stat = lstatSync(path)
      if (stat.isFile() && Date.now() - stat.mtimeMs > ORPHAN_AGE_MS) rmSync(path, { force: true })
    }
  } catch {
    // Tidying only: a segment left behind is removed on a later save.
  }
}

/** `[key, value]` pairs of a JSON list, or none when the text is missing or not such a list. */
function parseList<T>(text: string | null): [string, T][] {
  try {
    const parsed = JSON.parse(text ?? '') as unknown
    return Array.isArray(parsed)
      ? parsed.filter(
          (item): item is [string, T] => Array.isArray(item) && typeof item[0] === 'string',
        )
      : []
  } catch {
    return []
  }
}

/** The text `read` gives, or null when it fails (a link where the file should be, a folder). */
function readOrNull(read: () => string | null): string | null {
  try {
    return read()
  } catch {
    return null
  }
}

/** A shelf that lives only as long as the process (a creature in memory, a store of your own). */
export function memoryRecallShelf(): RecallShelf {
  return {
    index: createMiniSearchRecallIndex(),
    stamps: new Map(),
    existed: true,
    save: async () => undefined,
  }
}
