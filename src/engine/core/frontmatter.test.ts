import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import {
  type FrontmatterValue,
  fieldList,
  fieldText,
  parseFrontmatter,
  renderFrontmatter,
  updateFrontmatter,
} from './frontmatter.ts'

describe('parseFrontmatter', () => {
  it('reads scalars, quoted strings, booleans, inline and block lists', () => {
    const { data, body } = parseFrontmatter(
      [
        '---',
        'name: Fix auth',
        'summary: "has: a colon"',
        "quote: 'it''s'",
        'pinned: true',
        'feature: null',
        'inline: [a, "b, c", d]',
        'tags:',
        '  - architecture',
        '  - backend',
        'nested:',
        '  key: value',
        'notes: |',
        '  line one',
        '  line two',
        'updated: 2026-02-27 # a comment',
        '---',
        '',
        '## Why',
      ].join('\n'),
    )
    expect(data).toEqual({
      name: 'Fix auth',
      summary: 'has: a colon',
      quote: "it's",
      pinned: true,
      feature: null,
      inline: ['a', 'b, c', 'd'],
      tags: ['architecture', 'backend'],
      nested: { key: 'value' },
      notes: 'line one\nline two',
      updated: '2026-02-27',
    })
    expect(body).toBe('\n## Why')
  })

  it('agrees with the yaml package on seed 000 and the shipped templates', () => {
    const files = [
      '../../../templates/init/core/0.soul.md',
      '../../../templates/init/core/2.memory.md',
      '../../../templates/init/core/6.system_flow.md',
    ].map((path) => readFileSync(new URL(path, import.meta.url), 'utf8'))
    const seed = [
      '---',
      'id: feat_9qLM-gY_',
      'status: active',
      "created: '2026-02-25'",
      'released_version: 0.1.0',
      'tags:',
      '  - architecture',
      '  - backend',
      'related_tasks: []',
      '---',
      'body',
    ].join('\n')
    for (const text of [...files, seed]) {
      const yamlBlock = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? ''
      expect(parseFrontmatter(text).data).toEqual(parseYaml(yamlBlock))
    }
  })

  it('reads nested maps as the yaml package does, at any depth, with lists and comments', () => {
    const block = [
      'name: skill',
      'metadata:',
      '  author: someone',
      '  # a comment inside the map',
      '',
      '  version: "1.0"',
      '  tags: [a, b]',
      '  owners:',
      '    - ana',
      '    - bo',
      '  deeper:',
      '    level: three',
      '    empty:',
      '    flag: true',
      '  list_at_key_indent:',
      '  - x',
      'after: last',
      'none: {}',
    ].join('\n')
    const parsed = parseFrontmatter(`---\n${block}\n---\nbody`)
    expect(parsed.data).toEqual(parseYaml(block))
    expect(parsed.data.metadata).toMatchObject({ deeper: { level: 'three', empty: null } })
    expect(parsed.body).toBe('body')
  })

  it('treats a file without frontmatter as all body', () => {
    expect(parseFrontmatter('# Title\ntext')).toEqual({ data: {}, body: '# Title\ntext' })
    expect(parseFrontmatter('---\nno end')).toEqual({ data: {}, body: '---\nno end' })
  })

  it('splits head and body at the closing line, CRLF bodies made LF', () => {
    expect(parseFrontmatter('---\r\ntitle: A\r\n...  \r\nline 1\r\nline 2\r')).toEqual({
      data: { title: 'A' },
      body: 'line 1\nline 2\r',
    })
    expect(parseFrontmatter('---\ntitle: A\n---')).toEqual({ data: { title: 'A' }, body: '' })
    const lines = fc.constantFrom(
      '---',
      '--- ',
      '...',
      'title: x',
      'tags: [a]',
      '- b',
      '',
      'text',
      'a\r',
    )
    const documents = fc
      .tuple(fc.array(lines, { maxLength: 8 }), fc.array(fc.constantFrom('\n', '\r\n')))
      .map(([parts, ends]) => parts.map((part, index) => part + (ends[index] ?? '\n')).join(''))
    fc.assert(
      fc.property(documents, (text) => {
        // The reference: every line split, the body joined again (the reader before it sped up).
        const all = text.split(/\r?\n/)
        const end = all.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line))
        const parsed = parseFrontmatter(text)
        if (all[0]?.trimEnd() !== '---' || end === -1)
          expect(parsed).toEqual({ data: {}, body: text })
        else expect(parsed.body).toBe(all.slice(end + 1).join('\n'))
      }),
    )
  })
})

/** YAML treats C0/C1 controls, line separators and the BOM specially; brain files never hold them. */
function isPrintable(character: string): boolean {
  const code = character.codePointAt(0) ?? 0
  return (
    code > 0x1f &&
    (code < 0x7f || code > 0x9f) &&
    code !== 0x2028 &&
    code !== 0x2029 &&
    code !== 0xfeff
  )
}

