/**
 * What a browser bundle gets for `payroll-link/server` and `payroll-link/server/node`: their `browser` export condition
 * points here, so that server code imported from client code (a `'use client'` component, a page script) fails the
 * build, instead of building quietly and then shipping server strings and crashing at hydration.
 *
 * A module that only threw would still build. So the refusal is an import that no bundler can resolve, whose specifier
 * is the sentence: Vite, Rollup, webpack, Turbopack and esbuild all stop with "could not resolve" and print it.
 * Runtimes that run server code (Node, Deno, Bun, Workers, Vercel's edge) match a condition listed before `browser` and
 * never see this file.
 *
 * The error points at this file, not at the user's file that imported the server entry. Vite 8 (Rolldown, so Nuxt too),
 * webpack and Next.js print the import chain under it; esbuild (so Angular's builder) and Vite up to 7 (Rollup) print
 * none, and nothing this file can do changes that: only an export target that does not exist moves esbuild's error to
 * the importer, and then Vite's error loses the sentence. So the sentence says how to find the importer.
 *
 * The specifier's first segment is no package name ("Refused in a browser bundle: payroll-link"). Nuxt resolves an
 * import that a file in node_modules makes again from the node_modules folder, with its leading './' dropped
 * (@nuxt/vite-builder 4.5, `nuxt:resolve-bare-imports`): a specifier that started './payroll-link/…' became a subpath
 * of this package there, whose resolution threw "is not exported under the conditions", a plugin's error without the
 * import chain, so Nuxt's build named no importing file. Unresolved, it is Rolldown's own error, with the chain
 * (test/packaging/server-in-browser.test.ts holds both).
 */
// @ts-ignore: unresolvable on purpose; the specifier is the message a bundler prints. Relative, so that a
// resolver prints it whole (a bare 'payroll-link/…' would be read as a subpath of this package and cut).
import './Refused in a browser bundle: payroll-link/server runs on your server only: import it from server code (a route handler, an API route, a server action), never from code that runs in the browser, which needs only payroll-link. To find the file that imports it: Vite 8 (Nuxt too), webpack and Next.js print the chain of imports with this error; esbuild (so Angular) and Vite up to 7 name only this file: esbuild --log-level=verbose prints the folder of each file that imports payroll-link/server, else search your browser code for payroll-link/server and for your own server modules that import it';

/** The same sentence, for a tool that leaves an unresolved import out and runs the rest. */
export const SERVER_ONLY_MESSAGE =
  'Refused in a browser bundle: payroll-link/server runs on your server only: import it from server code (a route handler, an API route, a server action), never from code that runs in the browser, which needs only payroll-link. To find the file that imports it: Vite 8 (Nuxt too), webpack and Next.js print the chain of imports with this error; esbuild (so Angular) and Vite up to 7 name only this file: esbuild --log-level=verbose prints the folder of each file that imports payroll-link/server, else search your browser code for payroll-link/server and for your own server modules that import it.';

throw new Error(SERVER_ONLY_MESSAGE);
