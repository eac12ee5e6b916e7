// Jest as a React Native app configures it (the community template's preset), plus the one line an app needs for
// payroll-link: the preset transforms nothing in node_modules but React Native's own packages, and payroll-link is
// ESM-only, so it must go through Babel too (zod need not: Jest takes its CommonJS build). docs/react-native.md says so.
module.exports = {
  preset: '@react-native/jest-preset',
  transformIgnorePatterns: ['node_modules/(?!((jest-)?react-native|@react-native(-community)?|payroll-link)/)'],
  testMatch: ['<rootDir>/__tests__/**/*.test.tsx'],
};
