/**
 * The sources a brain line cites, resolved to what the dashboard can open: the session digest and
 * the transcript record ids in it. Lines cite them in comments that sleep runs write:
 * `<!-- sources: session:4d5611e5, e95c1e9a; extractive 2026-02-12 -->` (core files) and
 * `<!-- src: d065d1d4, 727232f5 -->` (digests, whose session is the digest's own).
 */

/** One cited session: its digest when the brain has one, and the record ids cited in it. */
export interface SourceRef {
  /** The session id or its first 8 characters, as cited. */
  session: string
  /** The digest's path under the context root, or null when there is none (not digested). */
  digest: string | null
  records: string[]
}

/** Finds a session's digest by the id or its 8-character prefix. */
export type DigestFinder = (session: string) => string | null

const SOURCES_COMMENT = /<!--\s*(sources|src):\s*([^>]*?)\s*-->/g
const RECORD_ID = /^[0-9a-f]{8}(?:-[0-9a-f-]{27})?$/

/** The digest finder for digests named `<date>-<first 8 of the session id>.md`. */
export function digestFinder(digestPaths: readonly string[]): DigestFinder {
  const byPrefix = new Map<string, string>()
  for (const path of digestPaths) {
    const match = /-([0-9A-Za-z_-]{1,64})\.md$/.exec(path)
    const prefix = match?.[1]?.split('-').pop()
    if (prefix) byPrefix.set(prefix, path)
  }
  return (session) => byPrefix.get(session.slice(0, 8)) ?? byPrefix.get(session) ?? null
}

/** The sources cited on `line`; `ownSession` is the session of a digest's own `src:` comments. */
export function sourcesOfLine(
  line: string,
  findDigest: DigestFinder,
  ownSession: string | null = null,
): SourceRef[] {
  const refs: SourceRef[] = []
  for (const match of line.matchAll(SOURCES_COMMENT)) {
    const kind = match[1]
    const body = (match[2] ?? '').split(';')[0] ?? ''
    let current: SourceRef | null = null
    if (kind === 'src' && ownSession !== null) {
      current = { session: ownSession, digest: findDigest(ownSession), records: [] }
      refs.push(current)
    }
    for (const token of body.split(/[\s,]+/).filter(Boolean)) {
      const session = token.startsWith('session:') ? token.slice('session:'.length) : null
      if (session !== null || current === null || !RECORD_ID.test(token)) {
        const id = session ?? token
        current = { session: id, digest: findDigest(id), records: [] }
        refs.push(current)
      } else {
        current.records.push(token)
      }
    }
  }
  return refs
}

/** The sources of a list of ids as the changelog keeps them: a session id, then its record ids. */
export function sourcesOfIds(ids: readonly string[], findDigest: DigestFinder): SourceRef[] {
  return sourcesOfLine(`<!-- sources: ${ids.join(', ')} -->`, findDigest)
}

/** The session a digest path belongs to (its file name's last part), for its `src:` comments. */
export function sessionOfDigest(path: string): string | null {
  return /-([0-9A-Za-z_]{1,64})\.md$/.exec(path)?.[1] ?? null
}
