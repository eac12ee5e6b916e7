/**
 * How a launch mints: through the token handler's one minter (`src/server/link-token/link-token-minter.ts`), for the
 * launch's end user and account, never for what the browser says; the integrator's `linkTokenFields` hook gets the
 * browser's headers, not the capability URL, which a hook might log.
 */
import type { LinkToken } from '../../protocol/link-token.js';
import type { Logger } from '../logger.js';
import { createLinkTokenMinter } from '../link-token/link-token-minter.js';
import type { LaunchFields } from './launch-seal.js';
import type { LinkLaunchesOptionsSchema } from './launch-options.js';
import type * as z from 'zod';

/** Makes `mint(request, launch)`: the Link token, or the `HttpError` the boundary answers. */
export function launchMinter(settings: z.output<typeof LinkLaunchesOptionsSchema>, log: Logger) {
  const { client, orgName, solution, features, linkTokenFields, publicUrl } = settings;
  const minter = createLinkTokenMinter(
    { client, version: client.version, orgName, solution, features, linkTokenFields, log },
    'createLinkLaunches options',
  );
  return (request: Request, launch: LaunchFields): Promise<LinkToken> => {
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    const forHook = new Request(`${publicUrl}/token`, { method: 'POST', headers });
    return minter.mint(forHook, { endUserId: launch.endUserId, accountId: launch.accountId ?? undefined });
  };
}
