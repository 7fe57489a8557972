// The Somnus dashboard page: fetches the JSON endpoints of the server that sent it and draws them
// with uPlot. Everything shown comes from a brain, a creature or a tenant, so it is attacker text:
// it is set with textContent and attributes only, never as HTML. Served with a CSP that allows
// scripts from this origin only.
;(() => {
  const view = document.body.dataset.view
  const main = document.getElementById('main')
  const errorLine = document.getElementById('error')
  /** The tenant's API key (tenant view): in memory only, never in a URL or storage. */
  let apiKey = null

  // ---- helpers -------------------------------------------------------------------------------

  /** An element with attributes (strings) and children (nodes or strings, set as text). */
  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== null && value !== undefined && value !== false)
        node.setAttribute(name, String(value))
    }
    for (const child of children.flat(Number.POSITIVE_INFINITY)) {
      if (child === null || child === undefined || child === false) continue
      node.append(child instanceof Node ? child : String(child))
    }
    return node
  }
  const text = (value) => (value === null || value === undefined ? '' : String(value))
  // One formatter: toLocaleString builds a new one per call, which cost seconds on big tables.
  const numberFormat = new Intl.NumberFormat('en')
  const number = (value) => (typeof value === 'number' ? numberFormat.format(value) : text(value))
  const seconds = (iso) => {
    const ms = Date.parse(iso)
    return Number.isNaN(ms) ? null : ms / 1000
  }
  const shortTime = (iso) =>
    text(iso)
      .replace('T', ' ')
      .replace(/\.\d+Z$/, 'Z')

  /** A hash link inside the page (paths are encoded, so a crafted name stays one argument). */
  const hashLink = (route, label, attributes) =>
    el('a', { href: `#${route}`, ...(attributes || {}) }, label)

  async function getJson(path) {
    const headers = apiKey ? { Authorization: `Bearer ${apiKey}` } : {}
    const response = await fetch(path, { headers, credentials: 'omit', cache: 'no-store' })
    if (response.status === 404) return null
    if (!response.ok) {
      let message = `${response.status} ${response.statusText}`
      try {
        const body = await response.json()
        message = text(body.error?.message || body.message || message)
      } catch {}
      throw new Error(message)
    }
    return response.json()
  }

  const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

  /** Rows a table draws at once: a 1,000-sleep brain's tables stay fast to draw. */
  const PAGE_ROWS = 100

  /**
   * A table of rows, the numbers beside a chart. `columns`: [{ label, value(row, index), number? }].
   * Long tables are drawn a page at a time, with buttons (keyboard reachable) to the other pages;
   * data-rows holds the count of all rows.
   */
  function table(caption, columns, rows, rowClass) {
    const body = el('tbody', {})
    const drawRow = (row, index) =>
      el(
        'tr',
        { class: rowClass ? rowClass(row) : null },
        columns.map((column) => {
          const value = column.value(row, index)
          return el(
            'td',
            { class: column.number ? 'number' : null },
            value instanceof Node ? value : column.number ? number(value) : text(value),
          )
        }),
      )
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS))
    const status = el('span', { class: 'pager-status', 'aria-live': 'polite' })
    const previous = el('button', { type: 'button', class: 'pager-previous' }, 'Previous rows')
    const next = el('button', { type: 'button', class: 'pager-next' }, 'Next rows')
    let page = 0
    const draw = (to) => {
      page = Math.min(pages - 1, Math.max(0, to))
      const start = page * PAGE_ROWS
      const end = Math.min(rows.length, start + PAGE_ROWS)
      const drawn = []
      for (let index = start; index < end; index++) drawn.push(drawRow(rows[index], index))
      body.replaceChildren(...drawn)
      previous.disabled = page === 0
      next.disabled = page === pages - 1
      status.textContent = `rows ${number(start + 1)}–${number(end)} of ${number(rows.length)}`
    }
    previous.addEventListener('click', () => draw(page - 1))
    next.addEventListener('click', () => draw(page + 1))
    draw(0)
    return el(
      'div',
      { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
      el(
        'table',
        { 'data-rows': rows.length },
        el('caption', {}, caption),
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            columns.map((column) =>
              el('th', { scope: 'col', class: column.number ? 'number' : null }, column.label),
            ),
          ),
        ),
        body,
      ),
      pages > 1 ? el('div', { class: 'pager' }, previous, ' ', status, ' ', next) : null,
    )
  }

  /**
   * A uPlot chart beside the table of its numbers. `x`: the x values; `series`: [{ label, values,
   * color, dash?, bars?, points? }]. The figure's data-points is what uPlot holds, read back.
   */
  function chart({ id, title, x, time, series, yLabel, columns, rows, rowClass }) {
    const box = el('div', {
      class: 'chart',
      role: 'img',
      'aria-label': `${title}: the numbers are in the table beside it`,
    })
    const figure = el(
      'section',
      { class: 'card', id, 'aria-labelledby': `${id}-title` },
      el('h2', { id: `${id}-title` }, title),
    )
    figure.append(
      el('div', { class: 'figure' }, box, table(`${title} (numbers)`, columns, rows, rowClass)),
    )
    const width = () => Math.max(280, box.clientWidth || 600)
    const axis = {
      stroke: cssVar('--fg'),
      grid: { stroke: cssVar('--line'), width: 1 },
      ticks: { stroke: cssVar('--line') },
    }
    const options = {
      width: 600,
      height: 260,
      scales: {
        x: time ? { time: true } : { time: false, range: (_u, min, max) => [min - 0.6, max + 0.6] },
      },
      axes: [axis, { ...axis, label: yLabel || '' }],
      series: [
        { label: time ? 'time' : '#' },
        ...series.map((one) => ({
          label: one.label,
          stroke: one.color,
          fill: one.bars ? one.color : undefined,
          width: one.bars ? 0 : 2,
          dash: one.dash,
          spanGaps: false,
          paths: one.bars
            ? uPlot.paths.bars({ size: [0.6, 40] })
            : one.points
              ? () => null
              : undefined,
          points: {
            show: !one.dash && !one.bars && (one.points || x.length < 60),
            size: 7,
            stroke: one.color,
            fill: one.color,
          },
        })),
      ],
    }
    const plot = new uPlot(options, [x, ...series.map((one) => one.values)], box)
    figure.dataset.points = String(plot.data[0].length)
    requestAnimationFrame(() => plot.setSize({ width: width(), height: 260 }))
    return figure
  }

  /** Sources of a line as links: the session's digest, and each record id in it. */
  function sourceLinks(sources) {
    if (!sources || sources.length === 0) return null
    const links = []
    for (const source of sources) {
      if (source.digest) {
        links.push(
          hashLink(
            `doc/${encodeURIComponent(source.digest)}`,
            `session ${source.session.slice(0, 8)}`,
            { class: 'source', 'data-source': 'session' },
          ),
        )
        for (const record of source.records) {
          links.push(
            hashLink(
              `doc/${encodeURIComponent(source.digest)}/${encodeURIComponent(record)}`,
              record.slice(0, 8),
              {
                class: 'source',
                'data-source': 'record',
                title: `record ${record} in the digest of ${source.session}`,
              },
            ),
          )
        }
      } else {
        links.push(
          el(
            'span',
            { class: 'muted', title: 'no digest of this session in the brain' },
            [source.session, ...source.records].join(' '),
          ),
        )
      }
    }
    return el('span', { class: 'sources' }, '← ', links)
  }

  function card(title, ...children) {
    return el('section', { class: 'card' }, el('h2', {}, title), ...children)
  }

  function show(...nodes) {
    main.replaceChildren(...nodes)
    errorLine.textContent = ''
  }

  // ---- routing -------------------------------------------------------------------------------

  let tabs = []
  let renderers = {}

  function setTabs(list) {
    tabs = list
    document
      .getElementById('tabs')
      .replaceChildren(
        ...list.map(([route, label]) => hashLink(route, label, { 'data-tab': route })),
      )
  }

  async function route() {
    const raw = location.hash.slice(1)
    const name = raw.split('/')[0] || tabs[0][0]
    for (const link of document.querySelectorAll('#tabs a')) {
      if (link.dataset.tab === name) link.setAttribute('aria-current', 'page')
      else link.removeAttribute('aria-current')
    }
    const render = renderers[name]
    if (!render) return
    document.body.dataset.ready = 'false'
    try {
      await render(raw.split('/').slice(1).map(decodeURIComponent))
    } catch (error) {
      errorLine.textContent = `Could not load: ${error instanceof Error ? error.message : String(error)}`
    }
    document.body.dataset.ready = 'true'
  }

  // ---- brain ---------------------------------------------------------------------------------

  const brainTabs = [
    ['debt', 'Sleep debt'],
    ['sleeps', 'Sleeps'],
    ['now', 'Brain now'],
    ['patterns', 'Patterns'],
    ['search', 'Search'],
  ]

  const brainRenderers = {
    async debt() {
      const data = await getJson('api/overview')
      document.getElementById('subtitle').textContent =
        `${data.project} · debt ${data.debt} (${data.level}, ${data.policy} policy)`
      const t = data.thresholds
      const debtX = data.debt_series.map((point) => seconds(point.at))
      const band = (value) => data.debt_series.map(() => value)
      const sessions = data.sessions
      const sleepIds = new Map(data.sleeps.map((sleep) => [sleep.number, sleep.id]))
      show(
        el(
          'p',
          {},
          'Now: ',
          el('span', { class: 'level' }, `${data.level}`),
          ` at debt ${data.debt}; bands: drowsy ${t.drowsy}, sleepy ${t.sleepy}, must sleep ${t.mustSleep}. ${data.bookmarks_pending} bookmark(s) wait for the next sleep.`,
        ),
        chart({
          id: 'debt-chart',
          title: 'Sleep debt over time',
          time: true,
          x: debtX,
          yLabel: 'debt',
          series: [
            {
              label: 'debt',
              values: data.debt_series.map((point) => point.debt),
              color: cssVar('--s1'),
            },
            {
              label: `drowsy (${t.drowsy})`,
              values: band(t.drowsy),
              color: cssVar('--band'),
              dash: [4, 4],
            },
            {
              label: `sleepy (${t.sleepy})`,
              values: band(t.sleepy),
              color: cssVar('--s2'),
              dash: [6, 4],
            },
            {
              label: `must sleep (${t.mustSleep})`,
              values: band(t.mustSleep),
              color: cssVar('--del-fg'),
              dash: [10, 4],
            },
          ],
          columns: [
            { label: 'when', value: (row) => shortTime(row.at) },
            { label: 'point', value: (row) => row.label },
            { label: 'debt', value: (row) => row.debt, number: true },
          ],
          rows: data.debt_series,
        }),
        chart({
          id: 'sessions-chart',
          title: 'Session scores',
          x: sessions.map((_, index) => index + 1),
          yLabel: 'score',
          series: [
            {
              label: 'consolidated',
              values: sessions.map((s) => (s.pending ? null : s.score)),
              color: cssVar('--s1'),
              bars: true,
            },
            {
              label: 'pending',
              values: sessions.map((s) => (s.pending ? s.score : null)),
              color: cssVar('--s2'),
              bars: true,
            },
          ],
          columns: [
            { label: '#', value: (_row, index) => index + 1, number: true },
            { label: 'session', value: (row) => row.session_id.slice(0, 13) },
            { label: 'stopped', value: (row) => shortTime(row.stopped_at) },
            {
              label: 'score',
              value: (row) => (row.score === null ? 'unscored' : row.score),
              number: true,
            },
            { label: 'changes', value: (row) => row.change_count, number: true },
            { label: 'tools', value: (row) => row.tool_count, number: true },
            {
              label: 'sleep',
              value: (row) =>
                row.pending
                  ? 'pending'
                  : hashLink(
                      `sleep/${encodeURIComponent(sleepIds.get(row.sleep) || '')}`,
                      `#${row.sleep}`,
                    ),
            },
          ],
          rows: sessions,
          rowClass: (row) => (row.pending ? 'pending' : null),
        }),
      )
    },

    async sleeps() {
      const data = await getJson('api/overview')
      show(
        card(
          `Sleeps (${data.sleeps.length})`,
          data.sleeps.length === 0
            ? el('p', { class: 'muted' }, 'No sleep yet: run somnus sleep run.')
            : null,
          table(
            'Every sleep, newest first',
            [
              {
                label: '#',
                value: (row) =>
                  hashLink(`sleep/${encodeURIComponent(row.id)}`, `sleep ${row.number}`, {
                    class: 'sleep-link',
                  }),
              },
              { label: 'when', value: (row) => shortTime(row.at) },
              { label: 'sessions', value: (row) => row.sessions_processed, number: true },
              { label: 'bookmarks', value: (row) => row.bookmarks_processed, number: true },
              { label: 'debt', value: (row) => `${row.debt_before} → ${row.debt_after}` },
              {
                label: 'files',
                value: (row) => (row.has_diff ? row.files_changed : 'not recorded'),
                number: true,
              },
              {
                label: '+/−',
                value: (row) => (row.has_diff ? `+${row.lines_added} −${row.lines_removed}` : ''),
              },
              { label: 'summary', value: (row) => row.summary },
            ],
            data.sleeps,
          ),
        ),
      )
    },

    async sleep([id]) {
      const sleep = await getJson(`api/sleep?id=${encodeURIComponent(id || '')}`)
      if (!sleep)
        return show(
          card(
            'Sleep not found',
            el('p', {}, 'No sleep has this id. '),
            hashLink('sleeps', 'All sleeps'),
          ),
        )
      const files = sleep.files
      const diff =
        files === null
          ? el(
              'p',
              { class: 'muted' },
              'This sleep ran before Somnus kept diffs (state/.sleeps/), so only its summary is known.',
            )
          : files.map((file) =>
              el(
                'div',
                { class: 'file', 'data-path': file.path },
                el(
                  'h3',
                  {},
                  hashLink(`doc/${encodeURIComponent(file.path)}`, file.path),
                  ' ',
                  el(
                    'span',
                    { class: 'badge' },
                    `${file.created ? 'new, ' : ''}+${file.added} −${file.removed}`,
                  ),
                ),
                el(
                  'div',
                  { class: 'diff' },
                  file.hunks.map((hunk) => [
                    el('div', { class: 'hunk' }, `@@ line ${hunk.new_start} @@`),
                    hunk.lines.map((line) => {
                      const mark = line.text[0]
                      return el(
                        'div',
                        { class: mark === '+' ? 'add' : mark === '-' ? 'del' : 'ctx' },
                        line.text,
                        sourceLinks(line.sources),
                      )
                    }),
                  ]),
                ),
              ),
            )
      show(
        el('p', {}, hashLink('sleeps', '← all sleeps')),
        el(
          'section',
          { class: 'card', id: 'sleep-detail', 'data-sleep': sleep.id },
          el('h2', {}, `Sleep ${sleep.number}: ${shortTime(sleep.at)}`),
          el('p', {}, sleep.summary),
          el(
            'p',
            {},
            `Debt ${sleep.debt_before} → ${sleep.debt_after}${sleep.model ? ` · model ${sleep.model}` : ''}`,
          ),
          el('h3', {}, 'What it read'),
          el(
            'ul',
            {},
            (sleep.sessions.length
              ? sleep.sessions
              : sleep.session_ids.map((session_id) => ({ session_id }))
            ).map((session) =>
              el(
                'li',
                {},
                `session ${session.session_id}`,
                session.score === undefined
                  ? ''
                  : ` · score ${text(session.score)}, ${text(session.change_count)} changes, ${text(session.tool_count)} tools`,
              ),
            ),
            sleep.bookmarks.map((bookmark) =>
              el('li', {}, `bookmark ${'★'.repeat(bookmark.salience)} ${bookmark.message}`),
            ),
          ),
          el('h3', {}, 'What it changed'),
          diff,
        ),
      )
    },

    async now() {
      const data = await getJson('api/now')
      show(
        card(
          'Core files',
          table(
            'Core files and how many lines cite their sources',
            [
              {
                label: 'file',
                value: (row) => hashLink(`doc/${encodeURIComponent(row.path)}`, row.path),
              },
              { label: 'lines', value: (row) => row.lines, number: true },
              { label: 'lines with sources', value: (row) => row.sourced_lines, number: true },
            ],
            data.core,
          ),
          el('p', {}, hashLink(`doc/${encodeURIComponent('core/CHANGELOG.json')}`, 'Changelog')),
        ),
        card(
          `Session digests (${data.digests.length})`,
          el(
            'ul',
            { class: 'plain' },
            data.digests.map((path) =>
              el('li', {}, hashLink(`doc/${encodeURIComponent(path)}`, path)),
            ),
          ),
        ),
        card(
          'Knowledge',
          table(
            'Knowledge notes with staleness',
            [
              {
                label: 'note',
                value: (row) =>
                  hashLink(
                    `doc/${encodeURIComponent(`knowledge/${row.slug}.md`)}`,
                    row.title || row.slug,
                  ),
              },
              { label: 'last read', value: (row) => row.last_accessed || 'never' },
              { label: 'reads', value: (row) => row.count, number: true },
              {
                label: 'state',
                value: (row) => (row.pinned ? 'pinned' : row.stale ? 'stale' : 'fresh'),
              },
            ],
            data.knowledge,
          ),
        ),
        card(
          'Tasks',
          table(
            'Tasks',
            [
              {
                label: 'task',
                value: (row) =>
                  hashLink(
                    `doc/${encodeURIComponent(`state/${row.slug}.md`)}`,
                    row.name || row.slug,
                  ),
              },
              { label: 'status', value: (row) => row.status },
              { label: 'updated', value: (row) => row.updated },
            ],
            data.tasks,
          ),
        ),
        card(
          'Triggers',
          table(
            'Triggers and their fires',
            [
              { label: 'when', value: (row) => row.when },
              { label: 'remind', value: (row) => row.remind },
              { label: 'fired', value: (row) => `${row.fired_count} / ${row.max_fires}` },
              { label: 'sources', value: (row) => sourceLinks(row.sources) || '' },
            ],
            data.triggers,
          ),
        ),
        card(
          'Bookmarks',
          table(
            'Bookmarks by salience',
            [
              { label: 'salience', value: (row) => '★'.repeat(row.salience) },
              { label: 'message', value: (row) => row.message },
              { label: 'created', value: (row) => shortTime(row.created_at) },
            ],
            data.bookmarks,
          ),
        ),
      )
    },

    async doc(parts) {
      const path = parts[0] || ''
      const find = parts[1] || null
      const doc = await getJson(`api/document?path=${encodeURIComponent(path)}`)
      if (!doc) return show(card('Not found', el('p', {}, `No document ${path} in this brain.`)))
      let target = -1
      if (find && /^L\d+$/.test(find)) target = Number(find.slice(1)) - 1
      else if (find) target = doc.lines.findIndex((line) => line.text.includes(find))
      const list = el(
        'ol',
        { class: 'doc', 'data-path': doc.path },
        doc.lines.map((line, index) =>
          el(
            'li',
            {
              id: `L${index + 1}`,
              tabindex: index === target ? '-1' : null,
              class: index === target ? 'target' : null,
            },
            line.text,
            sourceLinks(line.sources),
          ),
        ),
      )
      const missing =
        find && target < 0
          ? el('p', { class: 'muted' }, `${find} is not cited on any line of this file.`)
          : null
      show(el('p', {}, el('a', { href: '#', id: 'back' }, '← back')), card(doc.path, missing, list))
      document.getElementById('back').addEventListener('click', (event) => {
        event.preventDefault()
        history.back()
      })
      const line = target >= 0 ? list.children[target] : null
      if (line) {
        line.scrollIntoView({ block: 'center' })
        line.focus()
      }
    },

    async patterns() {
      const data = await getJson('api/patterns')
      if (!data)
        return show(
          card(
            'Patterns',
            el('p', { class: 'muted' }, 'Pattern learning is not set up for this project.'),
          ),
        )
      show(
        card(
          `Patterns (${data.patterns.length})`,
          table(
            'Patterns and what they became',
            [
              { label: 'date', value: (row) => row.date },
              { label: 'domain', value: (row) => row.domain },
              { label: 'pattern', value: (row) => row.title },
              { label: 'status', value: (row) => row.status },
              { label: 'skills', value: (row) => row.skills.join(', ') },
              {
                label: 'CLAUDE.md lines',
                value: (row) =>
                  row.claude_lines.map((line) => `${line.line}: ${line.text}`).join('\n'),
              },
            ],
            data.patterns,
          ),
        ),
        card(
          `Skills (${data.skills.length})`,
          table(
            'Skills',
            [
              { label: 'skill', value: (row) => row.name },
              { label: 'file', value: (row) => row.path },
              { label: 'lines', value: (row) => row.lines, number: true },
            ],
            data.skills,
          ),
        ),
      )
    },

    async search(_parts) {
      const input = el('input', {
        type: 'search',
        id: 'search-box',
        name: 'q',
        'aria-label': 'Search the brain (recall)',
        placeholder: 'what to look for',
      })
      const results = el('div', { id: 'search-results', 'aria-live': 'polite' })
      const form = el(
        'form',
        { class: 'search', role: 'search' },
        input,
        el('button', { type: 'submit' }, 'Search'),
      )
      form.addEventListener('submit', async (event) => {
        event.preventDefault()
        document.body.dataset.ready = 'false'
        try {
          const data = await getJson(`api/recall?q=${encodeURIComponent(input.value)}`)
          results.replaceChildren(
            data.hits.length === 0
              ? el(
                  'p',
                  { class: 'muted' },
                  'Nothing found (the index is as the last sleep run or somnus recall left it).',
                )
              : el(
                  'ol',
                  { class: 'hits' },
                  data.hits.map((hit) =>
                    el(
                      'li',
                      {},
                      hit.document
                        ? hashLink(
                            `doc/${encodeURIComponent(hit.document.path)}/L${hit.document.line}`,
                            hit.location,
                          )
                        : hit.location,
                      ` (${hit.kind}${hit.date ? `, ${hit.date.slice(0, 10)}` : ''})`,
                      el('div', {}, hit.snippet),
                    ),
                  ),
                ),
          )
        } catch (error) {
          errorLine.textContent = `Search failed: ${error.message}`
        }
        document.body.dataset.ready = 'true'
      })
      show(
        card(
          'Search the brain',
          el(
            'p',
            { class: 'muted' },
            'Recall over core files, digests, knowledge, patterns and transcripts.',
          ),
          form,
          results,
        ),
      )
      input.focus()
    },
  }

  // ---- creature ------------------------------------------------------------------------------

  const DREAM_KINDS = { failed: 0, light: 1, full: 2, deep: 3 }
  const PRIORITY_NAMES = { RED: 'RED (urgent)', YLW: 'YLW (soon)', GRN: 'GRN (fine)' }

  const mindRenderers = {
    async fatigue() {
      const data = await getJson('api/overview')
      const s = data.status
      document.getElementById('subtitle').textContent =
        `${data.location} · ${s.fatigue}, ${s.actions} actions since the last dream · ${s.dreams} dreams`
      const band = (value) => data.fatigue.map(() => value)
      show(
        el(
          'p',
          {},
          `Now: ${s.fatigue} at ${s.actions} actions; warned at ${s.warning_at}, forced to sleep at ${s.limit}. ${s.sleeping ? `Asleep until ${shortTime(s.sleeping.wakeAt)}.` : 'Awake.'} Next deep sleep in ${s.deep_sleep_in} dream(s).`,
        ),
        chart({
          id: 'fatigue-chart',
          title: 'Fatigue over time',
          time: true,
          x: data.fatigue.map((point) => seconds(point.at)),
          yLabel: 'actions since the last dream',
          series: [
            {
              label: 'actions',
              values: data.fatigue.map((point) => point.actions),
              color: cssVar('--s1'),
            },
            {
              label: `warning (${s.warning_at})`,
              values: band(s.warning_at),
              color: cssVar('--s2'),
              dash: [6, 4],
            },
            {
              label: `limit (${s.limit})`,
              values: band(s.limit),
              color: cssVar('--del-fg'),
              dash: [10, 4],
            },
          ],
          columns: [
            { label: 'when', value: (row) => shortTime(row.at) },
            { label: 'point', value: (row) => row.label },
            { label: 'actions', value: (row) => row.actions, number: true },
          ],
          rows: data.fatigue,
        }),
      )
    },

    async dreams() {
      const data = await getJson('api/overview')
      show(
        chart({
          id: 'dreams-chart',
          title: 'Dreams on a timeline',
          time: true,
          x: data.dreams.map((dream) => seconds(dream.at)),
          yLabel: '0 failed · 1 light · 2 full · 3 deep',
          series: ['light', 'full', 'deep', 'failed'].map((kind, index) => ({
            label: kind,
            values: data.dreams.map((dream) => (dream.kind === kind ? DREAM_KINDS[kind] : null)),
            color: cssVar(['--s3', '--s1', '--s4', '--del-fg'][index]),
            points: true,
          })),
          columns: [
            { label: '#', value: (row) => row.number, number: true },
            { label: 'when', value: (row) => shortTime(row.at) },
            { label: 'kind', value: (row) => row.kind },
            { label: 'actions', value: (row) => row.actions, number: true },
            { label: 'messages', value: (row) => row.messages, number: true },
            { label: 'observations', value: (row) => row.observations, number: true },
          ],
          rows: data.dreams,
        }),
        card(
          'Reflections',
          el(
            'ol',
            { class: 'plain' },
            [...data.dreams]
              .reverse()
              .slice(0, 50)
              .map((dream) =>
                el('li', {}, `${shortTime(dream.at)} (${dream.kind}): ${dream.reflection}`),
              ),
          ),
        ),
      )
    },

    async observations() {
      const data = await getJson('api/overview')
      const buckets = data.observations_by_age
      const priorities = ['RED', 'YLW', 'GRN']
      // Grouped bars: one x per (age, priority), a gap between ages.
      const x = []
      const cells = []
      buckets.forEach((bucket, index) => {
        priorities.forEach((priority, offset) => {
          x.push(index * 4 + offset + 1)
          cells.push({ age: bucket.age, priority, count: bucket[priority] })
        })
      })
      show(
        chart({
          id: 'observations-chart',
          title: `Observations by priority and age (${data.observation_count})`,
          x,
          yLabel: 'observations',
          series: priorities.map((priority, index) => ({
            label: PRIORITY_NAMES[priority],
            values: cells.map((cell) => (cell.priority === priority ? cell.count : null)),
            color: cssVar(['--del-fg', '--s2', '--s3'][index]),
            bars: true,
          })),
          columns: [
            { label: 'age', value: (row) => row.age },
            { label: 'RED', value: (row) => row.RED, number: true },
            { label: 'YLW', value: (row) => row.YLW, number: true },
            { label: 'GRN', value: (row) => row.GRN, number: true },
          ],
          rows: buckets,
        }),
        el(
          'p',
          { class: 'muted' },
          'Ages count back from the newest observation. Groups left to right: up to a day, a week, a month, a year, older.',
        ),
        card(
          'Newest observations',
          table(
            'Newest observations (at most 200)',
            [
              { label: 'date', value: (row) => `${row.date} ${row.time}` },
              { label: 'priority', value: (row) => row.priority },
              { label: 'observation', value: (row) => row.text },
            ],
            data.observations,
          ),
        ),
      )
    },

    async priorities() {
      const data = await getJson('api/overview')
      show(
        card(
          'Priorities',
          table(
            'The priority each dream set, newest first',
            [
              { label: 'when', value: (row) => shortTime(row.at) },
              { label: 'priority', value: (row) => row.priority },
            ],
            data.priorities,
          ),
        ),
      )
    },
  }

  // ---- service tenant ------------------------------------------------------------------------

  let tenantData = null

  /** The key form: the key stays in this page's memory only, sent as a Bearer header. */
  function keyForm(then) {
    const input = el('input', {
      type: 'password',
      id: 'api-key',
      name: 'key',
      autocomplete: 'off',
      'aria-label': 'API key',
      placeholder: 'API key (somnus tenant create)',
    })
    const form = el(
      'form',
      { class: 'search', id: 'key-form' },
      input,
      el('button', { type: 'submit' }, 'Show my tenant'),
    )
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      apiKey = input.value.trim()
      input.value = ''
      tenantData = null
      await route()
      if (then) then()
    })
    show(
      card(
        'Your API key',
        el(
          'p',
          { class: 'muted' },
          'The page keeps the key in memory only: it is never put in a URL or stored; reloading forgets it.',
        ),
        form,
      ),
    )
    input.focus()
  }

  async function tenantOverview() {
    if (!apiKey) return null
    tenantData ??= await getJson('api/overview')
    document.getElementById('subtitle').textContent =
      `tenant ${tenantData.tenant_id} · ${number(tenantData.total_tokens_saved)} tokens saved in all`
    return tenantData
  }

  const withTenant = (render) => async () => {
    let data = null
    try {
      data = await tenantOverview()
    } catch (error) {
      apiKey = null
      tenantData = null
      keyForm()
      errorLine.textContent = `The key was refused: ${error.message}`
      return
    }
    if (!data) return keyForm()
    render(data)
    const forget = el('button', { type: 'button', id: 'forget-key' }, 'Forget the key')
    forget.addEventListener('click', () => {
      apiKey = null
      tenantData = null
      document.getElementById('subtitle').textContent = ''
      keyForm()
    })
    main.append(el('p', {}, forget))
  }

  const tenantRenderers = {
    tokens: withTenant((data) => {
      show(
        chart({
          id: 'tokens-day-chart',
          title: 'Tokens saved per day',
          time: true,
          x: data.tokens_by_day.map((row) => seconds(`${row.day}T00:00:00Z`)),
          yLabel: 'tokens saved',
          series: [
            {
              label: 'tokens saved',
              values: data.tokens_by_day.map((row) => row.tokens_saved),
              color: cssVar('--s1'),
              points: data.tokens_by_day.length < 3,
            },
          ],
          columns: [
            { label: 'day', value: (row) => row.day },
            { label: 'tokens saved', value: (row) => row.tokens_saved, number: true },
          ],
          rows: data.tokens_by_day,
        }),
        chart({
          id: 'tokens-type-chart',
          title: 'Tokens saved per job type',
          x: data.tokens_by_job_type.map((_, index) => index + 1),
          yLabel: 'tokens saved',
          series: [
            {
              label: 'tokens saved',
              values: data.tokens_by_job_type.map((row) => row.tokens_saved),
              color: cssVar('--s3'),
              bars: true,
            },
          ],
          columns: [
            { label: '#', value: (_row, index) => index + 1, number: true },
            { label: 'job type', value: (row) => row.job_type },
            { label: 'tokens saved', value: (row) => row.tokens_saved, number: true },
          ],
          rows: data.tokens_by_job_type,
        }),
      )
    }),
    handoffs: withTenant((data) => {
      show(
        chart({
          id: 'levels-chart',
          title: 'Handoffs by compression level',
          x: data.handoffs_by_level.map((_, index) => index + 1),
          yLabel: 'handoffs',
          series: [
            {
              label: 'handoffs',
              values: data.handoffs_by_level.map((row) => row.count),
              color: cssVar('--s4'),
              bars: true,
            },
          ],
          columns: [
            { label: '#', value: (_row, index) => index + 1, number: true },
            { label: 'level', value: (row) => row.level },
            { label: 'handoffs', value: (row) => row.count, number: true },
            { label: 'tokens now', value: (row) => row.tokens, number: true },
          ],
          rows: data.handoffs_by_level,
        }),
      )
    }),
    jobs: withTenant((data) => {
      show(
        card(
          `Jobs (${data.jobs.length})`,
          table(
            'Jobs, newest first',
            [
              { label: 'job', value: (row) => row.job_id },
              { label: 'type', value: (row) => row.job_type },
              { label: 'status', value: (row) => row.status },
              { label: 'created', value: (row) => shortTime(row.created_at) },
              { label: 'duration (ms)', value: (row) => row.duration_ms, number: true },
              { label: 'items', value: (row) => row.items_processed, number: true },
              { label: 'tokens saved', value: (row) => row.tokens_saved, number: true },
              { label: 'error', value: (row) => row.error_message },
            ],
            data.jobs,
          ),
        ),
      )
    }),
    principles: withTenant((data) => {
      show(
        card(
          `Principles (${data.principles.length})`,
          table(
            'Principles, newest first',
            [
              { label: 'principle', value: (row) => row.decision },
              { label: 'rationale', value: (row) => row.rationale },
              { label: 'handoffs', value: (row) => row.sources, number: true },
              { label: 'created', value: (row) => shortTime(row.created_at) },
            ],
            data.principles,
          ),
        ),
      )
    }),
  }

  // ---- start ---------------------------------------------------------------------------------

  const views = {
    brain: { title: 'Somnus: brain', tabs: brainTabs, renderers: brainRenderers },
    mind: {
      title: 'Somnus: creature',
      tabs: [
        ['fatigue', 'Fatigue'],
        ['dreams', 'Dreams'],
        ['observations', 'Observations'],
        ['priorities', 'Priorities'],
      ],
      renderers: mindRenderers,
    },
    tenant: {
      title: 'Somnus: service tenant',
      tabs: [
        ['tokens', 'Tokens saved'],
        ['handoffs', 'Handoffs'],
        ['jobs', 'Jobs'],
        ['principles', 'Principles'],
      ],
      renderers: tenantRenderers,
    },
  }
  const chosen = views[view]
  if (!chosen) {
    errorLine.textContent = `Unknown dashboard view ${view}`
    return
  }
  document.getElementById('title').textContent = chosen.title
  document.title = chosen.title
  setTabs(chosen.tabs)
  renderers = chosen.renderers
  window.addEventListener('hashchange', () => void route())
  void route()
})()
