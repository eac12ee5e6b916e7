/**
 * A launch's result route (`POST /<segment>/result`): the page's report of how the flow ended, taken only with a
 * receipt this launch sealed for the Link token it names, while that token could still be in use. A success is settled
 * against the service (`launch-results.ts`); while its job runs the page is told to wait (202) and asks again.
 */
import { invalidParamsAnswer, jsonResponse } from '../error-response.js';
import { HttpError } from '../handler/http-error.js';
import { postHandler } from '../handler/post-handler.js';
import { requireOwnOrigin } from '../handler/same-origin.js';
import type { Logger } from '../logger.js';
import { ANSWERS, ResultReportSchema } from './launch-answers.js';
import { isDone, KEYS, type LaunchStorage } from './launch-records.js';
import { openReceipt, type LaunchFields } from './launch-seal.js';
import type { launchResults } from './launch-results.js';

/** How long the page waits before it asks again about a success whose job is still running, in seconds. */
export const WAITING_RETRY_SECONDS = 5;

/** What the result route needs from `createLinkLaunches`. */
export interface ResultRouteParts {
  storage: LaunchStorage;
  results: ReturnType<typeof launchResults>;
  /** The launch the request's path names, or null. */
  launchOf: (request: Request) => Promise<LaunchFields | null>;
  receiptKeys: () => Promise<CryptoKey[]>;
  /** Where the flow returns to, with the launch id, how the flow ended and the app's state; null without a redirect. */
  redirectFor: (launch: LaunchFields, status: 'success' | 'exit') => Promise<string | null>;
  publicUrl: string;
  bodyTimeoutMs: number;
  log: Logger;
}

/** Makes the result route: one handler, built once, for every launch; like the token route, it takes the page's own `fetch` only. */
export function resultRoute({ storage, results, launchOf, receiptKeys, redirectFor, publicUrl, bodyTimeoutMs, log }: ResultRouteParts) {
  const publicOrigin = new URL(publicUrl).origin;
  const refused = (launch: LaunchFields, why: string) =>
    new HttpError(ANSWERS.notOurs, { level: 'warn', message: `link launch: ${why}`, fields: { launchId: launch.id } });

  return postHandler({
    subject: 'link launch result',
    log,
    postOnly: 'POST the result as JSON.',
    maxBodyBytes: 4_096,
    bodyTimeoutMs,
    internalError: ANSWERS.internal,
    beforeBody: async (request) => requireOwnOrigin(request, publicOrigin, 'link launch result'),
    handle: async (request, body) => {
      const launch = await launchOf(request);
      if (!launch) throw new HttpError(ANSWERS.notFound);
      const report = ResultReportSchema.safeParse(body.value);
      if (!report.success) throw new HttpError(invalidParamsAnswer(report.error));
      const { status, linkTokenId, accountId, jobId, exitReason } = report.data;
      const receipt = await openReceipt(report.data.receipt, await receiptKeys(), publicUrl);
      if (!receipt || receipt.launchId !== launch.id || receipt.linkTokenId !== linkTokenId) {
        throw refused(launch, 'a result whose receipt is not this launch’s was refused');
      }
      // A flow past its token's life (and the grace after the launch's) reports nothing: its URL may be in other hands.
      if (Date.now() / 1000 > receipt.acceptUntil) throw new HttpError(ANSWERS.expired);
      // A revoked link's flow counts for nothing, even one that was under way.
      if (await isDone(storage.claims, KEYS.revoked(launch.id))) throw new HttpError(ANSWERS.revoked);
      let ended: 'success' | 'exit';
      if (status === 'success') {
        if (accountId === undefined || jobId === undefined) throw new HttpError(ANSWERS.successFields);
        const check = await results.reported(launch, { linkTokenId, accountId, jobId }, receipt.acceptUntil);
        if (check === 'revoked') throw new HttpError(ANSWERS.revoked);
        if (check === 'refused') throw new HttpError(ANSWERS.notOurs);
        if (check === 'waiting') {
          return jsonResponse(202, { data: { status: 'waiting' } }, { 'retry-after': String(WAITING_RETRY_SECONDS) });
        }
        ended = 'success';
      } else {
        // An exit names no account: one the browser names is not checked, so it is not passed on.
        ended = await results.exited(launch, linkTokenId, exitReason);
      }
      return jsonResponse(200, { data: { status: ended, redirect: await redirectFor(launch, ended) } });
    },
  });
}
