/**
 * The Link token's part of the wire contract (see src/protocol.ts, which exports it with the rest): what
 * `POST /link_tokens` returns and the integrator's backend passes on to the browser. A module of its own so that
 * the server's client of the service, which checks that answer, bundles these schemas and not the frame's messages.
 */
import * as z from 'zod/mini';
import { nonEmptyText, uuid } from './strings.js';

/**
 * An ISO 8601 date-time with a `Z` or `±hh:mm` offset: the very regex zod's `z.iso.datetime({ offset: true })`
 * builds (test/node/protocol-datetime.test.ts keeps it so), written out because zod's builder and ISO
 * machinery cost the browser's session code half a kilobyte gzip for this one field.
 */
const isoDateTime = () =>
  z
    .string()
    .check(
      z.regex(
        /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$/,
        'Invalid ISO datetime',
      ),
    );

/** The schema of {@link LinkMode}. */
export const LinkModeSchema = z.enum(['sandbox', 'development', 'production']);

/** The schema of {@link LinkToken}. */
export const LinkTokenSchema = z.object({
  /** LinkToken.id: a UUID that also appears in every Link-initiated event. */
  id: uuid(),
  /** The opaque token that starts Link. Secret-ish: never put it in a URL or a log. */
  token: nonEmptyText(),
  /** ISO 8601 expiry time. */
  expires: isoDateTime(),
  mode: LinkModeSchema,
});

/** The schema of {@link LinkTokenEnvelope}. */
export const LinkTokenEnvelopeSchema = z.object({ data: LinkTokenSchema });

/** A mode of the service: `sandbox`, `development` or `production`; each API secret belongs to exactly one. */
export type LinkMode = z.infer<typeof LinkModeSchema>;
/** A Link token, as created by `POST /link_tokens`: its id, the opaque token, its expiry and mode. */
export type LinkToken = z.infer<typeof LinkTokenSchema>;
/** What a token source may hand over: a full Link token, or just the opaque token string. */
export type TokenInput = LinkToken | string;
/** The token endpoint's answer: the single-object envelope `{ data: LinkToken }`. */
export type LinkTokenEnvelope = z.infer<typeof LinkTokenEnvelopeSchema>;
