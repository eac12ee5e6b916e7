/** `payroll-link/testing/sandbox/teardown`: Jest's `globalTeardown` for `payroll-link/testing/sandbox` (see there). */
export { teardown as default } from './test-setup.js';
