/**
 * A route of the service's API, registered from its row of `PAYROLL_API_ENDPOINTS` (the table the client's
 * methods are built from): its method and path come from the row, and its input is checked against the row's
 * fields before the handler runs, each narrowed to what the sandbox accepts (its page sizes, its value lists, a
 * query value as the string a URL carries), as `state/resources.ts` narrows the client's resources. A narrowing
 * must name every query field of the row and no other, and each must produce a value the row's own schema
 * would take: the sandbox can neither refuse what the client sends as valid nor accept what it cannot send.
 * In `fields: 'spec'` mode its answer leaves with only the spec's fields (`spec-answer.ts`).
 */
import { z } from 'zod';
import type { PayrollApiEndpoint } from 'payroll-link/server';
import type { RouteContext, Router } from './router.js';
import type { SandboxResponse } from './http-types.js';
import { specAnswerOf } from './spec-answer.js';
import type { SandboxFields } from '../state/spec-fields.js';
import { parseBody, parseParam, parseQuery, readJsonObject } from './validate.js';

type RowQuery<R> = R extends { query: z.ZodObject<infer Shape> } ? Shape : never;
type RowParams<R> = R extends { pathParams: infer P } ? keyof P & string : never;

/** The sandbox's form of a row's input. */
export type EndpointNarrowing<R extends PayrollApiEndpoint> = {
  /** The row's path parameters the sandbox accepts less of (each must still be a string the row takes). */
  readonly params?: { readonly [K in RowParams<R>]?: z.ZodType<string> };
  /**
   * Looks up what the path names (404 when it does not exist), after the path parameters and before the query and
   * the body are checked, as the service answers a request with both faults; its result is the input's `resource`.
   */
  readonly resource?: (params: Readonly<Record<RowParams<R>, string>>) => unknown;
  /** The same path in another form the sandbox also serves (the spec writes some paths with `/v1` and some without). */
  readonly alsoAt?: readonly string[];
  /** The spec's examples put a list's `limit` and `cursor` in a JSON body: taken from there too (the query string wins). */
  readonly queryAlsoInBody?: true;
} & ([RowQuery<R>] extends [never]
  ? unknown
  : { readonly query: { readonly [K in keyof RowQuery<R>]-?: z.ZodType<z.output<RowQuery<R>[K]>> } }) &
  (R extends { body: infer B extends z.ZodType }
    ? {
        /** The row's body as the sandbox takes it, or `read` when the handler reads it itself (its fields depend on the version). */
        readonly body: z.ZodType<z.output<B>> | 'read';
      }
    : unknown);

/** What an endpoint's handler gets: its checked input, and the request it came in. */
export interface EndpointInput<R extends PayrollApiEndpoint, N> {
  readonly params: Readonly<Record<RowParams<R>, string>>;
  readonly resource: N extends { resource: (...args: never[]) => infer T } ? T : undefined;
  readonly query: N extends { query: infer Q } ? { [K in keyof Q]: Q[K] extends z.ZodType ? z.output<Q[K]> : never } : undefined;
  readonly body: N extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
}

/** A query field the row does not have is `never`: a narrowing cannot add one (inference skips the excess-property check). */
type NoOtherQuery<R, N> = N extends { query: infer Q } ? { query: { [K in Exclude<keyof Q, keyof RowQuery<R>>]: never } } : unknown;

/** `/v1/accounts/{id}` as the router writes it: `/v1/accounts/:id`. */
const patternOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** What an endpoint's router hands each request: which fields its answer carries. */
export interface EndpointExtra {
  readonly fields: SandboxFields;
}

/**
 * Registers the route of `row`: its input checked (400 with the spec's body when it does not fit), then `handler`,
 * whose answer carries the fields `extra.fields` says.
 */
export function addEndpointRoute<C extends EndpointExtra, R extends PayrollApiEndpoint, const N extends EndpointNarrowing<R>>(
  router: Router<C>,
  row: R,
  narrowing: N & NoOtherQuery<R, N>,
  handler: (input: EndpointInput<R, N>, context: RouteContext<C>) => SandboxResponse | Promise<SandboxResponse>,
): void {
  const { params: paramNarrowing = {}, alsoAt = [], queryAlsoInBody, resource } = narrowing as EndpointNarrowing<PayrollApiEndpoint>;
  const query = (narrowing as { query?: Record<string, z.ZodType> }).query;
  const body = (narrowing as { body?: z.ZodType | 'read' }).body;
  const specAnswer = specAnswerOf(row);
  const route = async (context: RouteContext<C>) => {
    const params: Record<string, string> = {};
    for (const [name, param] of Object.entries(row.pathParams ?? {})) {
      const schema = (paramNarrowing as Record<string, z.ZodType<string> | undefined>)[name] ?? param.schema;
      params[name] = parseParam(name, context.params[name]!, schema);
    }
    const found = resource?.(params);
    const fromBody = queryAlsoInBody ? (readJsonObject(context.request, true) ?? {}) : {};
    const input = {
      params,
      resource: found,
      query: query === undefined ? undefined : parseQuery(context.request, z.strictObject(query), fromBody),
      body: body === undefined || body === 'read' ? undefined : parseBody(context.request, body),
    };
    // A POST whose row takes no body takes no fields: an empty body or `{}`.
    if (body === undefined && row.method === 'POST') parseBody(context.request, z.strictObject({}), { optional: true });
    const answer = await handler(input as EndpointInput<R, N>, context);
    return context.extra.fields === 'spec' ? specAnswer(answer) : answer;
  };
  for (const path of [row.path, ...alsoAt]) router.on(row.method, patternOf(path), route);
}
