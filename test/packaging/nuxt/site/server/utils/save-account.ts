// The test's stand-in for the app's own data layer, which docs/nuxt.md's webhook route calls: prints what it saved,
// for nuxt.test.ts to read. `endUserId: string`, so that the docs' snippet fails the type check if it passes
// `end_user_id` (string | null | undefined) unchecked.
export async function saveAccount(endUserId: string, accountId: string): Promise<void> {
  console.log(`SAVED ${JSON.stringify({ endUserId, accountId })}`);
}
