/**
 * The sandbox's OAuth-style platform: its users log in on a page of its own, in a new window (a real platform's
 * OAuth page refuses to be framed), never in the Link frame. Not one of the generated catalogue's platforms (their
 * ids stay as they are); it is added to the catalogue with this fixed id. The Link page imports this module too:
 * picking this platform shows "Log in with OAuth Payroll" instead of the password form.
 */
export const OAUTH_PLATFORM = {
  id: '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a',
  name: 'OAuth Payroll',
} as const;
