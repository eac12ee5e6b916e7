// Types of fake-servers.mjs for the TypeScript code that uses it from Node (the packaging tests).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Starts the fake Link page's server on a free loopback port: `${origin}/fake-link.html?scenario=...`. */
export function startFakeLinkServer(): Promise<{ origin: string; close(): Promise<void> }>;

/** The fake token endpoint as a plain Node request handler: answers and resolves true, or resolves false for other paths. */
export function handleFakeTokenRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean>;

/** A web-test-runner plugin that runs the fake Link page's server and answers the `fake-link-origin` command. */
export function fakeLinkPlugin(): unknown;

/** The fake token endpoint as web-test-runner (Koa) middleware. */
export function fakeTokenMiddleware(ctx: unknown, next: () => Promise<unknown>): Promise<unknown>;