describe('renderFrontmatter', () => {
  const key = fc.stringMatching(/^[a-z][a-z_]{0,11}$/)
  const text = fc
    .oneof(fc.string({ maxLength: 40 }), fc.string({ maxLength: 20, unit: 'binary' }))
    .filter((value) => [...value].every(isPrintable))
  const value = fc.oneof(text, fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 4 }))

  it('quotes strings YAML 1.2 would read as numbers: hexadecimal, octal, infinity, NaN', () => {
    // Found by the property below (seed -935831597): `0x0` came back from the yaml package as 0.
    const data = { a: ['0x0', '0o17', '.inf', '-.Inf', '.nan'], b: '0xFF' }
    const rendered = renderFrontmatter(data, '\nbody\n')
    const yamlBlock = /^---\n([\s\S]*?)\n?---/.exec(rendered)?.[1] ?? ''
    expect(parseYaml(yamlBlock)).toEqual(data)
    expect(parseFrontmatter(rendered).data).toEqual(data)
  })

  it('writes what both this reader and the yaml package read back unchanged', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (data) => {
        const rendered = renderFrontmatter(data, '\nbody\n')
        const parsed = parseFrontmatter(rendered)
        expect(parsed.data).toEqual(data)
        expect(parsed.body).toBe('\nbody\n')
        const yamlBlock = /^---\n([\s\S]*?)\n?---/.exec(rendered)?.[1] ?? ''
        expect(parseYaml(yamlBlock) ?? {}).toEqual(data)
      }),
      { numRuns: 500 },
    )
  })
})

describe('renderFrontmatter with nested maps', () => {
  const key = fc.stringMatching(/^[a-z][a-z_]{0,11}$/)
  const text = fc.string({ maxLength: 20 }).filter((value) => [...value].every(isPrintable))
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.boolean(),
      fc.constant(null),
      fc.array(text, { maxLength: 3 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  }))

  it('writes nested maps that this reader and the yaml package read back unchanged', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), (data) => {
        const rendered = renderFrontmatter(data as Record<string, FrontmatterValue>, 'body\n')
        expect(parseFrontmatter(rendered).data).toEqual(data)
        const yamlBlock = /^---\n([\s\S]*?)\n?---/.exec(rendered)?.[1] ?? ''
        expect(parseYaml(yamlBlock) ?? {}).toEqual(data)
      }),
      { numRuns: 300 },
    )
  })

  it('updateFrontmatter keeps a nested map as written when it sets a sibling', () => {
    const text = '---\nname: x\nmetadata:\n  author: a\n  deeper:\n    k: v\n---\nbody\n'
    const next = updateFrontmatter(text, { name: 'y' })
    expect(next).toBe(text.replace('name: x', 'name: y'))
    expect(parseFrontmatter(next).data.metadata).toEqual({ author: 'a', deeper: { k: 'v' } })
  })
})

describe('updateFrontmatter', () => {
  it('replaces and adds fields, keeping every other line', () => {
    const text = '---\nname: x\nstatus: active\ntags:\n  - a\n# keep me\n---\nbody\n'
    const next = updateFrontmatter(text, {
      status: 'completed',
      tags: 'b',
      completed: '2026-03-01',
    })
    expect(next).toBe(
      '---\nname: x\nstatus: completed\ntags: b\n# keep me\ncompleted: 2026-03-01\n---\nbody\n',
    )
  })

  it('adds a frontmatter to a file without one', () => {
    expect(updateFrontmatter('body', { status: 'done' })).toBe('---\nstatus: done\n---\nbody')
  })
})

describe('field helpers', () => {
  it('read text and lists leniently', () => {
    const data = { a: 'x', b: '', c: true, d: ['p', 'q'], e: 'p, q' }
    expect([
      fieldText(data, 'a'),
      fieldText(data, 'b'),
      fieldText(data, 'c'),
      fieldText(data, 'd'),
    ]).toEqual(['x', null, 'true', null])
    expect(fieldList(data, 'd')).toEqual(['p', 'q'])
    expect(fieldList(data, 'e')).toEqual(['p', 'q'])
    expect(fieldList(data, 'missing')).toEqual([])
  })
})

describe('updateFrontmatter keeps unchanged lines as written', () => {
  it('leaves a quoted value alone when it does not change, and rewrites it when it does', () => {
    const text = '---\nname: Memory\nupdated: "2026-11-21"\n---\nbody\n'
    expect(updateFrontmatter(text, { updated: '2026-11-21' })).toBe(text)
    expect(updateFrontmatter(text, { updated: '2026-11-22' })).toBe(
      '---\nname: Memory\nupdated: 2026-11-22\n---\nbody\n',
    )
  })
})
