/**
 * The dashboard page's files: `templates/dashboard/` of the package and uPlot from its npm package,
 * served from memory (no CDN: it works offline).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** Which page the HTML opens as. */
export type DashboardView = 'brain' | 'mind' | 'tenant'

/** One file the server sends: its bytes and content type. */
export interface DashboardAsset {
  body: string
  type: string
}

/** The page's files by the name the page asks for, and its HTML for a view. */
export interface DashboardAssets {
  files: Record<string, DashboardAsset>
  html(view: DashboardView): string
}

/** Reads the page's files once (`packageRoot`: the somnus package folder). */
export function loadDashboardAssets(packageRoot: string): DashboardAssets {
  const folder = join(packageRoot, 'templates', 'dashboard')
  const read = (name: string) => readFileSync(join(folder, name), 'utf8')
  const uplot = createRequire(join(packageRoot, 'package.json'))
  const html = read('dashboard.html')
  return {
    files: {
      'dashboard.js': { body: read('dashboard.js'), type: 'text/javascript; charset=utf-8' },
      'dashboard.css': { body: read('dashboard.css'), type: 'text/css; charset=utf-8' },
      'uplot.js': {
        body: readFileSync(uplot.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
        type: 'text/javascript; charset=utf-8',
      },
      'uplot.css': {
        body: readFileSync(uplot.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
        type: 'text/css; charset=utf-8',
      },
    },
    // The view is one of three constants, never request text.
    html: (view) => html.replace('{{VIEW}}', view),
  }
}
