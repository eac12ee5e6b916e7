// The client's methods are built from PAYROLL_API_ENDPOINTS (#43): each keeps the exact type it had when it was
// written by hand. Type-checked by `npm run typecheck`, never run.
import type {
  Account,
  AccountListParams,
  CallOptions,
  CreateJobBody,
  Employer,
  Employment,
  Income,
  Job,
  JobListParams,
  LinkTokenCreateBody,
  NoContent,
  PageParams,
  PayrollClient,
  PayrollList,
  Paystub,
  Platform,
  PlatformListParams,
  Shift,
  VoeReport,
  VoieReport,
  WaitOptions,
  WithResponse,
} from 'payroll-link/server';
import type { LinkToken } from '../../src/protocol.js';

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(equal: Equal<A, B>) => equal;

type C = PayrollClient;
type One<T> = Promise<WithResponse<T>>;

export const checks = [
  same<C['linkTokens']['create'], (body: LinkTokenCreateBody, options?: CallOptions) => One<LinkToken>>(true),
  same<C['employers']['list'], (params?: PageParams, options?: CallOptions) => PayrollList<Employer>>(true),
  same<C['platforms']['list'], (params?: PlatformListParams, options?: CallOptions) => PayrollList<Platform>>(true),
  same<C['platforms']['get'], (id: string, options?: CallOptions) => One<Platform>>(true),
  same<C['accounts']['list'], (params?: AccountListParams, options?: CallOptions) => PayrollList<Account>>(true),
  same<C['accounts']['get'], (id: string, options?: CallOptions) => One<Account>>(true),
  same<C['accounts']['disconnect'], (id: string, options?: CallOptions) => Promise<WithResponse<Account> | NoContent>>(true),
  same<C['accounts']['employment'], (id: string, options?: CallOptions) => One<Employment>>(true),
  same<C['accounts']['income'], (id: string, options?: CallOptions) => One<Income>>(true),
  same<C['accounts']['paystubs'], (id: string, params?: PageParams, options?: CallOptions) => PayrollList<Paystub>>(true),
  same<C['accounts']['shifts'], (id: string, params?: PageParams, options?: CallOptions) => PayrollList<Shift>>(true),
  same<C['jobs']['create'], (accountId: string, body: CreateJobBody, options?: CallOptions) => One<Job>>(true),
  same<C['jobs']['list'], (params?: JobListParams, options?: CallOptions) => PayrollList<Job>>(true),
  same<C['jobs']['get'], (id: string, options?: CallOptions) => One<Job>>(true),
  same<C['jobs']['wait'], (id: string, options?: WaitOptions) => One<Job>>(true),
  same<C['verificationReports']['voe'], (endUserId: string, options?: CallOptions) => One<VoeReport>>(true),
  same<C['verificationReports']['voie'], (endUserId: string, options?: CallOptions) => One<VoieReport>>(true),
  same<C['version'], '2021-04-29' | '2021-07-28' | '2022-03-02' | '2022-06-22' | '2025-07-08'>(true),
];
