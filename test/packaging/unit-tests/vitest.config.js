// Vitest as Angular's `ng test` runs it: jsdom (`--environment happy-dom` runs the same file in happy-dom), the
// globals describe/it/expect. Jest's own tests (*.jest.test.js: its fake timers) are left out.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { environment: 'jsdom', globals: true, include: ['spec/**/*.test.{js,jsx}'], exclude: ['spec/**/*.jest.test.js'] },
});
