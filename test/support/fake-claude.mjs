#!/usr/bin/env node
// A stand-in for `claude -p --output-format json`: reads the prompt on stdin and prints one result
// object the way Claude Code 2.1.x does. FAKE_CLAUDE_MODE picks the behaviour: `ok` (default),
// `api-error`, `garbage`, `hang`, `relay`. `ok` answers FAKE_CLAUDE_RESULT, or else an echo of what
// it got; `relay` asks ANTHROPIC_BASE_URL's Messages API (a loopback stand-in) and prints its text.
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk) => {
  input += chunk
})
process.stdin.on('end', () => {
  const mode = process.env.FAKE_CLAUDE_MODE ?? 'ok'
  if (mode === 'hang') {
    // Hangs for a minute, then gives up, so a test that failed to kill it leaves no process behind.
    setTimeout(() => process.exit(9), 60_000)
    return
  }
  if (mode === 'relay') {
    relay(input).then(
      (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
      (error) => {
        process.stderr.write(`relay failed: ${error.message}\n`)
        process.exit(3)
      },
    )
    return
  }
  if (mode === 'garbage') {
    process.stderr.write('claude: something broke before the result\n')
    process.exit(2)
  }
  const echo = {
    args: process.argv.slice(2),
    stdin: input,
    maxOutputTokens: process.env.CLAUDE_CODE_MAX_OUTPUT_TOKENS,
    maxRetries: process.env.CLAUDE_CODE_MAX_RETRIES,
    hasKey: Boolean(process.env.ANTHROPIC_API_KEY),
    baseUrl: process.env.ANTHROPIC_BASE_URL,
  }
  const failed = mode === 'api-error'
  const result = {
    type: 'result',
    subtype: 'success',
    is_error: failed,
    api_error_status: failed ? 401 : null,
    stop_reason: failed ? 'stop_sequence' : 'end_turn',
    result: failed
      ? `Invalid API key ${process.env.ANTHROPIC_API_KEY} · Fix external API key`
      : (process.env.FAKE_CLAUDE_RESULT ?? JSON.stringify(echo)),
    usage: {
      input_tokens: 40,
      cache_creation_input_tokens: 2,
      cache_read_input_tokens: 0,
      output_tokens: 8,
    },
  }
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(failed ? 1 : 0)
})

/** One non-streaming Messages API call with the system prompt from the arguments. */
async function relay(prompt) {
  const args = process.argv.slice(2)
  const system = args[args.indexOf('--system-prompt') + 1] ?? ''
  const model = args.includes('--model') ? args[args.indexOf('--model') + 1] : 'claude-default'
  const response = await fetch(`${process.env.ANTHROPIC_BASE_URL}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY },
    body: JSON.stringify({
      model,
      max_tokens: Number(process.env.CLAUDE_CODE_MAX_OUTPUT_TOKENS),
      system,
      messages: [{ role: 'user', content: prompt }],
    }),
  })
  const body = await response.json()
  const text = (body.content ?? []).map((block) => block.text ?? '').join('')
  return {
    type: 'result',
    subtype: 'success',
    is_error: !response.ok,
    api_error_status: response.ok ? null : response.status,
    stop_reason: body.stop_reason ?? 'end_turn',
    result: response.ok ? text : (body.error?.message ?? 'error'),
    usage: body.usage ?? {},
  }
}
