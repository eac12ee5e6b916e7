// The client's resource types through JSON typings (#41, part 6): type-fest's `Jsonify`, and Nitro's `Serialize`
// (what Nuxt's `useFetch` types its data with; test/packaging/nuxt.test.ts checks the real one in a Nuxt app).
// Type-checked by `npm run typecheck`, never run: each known field keeps its type, and a misspelt one is an error
// (the `@ts-expect-error` lines fail the check when it is not). With the resources' index signature (`looseObject`'s
// `[x: string]: unknown`), both typings made every resource `{ [x: string]: never }`: the typos passed.
import type { Jsonify } from 'type-fest';
import type {
  Account,
  Employer,
  Employment,
  Income,
  Job,
  Paystub,
  Platform,
  Shift,
  VoeReport,
  VoieReport,
  WithResponse,
} from 'payroll-link/server';

/**
 * Nitro 2.13's `Serialize` (nitropack/dist/types/index.d.ts, from Remix's serialize.ts), copied: the repository has
 * no Nuxt. Its `SerializeObject` maps over `keyof Omit<T, …>`, which an index signature turns into
 * `string | number`. Differences, for the linter only: `JsonPrimitive` without its repeated members, `Function`
 * and `any` spelt as a function type and `unknown`.
 */
type JsonPrimitive = string | number | boolean | null;
type NonJsonPrimitive = undefined | ((...args: never[]) => unknown) | symbol;
type IsAny<T> = 0 extends 1 & T ? true : false;
type FilterKeys<TObj extends object, TFilter> = { [TKey in keyof TObj]: TObj[TKey] extends TFilter ? TKey : never }[keyof TObj];
type Serialize<T> =
  IsAny<T> extends true
    ? unknown
    : T extends JsonPrimitive | undefined
      ? T
      : T extends Map<unknown, unknown> | Set<unknown>
        ? Record<string, never>
        : T extends NonJsonPrimitive
          ? never
          : T extends { toJSON(): infer U }
            ? U
            : T extends []
              ? []
              : T extends [unknown, ...unknown[]]
                ? SerializeTuple<T>
                : T extends ReadonlyArray<infer U>
                  ? (U extends NonJsonPrimitive ? null : Serialize<U>)[]
                  : T extends object
                    ? SerializeObject<T>
                    : never;
type SerializeTuple<T extends [unknown, ...unknown[]]> = { [k in keyof T]: T[k] extends NonJsonPrimitive ? null : Serialize<T[k]> };
type SerializeObject<T extends object> = { [k in keyof Omit<T, FilterKeys<T, NonJsonPrimitive>>]: Serialize<T[k]> };

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(equal: Equal<A, B>) => equal;

/** Each resource as the client resolves it (single ones with their `response`); both typings map the whole object. */
interface Resolved {
  platform: WithResponse<Platform>;
  employer: Employer;
  account: WithResponse<Account>;
  job: WithResponse<Job>;
  employment: WithResponse<Employment>;
  income: WithResponse<Income>;
  paystub: Paystub;
  shift: Shift;
  voe: WithResponse<VoeReport>;
  voie: WithResponse<VoieReport>;
}
declare const viaJsonify: Jsonify<Resolved>;
declare const viaNitro: Serialize<Resolved>;

export const checks = [viaJsonify, viaNitro].map((json) => [
  // Known fields keep their types, at the top and inside arrays and nested objects.
  same<typeof json.platform.type, 'payroll' | 'time_and_attendance'>(true),
  same<typeof json.employer.name, string | undefined>(true),
  same<typeof json.account.end_user_id, string | null | undefined>(true),
  same<typeof json.job.status, string | undefined>(true),
  same<NonNullable<typeof json.job.error>['code'], string | undefined>(true),
  same<typeof json.employment.employer_name, string>(true),
  same<typeof json.income.annual_gross_pay, number | undefined>(true),
  same<typeof json.income.hourly_rate, number | null | undefined>(true),
  same<typeof json.paystub.gross_pay, number | undefined>(true),
  same<NonNullable<typeof json.paystub.deductions>[number]['amount'], number | undefined>(true),
  same<typeof json.shift.duration_minutes, number | undefined>(true),
  same<NonNullable<typeof json.voe.employments>[number]['employer_name'], string | undefined>(true),
  same<NonNullable<typeof json.voie.incomes>[number]['annual_gross_pay'], number | undefined>(true),
  // A misspelt field is an error, wherever it is.
  // @ts-expect-error: `anual_gross_pay` is not a field of Income
  json.income.anual_gross_pay,
  // @ts-expect-error: `employer` is not a field of Employment
  json.employment.employer,
  // @ts-expect-error: `gros_pay` is not a field of Paystub
  json.paystub.gros_pay,
  // @ts-expect-error: `ammount` is not a field of a deduction
  json.paystub.deductions?.[0]?.ammount,
  // @ts-expect-error: `endUserId` is not a field of Account
  json.account.endUserId,
  // @ts-expect-error: `employer_nam` is not a field of a report's employment
  json.voe.employments?.[0]?.employer_nam,
]);
