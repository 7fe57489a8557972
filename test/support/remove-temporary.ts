/**
 * Removing a test's temporary folder while a process the test started detached (a SessionEnd's
 * pattern encode, the CLI's code cache) may still be writing into it.
 */
import { rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'

/**
 * Removes `dir`, retrying for up to `seconds` while a late writer empties it; a folder still not
 * removable then is left in the temporary folder with a warning: the test's verdict does not
 * depend on it, and a busy machine can keep a detached writer alive past any fixed wait.
 */
export async function removeTemporary(dir: string, seconds = 10): Promise<void> {
  const until = Date.now() + seconds * 1000
  for (;;) {
    try {
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
      return
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if ((code !== 'ENOTEMPTY' && code !== 'EBUSY') || Date.now() > until) {
        if (code === 'ENOTEMPTY' || code === 'EBUSY')
          process.stderr.write(`left ${dir} behind: a detached writer kept filling it (${code})\n`)
        else throw error
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

/**
 * `removeTemporary` for a synchronous teardown: node's own retries (2 s), then the folder is left
 * behind with a warning rather than failing a test whose verdict was already given.
 */
export function removeTemporarySync(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOTEMPTY' && code !== 'EBUSY') throw error
    process.stderr.write(`left ${dir} behind: a detached writer kept filling it (${code})\n`)
  }
}
