/**
 * The example's launches (`payroll-link/server/launches`, docs/native-apps.md):
 * the Link flow at a URL of this backend's, for a link sent by text or email or
 * a native app. `POST /api/launches` creates one for the demo's signed-in user
 * (the `demo_user` cookie: a demo rule, as in demo-routes.ts; a real backend
 * uses its own session), every path below `/api/launches/` is `handle()`, and
 * `GET /api/launch-results` lists what `onResult` was told (webhook-log.ts's
 * list, with its `?after=N` wait), for the demo page's timeline.
 */
import { jsonResponse, simpleErrorResponse, type Logger, type PayrollClient } from 'payroll-link/server';
import { createLinkLaunches, type LaunchResult } from 'payroll-link/server/launches';
import { demoUser, refuseControl } from './demo-routes.js';
import { createWebhookLog } from './webhook-log.js';

/** Where the launches are mounted below the public origin: `POST` here creates one, the pages are below it. */
export const LAUNCHES_PATH = '/api/launches';

/** What the example's launches need beside its client. */
export interface ExampleLaunchesOptions {
  /** The service's hosted Link page (the sandbox's: `http://127.0.0.1:4010/link`). */
  linkUrl: string;
  /**
   * The origin the user's browser reaches this backend's `/api` at: the demo page's (its proxy forwards `/api`
   * here), or this server's own URL. The launch URLs are `<publicOrigin>/api/launches/<sealed launch>`.
   */
  publicOrigin: string;
  /**
   * The launch page's script, when this server runs from the repository's sources: there the package's page
   * carries a stand-in (the build writes the real script), so the demo builds it and hands it in. Called once,
   * at the first page served. Not needed with the installed package.
   */
  pageScript?: () => Promise<string>;
}

/** The routes of the example's launches: `create` (`POST /api/launches`), `handle` (below it), `results` (the list). */
export function createLaunchRoutes(client: PayrollClient, options: ExampleLaunchesOptions, log: Logger) {
  const results = createWebhookLog<LaunchResult>();
  const launches = createLinkLaunches({
    client,
    orgName: 'Acme Payroll Demo',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: options.linkUrl,
    publicUrl: `${options.publicOrigin.replace(/\/+$/, '')}${LAUNCHES_PATH}`,
    // Generated at each start: the launch URLs of an earlier run stop opening (404), which a demo can afford.
    secret: [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, '0')).join(''),
    ttlSeconds: 900,
    log,
    // A real onResult stores the account against the user, idempotent on launchId, and acts only on `success`
    // (docs/native-apps.md).
    onResult: (result) => {
      const fields = result.status === 'exit' ? {} : { accountId: result.accountId };
      const unconfirmed = result.status === 'unconfirmed' ? { unconfirmed: result.unconfirmed.join(',') } : {};
      log.info(`launch ${result.status}: onResult`, { launchId: result.launchId, ...fields, ...unconfirmed });
      results.add(result);
    },
  });

  let script: Promise<string> | undefined;
  /** The page with the built script in place of the sources' stand-in (see `pageScript`). */
  async function withPageScript(response: Response): Promise<Response> {
    if (!options.pageScript || !(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
    const page = await response.text();
    const built = await (script ??= options.pageScript());
    // A function, so that `$` in the script is not read as a replacement pattern.
    const swapped = page.replace(
      /(<script nonce="[^"]+">)document\.documentElement\.dataset\.launchPage = "unbuilt";/,
      (_, tag: string) => tag + built,
    );
    return new Response(swapped, { status: response.status, headers: response.headers });
  }

  return {
    /** `POST /api/launches`: a launch for the demo's signed-in user, no redirect (the page shows its own end screen). */
    async create(request: Request): Promise<Response> {
      const refused = refuseControl(request);
      if (refused) return refused;
      const endUserId = demoUser(request);
      if (!endUserId)
        return simpleErrorResponse(401, 'UNAUTHORIZED', 'NOT_SIGNED_IN', 'Sign in first: the demo_user cookie names the user.');
      return jsonResponse(200, { data: await launches.create({ endUserId }) });
    },
    /** Every path below `/api/launches/`: the launch's page, its token route and its result route. */
    handle: async (request: Request) => withPageScript(await launches.handle(request)),
    /** Called with every webhook: `account.added` confirms a launch's success (see `LinkLaunches.confirm`). */
    confirm: launches.confirm,
    /** `GET /api/launch-results`: what `onResult` was told, oldest first; `?after=N` waits for the next. */
    results: results.list,
    close: results.close,
  };
}
