/**
 * The docs site (`npm run docs`, `npm run docs:build`): VitePress over the same markdown pages that
 * ship in the package and render on GitHub. Two additions, both invisible in plain markdown: the
 * sidebar, and `<!-- live-example -->` comments, which become the live example component (the real
 * element against the local sandbox, when `npm run docs` started one; a plain note in a static build).
 */
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'payroll-link',
  description: 'Connect payroll accounts from your page: the <payroll-link> element, openLink(), payroll-link/server and the sandbox.',
  cleanUrls: false,
  // Links out of docs/ (the README, the changelog) are for GitHub and npm readers; the site has no page for them.
  ignoreDeadLinks: [/^(\.\/)?\.\.\//],
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Reference', link: '/reference' },
    ],
    sidebar: [
      {
        text: 'Start',
        items: [
          { text: 'Getting started', link: '/getting-started' },
          { text: 'Coming from Pinwheel', link: '/pinwheel' },
        ],
      },
      {
        text: 'Your page',
        items: [
          { text: 'Plain HTML', link: '/plain-html' },
          { text: 'ESM and bundlers', link: '/esm' },
          { text: 'React', link: '/react' },
          { text: 'Vue 3', link: '/vue' },
          { text: 'Svelte 5', link: '/svelte' },
          { text: 'Angular', link: '/angular' },
          { text: 'Next.js', link: '/nextjs' },
          { text: 'Nuxt 4', link: '/nuxt' },
          { text: 'React Native', link: '/react-native' },
          { text: 'The session', link: '/session' },
          { text: 'Inline', link: '/inline' },
          { text: 'Link events', link: '/link-events' },
          { text: 'Windows and closing', link: '/windows-and-closing' },
          { text: 'Reconnecting', link: '/reconnecting' },
          { text: 'Styling', link: '/styling' },
          { text: 'Languages', link: '/languages' },
        ],
      },
      {
        text: 'Your server',
        items: [
          { text: 'The backend', link: '/backend' },
          { text: 'Reading the data', link: '/reading-data' },
          { text: 'Deno, Bun and edge functions', link: '/edge' },
          { text: 'Native apps and links', link: '/native-apps' },
          { text: 'Multiple instances', link: '/multiple-instances' },
          { text: 'Security', link: '/security' },
        ],
      },
      {
        text: 'Testing',
        items: [
          { text: 'Testing', link: '/testing' },
          { text: 'Sandbox reference', link: '/sandbox' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Element reference', link: '/reference' },
          { text: 'Errors', link: '/errors' },
          { text: 'Accessibility', link: '/accessibility' },
          { text: 'Performance', link: '/performance' },
          { text: 'Benchmarks', link: '/benchmarks' },
          { text: 'Working on this repository', link: '/contributing' },
        ],
      },
    ],
    search: { provider: 'local' },
  },
  markdown: {
    // Headings such as `POST /v1/accounts/{id}/jobs` are paths, not attribute lists.
    attrs: false,
    config(md) {
      // `<!-- live-example … -->` in a page: nothing on GitHub, the live example on the site.
      md.core.ruler.push('payroll-link-live-example', (state) => {
        for (const token of state.tokens) {
          if (token.type === 'html_block' && /^<!--\s*live-example\b/.test(token.content)) token.content = '<LiveExample />\n';
        }
      });
    },
  },
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'payroll-link' } } },
  vite: {
    // Set by scripts/start-docs.ts: the example backend (the live example's token route) and the sandbox's Link page.
    define: { __PAYROLL_LINK_URL__: JSON.stringify(process.env.DOCS_LINK_URL ?? '') },
    server: process.env.DOCS_BACKEND_URL ? { proxy: { '/api': process.env.DOCS_BACKEND_URL } } : {},
    optimizeDeps: { include: ['lit', 'zod/mini'] },
  },
});
