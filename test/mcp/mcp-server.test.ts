/**
 * `somnus mcp` through the MCP SDK's own Client over stdio, as Claude Code reaches it: the tools
 * listed, each one called on a real brain, bad input answered with an error naming the field, and
 * the server still serving after every one of them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'

type ToolText = { content: { type: string; text: string }[]; isError?: boolean }

describe('somnus mcp over stdio, with the SDK client', () => {
  let client: Client
  let project: string

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolText
  const textOf = (result: ToolText) => result.content.map((part) => part.text).join('\n')

  beforeAll(async () => {
    await ensureBuilt()
    project = mkdtempSync(join(tmpdir(), 'somnus-mcp-'))
    const home = mkdtempSync(join(tmpdir(), 'somnus-mcp-home-'))
    expect(
      (await runCliCaptured(['init', project], { cwd: project, env: { HOME: home } })).code,
    ).toBe(0)
    writeFileSync(
      join(project, '_agent_context', 'knowledge', 'deploys.md'),
      '---\ntitle: Deploys\n---\n\n## Staging\n\nThe staging deploy needs the VPN up first; without it the rsync step hangs.\n',
    )
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SOMNUS_BIN, 'mcp'],
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stderr: 'pipe',
    })
    client = new Client({ name: 'somnus-test', version: '1.0.0' })
    await client.connect(transport)
  }, 120_000)

  afterAll(async () => {
    await client?.close()
  })

  it('lists the four tools, each with a description that says when to call it', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'bookmark',
      'read',
      'recall',
      'sleep_status',
    ])
    for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(80)
    const recall = tools.find((tool) => tool.name === 'recall')
    expect(recall?.inputSchema.required).toEqual(['query'])
  })

  it('recalls a fact with its file:line, and reads its section by the id', async () => {
    const found = await call('recall', { query: 'why does the staging deploy hang?' })
    expect(found.isError).toBeFalsy()
    expect(textOf(found)).toContain('_agent_context/knowledge/deploys.md:7')
    expect(textOf(found)).toContain('VPN up first')
    const section = await call('read', { id: '_agent_context/knowledge/deploys.md:7' })
    expect(textOf(section)).toBe(
      '## Staging\n\nThe staging deploy needs the VPN up first; without it the rsync step hangs.',
    )
  })

  it('bookmarks, and sleep_status counts the bookmark', async () => {
    const added = await call('bookmark', {
      message: 'Rotate the staging VPN key monthly',
      salience: 3,
    })
    expect(textOf(added)).toMatch(/Bookmarked ★★★ .*Rotate the staging VPN key monthly/)
    const status = await call('sleep_status', {})
    expect(textOf(status)).toContain('1 bookmark(s) wait for consolidation')
  })

  it('answers bad input with an error naming the field, and keeps serving', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['recall', { query: 42 }, /query/],
      ['recall', { query: 'x', limit: 0 }, /limit/],
      ['recall', { query: 'x', in: ['secrets'] }, /in/],
      ['recall', { query: 'x', since: 'yesterday' }, /since/],
      ['recall', {}, /query/],
      ['read', { ident: 'x' }, /id/],
      ['bookmark', { message: '' }, /message/],
      ['bookmark', { message: 'x', salience: 9 }, /salience/],
    ]
    for (const [name, args, field] of cases) {
      const result = await call(name, args)
      expect(result.isError, JSON.stringify(args)).toBe(true)
      expect(textOf(result), JSON.stringify(args)).toMatch(field)
    }
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /no_such_tool/,
    )
    expect((await call('sleep_status', {})).isError).toBeFalsy()
  })

  it('refuses an id that is not a memory (no reading files by path)', async () => {
    for (const id of [
      '/etc/passwd',
      '_agent_context/../../etc/passwd',
      '_agent_context/state/.sleep.json',
    ]) {
      const result = await call('read', { id })
      expect(result.isError, id).toBe(true)
      expect(textOf(result)).toContain('No memory has the id')
    }
  })
})
