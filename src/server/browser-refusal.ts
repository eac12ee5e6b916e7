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
 *
 * The error points at this file, not at the user's file that imported the server entry. Vite 8 (Rolldown),
 * webpack and Next.js print the import chain under it; esbuild (so Angular's builder) and Vite up to 7
 * (Rollup) print none, and nothing this file can do changes that: only an export target that does not
 * exist moves esbuild's error to the importer, and then Vite's error loses the sentence. So the sentence
 * says how to find the importer.
 */
// @ts-ignore: unresolvable on purpose; the specifier is the message a bundler prints. Relative, so that a
// resolver prints it whole (a bare 'payroll-link/…' would be read as a subpath of this package and cut).
import './payroll-link/server runs on your server only: import it from server code (a route handler, an API route, a server action), never from code that runs in the browser, which needs only payroll-link. To find the file that imports it: Vite 8, webpack and Next.js print the chain of imports with this error; esbuild, Angular and older Vite name only this file, so search your browser code for payroll-link/server and for your own server modules that import it';

/** The same sentence, for a tool that leaves an unresolved import out and runs the rest. */
export const SERVER_ONLY_MESSAGE =
  'payroll-link/server runs on your server only: import it from server code (a route handler, an API route, a server action), never from code that runs in the browser, which needs only payroll-link. To find the file that imports it: Vite 8, webpack and Next.js print the chain of imports with this error; esbuild, Angular and older Vite name only this file, so search your browser code for payroll-link/server and for your own server modules that import it.';

throw new Error(SERVER_ONLY_MESSAGE);
