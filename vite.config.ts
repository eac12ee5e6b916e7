import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The demo page (`demo/`). `npm run demo` starts it through `scripts/start-demo.ts`,
 * which also starts the sandbox and the example backend and points the proxy
 * and the Link URL at them; run alone, it expects them on their default ports.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  envPrefix: 'DEMO_',
  server: {
    proxy: { '/api': process.env.DEMO_BACKEND_URL ?? 'http://127.0.0.1:8787' },
    // Transform the page's modules at start-up, so the first visit is not the slow one.
    warmup: { clientFiles: ['./main.ts', './inline.ts'] },
  },
  // Pre-bundled at start-up: discovering them on the first visit would reload the page mid-session.
  optimizeDeps: { include: ['lit', 'zod/mini'] },
  preview: {
    proxy: { '/api': process.env.DEMO_BACKEND_URL ?? 'http://127.0.0.1:8787' },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/demo', import.meta.url)),
    emptyOutDir: true,
    // Two pages: the modal demo and the inline one (an onboarding step with the flow embedded).
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./demo/index.html', import.meta.url)),
        inline: fileURLToPath(new URL('./demo/inline.html', import.meta.url)),
      },
    },
  },
});
