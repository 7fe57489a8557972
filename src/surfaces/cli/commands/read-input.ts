/** Reads a command's text input: a file (relative to the working folder), or stdin for `-` or none. */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { CliIo } from '../cli-io.ts'

/** The text of `file`, or of stdin when `file` is `-` or missing. */
export async function readInput(io: CliIo, file: string | undefined): Promise<string> {
  if (file === undefined || file === '-') return io.readStdin()
  try {
    return await readFile(resolve(io.cwd, file), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new SomnusError(
      code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT',
      code === 'ENOENT'
        ? `No such file: ${file}. Check the path, or pass - to read stdin.`
        : `Cannot read ${file} (${code ?? 'unknown error'}): check that it is a readable text file.`,
      { cause: error },
    )
  }
}
