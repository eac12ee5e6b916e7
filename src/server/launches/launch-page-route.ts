/**
 * A launch's page (`GET /<segment>`) and its standing: the flow's page while the launch is open, else the notice of why
 * not (expired, revoked, already connected), asked of the shared store; the token route asks the same.
 */
import type { ErrorAnswer } from '../error-response.js';
import { HttpError } from '../handler/http-error.js';
import { ANSWERS } from './launch-answers.js';
import { isDone, KEYS, type LaunchStorage } from './launch-records.js';
import type { LaunchFields } from './launch-seal.js';
import { flowPage, noticePage, pageLanguage, scriptWords, untilWords, type LaunchPageNotice } from './launch-page.js';

const NOTICE_ANSWERS: Record<LaunchPageNotice, ErrorAnswer> = {
  expired: ANSWERS.expired,
  revoked: ANSWERS.revoked,
  connected: ANSWERS.connected,
  unknown: ANSWERS.notFound,
};

/** What the page needs from `createLinkLaunches`. */
export interface PageRouteParts {
  storage: LaunchStorage;
  linkUrl: string;
  /** The app's page for a new link (`newLinkUrl`), shown once a link has expired; null: none. */
  newLinkUrl: string | null;
  /** `publicUrl`'s path, without its trailing slash. */
  basePath: string;
  frameAncestors: readonly string[];
}

/** Makes the page route, and `requireOpen` for the token route. */
export function launchPageRoute({ storage, linkUrl, newLinkUrl, basePath, frameAncestors }: PageRouteParts) {
  /** Why the launch cannot mint or show the flow now, or null when it can. */
  async function standing(launch: LaunchFields): Promise<LaunchPageNotice | null> {
    if (Date.now() / 1000 >= launch.expiresAt) return 'expired';
    // Both asked at once: the page and the token route wait on one round trip to the store, not two.
    const [revoked, connected] = await Promise.all([
      isDone(storage.claims, KEYS.revoked(launch.id)),
      isDone(storage.claims, KEYS.success(launch.id)),
    ]);
    return revoked ? 'revoked' : connected ? 'connected' : null;
  }

  async function page(request: Request, launch: LaunchFields, segment: string): Promise<Response> {
    const language = pageLanguage(request);
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new HttpError(ANSWERS.methodNotAllowed);
    const notice = await standing(launch);
    if (notice) return noticePage(language, notice, frameAncestors, newLinkUrl);
    const at = `${basePath}/${segment}`;
    const config = {
      tokenPath: `${at}/token`,
      resultPath: `${at}/result`,
      linkUrl,
      // Whole seconds, rounded down: the page says the link has expired a little early rather than late.
      expiresIn: Math.max(0, Math.floor(launch.expiresAt - Date.now() / 1000)),
      newLinkUrl,
      until: untilWords(language),
      words: scriptWords(language, newLinkUrl),
    };
    return flowPage(language, config, frameAncestors);
  }

  /** Throws the answer of a launch that cannot mint now (expired, revoked, connected). */
  async function requireOpen(launch: LaunchFields): Promise<void> {
    const notice = await standing(launch);
    if (notice) throw new HttpError(NOTICE_ANSWERS[notice]);
  }

  return { page, requireOpen };
}
