/**
 * Where a launch's flow returns to: its redirect URI, found by its tag among `redirectUris` (so an instance whose list
 * is in another order still finds it), with what the app may know of the flow: the launch id, how it ended for the
 * user, and the app's `state`. Never an account, a job or a token.
 */
import type { Logger } from '../logger.js';
import { redirectTag, type LaunchFields } from './launch-seal.js';

/** Makes `redirectFor(launch, status)`: the redirect, or null without one (or one no longer listed, logged). */
export function launchRedirects(redirectUris: readonly string[], log: Logger) {
  /** The redirect URIs by their tag (plain data once made). */
  let byTag: Map<string, string> | undefined;
  const redirectOf = async (tag: string) =>
    (byTag ??= new Map(await Promise.all(redirectUris.map(async (uri) => [await redirectTag(uri), uri] as const)))).get(tag);

  return async function redirectFor(launch: LaunchFields, status: 'success' | 'exit'): Promise<string | null> {
    if (launch.redirectTag === null) return null;
    const uri = await redirectOf(launch.redirectTag);
    if (uri === undefined) {
      log.warn('link launch: its redirect is no longer among redirectUris; the page stays on its end screen', { launchId: launch.id });
      return null;
    }
    const target = new URL(uri);
    target.searchParams.set('launch_id', launch.id);
    target.searchParams.set('status', status);
    if (launch.state !== null) target.searchParams.set('state', launch.state);
    return target.href;
  };
}
