/**
 * A launch's token route (`POST /<segment>/token`): a Link token for the launch's end user (and account, for a
 * reconnect), never for what the browser says, counted against the launch's limit on the shared store, and recorded
 * there with the launch it belongs to, so that a result or an `account.added` webhook can be tied back to it. Answered
 * with a sealed receipt the page sends back with its result.
 */
import { jsonResponse } from '../error-response.js';
import { HttpError } from '../handler/http-error.js';
import { postHandler } from '../handler/post-handler.js';
import { requireOwnOrigin } from '../handler/same-origin.js';
import type { Logger } from '../logger.js';
import { ANSWERS, MAX_TOKENS_PER_LAUNCH } from './launch-answers.js';
import { KEYS, storeCall, writeJson, type LaunchStorage } from './launch-records.js';
import { RESULT_GRACE_SECONDS, sealReceipt, type LaunchFields } from './launch-seal.js';
import type { MintedToken } from './launch-results.js';
import type { LinkToken } from '../../protocol/link-token.js';

/** What the token route needs from `createLinkLaunches`. */
export interface TokenRouteParts {
  storage: LaunchStorage;
  /** The launch the request's path names, or null. */
  launchOf: (request: Request) => Promise<LaunchFields | null>;
  /** Mints a Link token for the launch, or throws the `HttpError` the boundary answers. */
  mint: (request: Request, launch: LaunchFields) => Promise<LinkToken>;
  requireOpen: (launch: LaunchFields) => Promise<void>;
  receiptKey: () => Promise<CryptoKey>;
  publicUrl: string;
  bodyTimeoutMs: number;
  log: Logger;
}

/**
 * Makes the token route: one handler, built once, for every launch. It takes the page's own `fetch` only: a POST
 * from the launch's origin (`requireOwnOrigin`), as `application/json` (else 415: a cross-site form or a
 * `text/plain` beacon sends neither). The body (`{}` from the page) is read and bounded, never believed.
 */
export function tokenRoute({ storage, launchOf, mint, requireOpen, receiptKey, publicUrl, bodyTimeoutMs, log }: TokenRouteParts) {
  const publicOrigin = new URL(publicUrl).origin;
  return postHandler({
    subject: 'link launch token',
    log,
    postOnly: 'Use POST.',
    maxBodyBytes: 1_024,
    bodyTimeoutMs,
    internalError: ANSWERS.internal,
    beforeBody: async (request) => requireOwnOrigin(request, publicOrigin, 'link launch token'),
    handle: async (request) => {
      const launch = await launchOf(request);
      if (!launch) throw new HttpError(ANSWERS.notFound);
      await requireOpen(launch);
      const count = await storeCall(() => storage.records.increment(KEYS.tokens(launch.id), launch.expiresAt * 1000));
      if (count > MAX_TOKENS_PER_LAUNCH) {
        throw new HttpError(ANSWERS.tooMany, {
          level: 'warn',
          message: 'link launch: token limit reached; the page asks for a new link',
          fields: { launchId: launch.id },
        });
      }
      const data = await mint(request, launch);
      // Its results count while the token could be in use, and never more than the grace after the launch's end.
      const tokenEnds = Math.floor(Date.parse(data.expires) / 1000);
      const acceptUntil = Math.min(Number.isFinite(tokenEnds) ? tokenEnds : Infinity, launch.expiresAt + RESULT_GRACE_SECONDS);
      const minted: MintedToken = { launch, acceptUntil };
      await writeJson(storage.records, KEYS.token(data.id), minted, acceptUntil * 1000);
      const receipt = await sealReceipt(
        { launchId: launch.id, linkTokenId: data.id, expiresAt: launch.expiresAt, acceptUntil },
        await receiptKey(),
        publicUrl,
      );
      return jsonResponse(200, { data, receipt });
    },
  });
}
