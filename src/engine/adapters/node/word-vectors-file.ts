/**
 * Reads the shipped word vectors (data/word-vectors/glove-100d.swv, see
 * data/word-vectors/README.md) for identity consolidation's grouping by meaning. Read once per
 * process, on first use, into shared memory: the CPU pool's threads receive the same bytes
 * without a copy. Only the service's model asks for it; the hooks never load this module.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SomnusError } from '../../core/errors.ts'
import type { WordVectorsFile } from '../../core/extractive/word-vectors.ts'
import { somnusPackageRoot } from './package-root.ts'

/** The file's path inside the package. */
export const WORD_VECTORS_PATH = join('data', 'word-vectors', 'glove-100d.swv')

/** The shipped file's full path (null when this install has no package folder). */
export function defaultWordVectorsPath(): string | null {
  const root = somnusPackageRoot()
  return root === null ? null : join(root, WORD_VECTORS_PATH)
}

/** The file at `path`, in a SharedArrayBuffer; a missing or unreadable file is ENVIRONMENT. */
export async function readWordVectorsFile(path: string): Promise<WordVectorsFile> {
  const bytes = await readFile(path).catch((error: unknown) => {
    throw new SomnusError(
      'ENVIRONMENT',
      `Cannot read the word vectors at ${path} (${error instanceof Error ? error.message : String(error)}); reinstall somnus, which ships them.`,
      { cause: error },
    )
  })
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength))
  shared.set(bytes)
  return { name: path, bytes: shared }
}

/** A loader that reads `path` (default: the shipped file) on its first call and keeps it. */
export function lazyWordVectors(path?: string): () => Promise<WordVectorsFile> {
  let loaded: Promise<WordVectorsFile> | null = null
  return () => {
    loaded ??= (async () => {
      const found = path ?? defaultWordVectorsPath()
      if (found === null) {
        throw new SomnusError(
          'ENVIRONMENT',
          'Cannot find the Somnus package folder, which holds the word vectors: reinstall somnus.',
        )
      }
      return readWordVectorsFile(found)
    })()
    // A failed read is tried again on the next call (the file may be restored meanwhile).
    loaded.catch(() => {
      loaded = null
    })
    return loaded
  }
}
