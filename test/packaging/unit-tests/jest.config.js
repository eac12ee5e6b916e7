// Jest with jsdom, in Jest's native ESM mode (`node --experimental-vm-modules`): payroll-link, Lit and zod are
// ESM-only, and Jest transforms nothing in node_modules by default. No transform is needed: `transform: {}`.
export default {
  testEnvironment: 'jsdom',
  transform: {},
  testMatch: ['<rootDir>/spec/**/*.test.js'],
};
