/**
 * `/docs`: one self-contained page that reads `/openapi.json` and lists every operation with its
 * parameters, body and answers. No CDN and no framework, so it works offline and on a loopback
 * server; text from the document is set as text, never as HTML.
 */

/** The docs page's HTML. */
export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Somnus consolidation API</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 1.5rem 4rem; color: #1d1d1f; }
  h1 { margin-bottom: 0.2rem; }
  .operation { border: 1px solid #d0d0d7; border-radius: 6px; margin: 0.8rem 0; padding: 0.6rem 0.9rem; }
  .method { display: inline-block; min-width: 3.6rem; font-weight: 700; text-transform: uppercase; }
  .method.get { color: #0a6b2d; } .method.post { color: #8a4b00; } .method.delete { color: #a0001c; }
  .path { font-family: ui-monospace, monospace; font-weight: 600; }
  table { border-collapse: collapse; margin: 0.3rem 0; font-size: 0.92em; }
  td, th { border-bottom: 1px solid #eee; padding: 0.15rem 0.6rem 0.15rem 0; text-align: left; vertical-align: top; }
  code { font-family: ui-monospace, monospace; }
  .muted { color: #666; }
  #error { color: #a00; }
</style>
</head>
<body>
<h1 id="title">Somnus consolidation API</h1>
<p class="muted">Send <code>Authorization: Bearer &lt;key&gt;</code> (make a key with <code>somnus tenant create</code>). The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>
<p id="error"></p>
<div id="operations"></div>
<script>
(async () => {
  const element = (tag, attributes, ...children) => {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value)
    for (const child of children) node.append(child)
    return node
  }
  let documentJson
  try {
    const response = await fetch('/openapi.json')
    documentJson = await response.json()
  } catch (error) {
    document.getElementById('error').textContent = 'Could not load /openapi.json: ' + error
    return
  }
  const schemas = (documentJson.components && documentJson.components.schemas) || {}
  const resolve = (schema) => {
    if (schema && schema.$ref) return schemas[schema.$ref.split('/').pop()] || {}
    return schema || {}
  }
  const typeOf = (schema) => {
    if (schema.$ref) return schema.$ref.split('/').pop()
    if (schema.enum) return schema.enum.join(' | ')
    if (schema.anyOf || schema.oneOf) return (schema.anyOf || schema.oneOf).map(typeOf).join(' | ')
    if (schema.type === 'array') return typeOf(schema.items || {}) + '[]'
    const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type || 'any'
    return schema.format ? type + ' (' + schema.format + ')' : type
  }
  const schemaTable = (schema) => {
    const resolved = resolve(schema)
    const required = new Set(resolved.required || [])
    const rows = Object.entries(resolved.properties || {}).map(([name, property]) =>
      element('tr', {}, element('td', {}, element('code', {}, name + (required.has(name) ? '' : '?'))),
        element('td', {}, typeOf(property)), element('td', { class: 'muted' }, property.description || '')))
    return element('table', {}, ...rows)
  }
  document.getElementById('title').textContent = documentJson.info.title + ' ' + documentJson.info.version
  const container = document.getElementById('operations')
  for (const [path, item] of Object.entries(documentJson.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const section = element('section', { class: 'operation', 'data-path': path, 'data-method': method },
        element('div', {}, element('span', { class: 'method ' + method }, method), ' ',
          element('span', { class: 'path' }, path)),
        element('div', {}, operation.summary || ''))
      if (operation.description) section.append(element('p', { class: 'muted' }, operation.description))
      const parameters = operation.parameters || []
      if (parameters.length > 0) {
        section.append(element('strong', {}, 'Parameters'), element('table', {}, ...parameters.map((parameter) =>
          element('tr', {}, element('td', {}, element('code', {}, parameter.name)), element('td', {}, parameter.in),
            element('td', {}, typeOf(parameter.schema || {})), element('td', { class: 'muted' }, parameter.description || '')))))
      }
      const body = operation.requestBody && operation.requestBody.content && operation.requestBody.content['application/json']
      if (body) section.append(element('strong', {}, 'Body'), schemaTable(body.schema))
      section.append(element('strong', {}, 'Answers'), element('table', {}, ...Object.entries(operation.responses || {}).map(([status, answer]) =>
        element('tr', {}, element('td', {}, element('code', {}, status)), element('td', {}, answer.description || '')))))
      container.append(section)
    }
  }
  document.body.setAttribute('data-ready', 'true')
})()
</script>
</body>
</html>
`
