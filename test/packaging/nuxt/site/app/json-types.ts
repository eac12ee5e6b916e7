// nuxt.test.ts's own checks of docs/nuxt.md's typed `useFetch`, through Nuxt's real typings (Nitro's
// SerializeObject): type-checked by `nuxi typecheck`, never built or run (no page imports it). Each known field
// keeps its type, and a misspelt one is an error: with the resources' old index signature the data was
// `{ [x: string]: never }`, and the `@ts-expect-error` lines below then fail the check.

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(equal: Equal<A, B>) => equal;

export async function accountDataChecks(id: string) {
  // The page's call, as docs/nuxt.md writes it.
  const { data } = await useFetch(`/api/accounts/${id}`);
  const account = data.value!;
  return [
    same<typeof account.employment.employer_name, string>(true),
    same<typeof account.employment.job_title, string | undefined>(true),
    same<typeof account.income.annual_gross_pay, number | undefined>(true),
    same<typeof account.income.hourly_rate, number | null | undefined>(true),
    same<(typeof account.paystubs)[number]['gross_pay'], number | undefined>(true),
    // @ts-expect-error: `anual_gross_pay` is not a field of Income
    account.income.anual_gross_pay,
    // @ts-expect-error: `employer` is not a field of Employment
    account.employment.employer,
    // @ts-expect-error: `gros_pay` is not a field of Paystub
    account.paystubs[0]?.gros_pay,
  ];
}
