// The Next.js app around the docs' client component. Turbopack's root is test/packaging, so the
// app can import the shared harness; 'payroll-link' and React still come from ../node_modules.
import { fileURLToPath } from 'node:url';

const packagingRoot = fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  turbopack: { root: packagingRoot },
  outputFileTracingRoot: packagingRoot,
};
