/**
 * What a browser bundle gets for `payroll-link/server` and `payroll-link/server/node`: their
 * `browser` export condition points here, so that server code imported from client code (a
 * `'use client'` component, a page script) fails the build, instead of building quietly and then
 * shipping server strings and crashing at hydration.
 *
 * A module that only threw would still build. So the refusal is an import that no bundler can
 * resolve, whose specifier is the sentence: Vite, Rollup, webpack, Turbopack and esbuild all stop
 * with "could not resolve" and print it. Runtimes that run server code (Node, Deno, Bun, Workers,
 * Vercel's edge) match a condition listed before `browser` and never see this file.
 */
// @ts-ignore: unresolvable on purpose; the specifier is the message a bundler prints. Relative, so that a
// resolver prints it whole (a bare 'payroll-link/…' would be read as a subpath of this package and cut).
import './payroll-link/server runs on your server only: import it from server code (a route handler, an API route, a server action), never from code that runs in the browser, which needs only payroll-link';

/** The same sentence, for a tool that leaves an unresolved import out and runs the rest. */
export const SERVER_ONLY_MESSAGE =
  'payroll-link/server runs on your server only: import it from server code (a route handler, an API route, a server action), never from code that runs in the browser, which needs only payroll-link.';

throw new Error(SERVER_ONLY_MESSAGE);
