// `LaunchResult` (#47): a union on `status` that a TypeScript user must switch on whole. Type-checked by
// `npm run typecheck`, never run: the `@ts-expect-error` lines fail the check when what they refuse compiles.
import type { LaunchFact, LaunchResult } from 'payroll-link/server/launches';

/** A lender's onResult as docs/native-apps.md writes it: every status handled, `never` left. */
export function decide(result: LaunchResult): string {
  switch (result.status) {
    case 'success':
      return `release: ${result.accountId} ${result.jobId}`;
    case 'unconfirmed': {
      const facts: LaunchFact[] = result.unconfirmed;
      return `hold: ${result.accountId} ${facts.join(',')}`;
    }
    case 'exit':
      return `left: ${result.exitReason ?? ''}`;
    default: {
      const unhandled: never = result;
      return unhandled;
    }
  }
}

/** A switch that forgets `unconfirmed` does not compile: the lender cannot treat it as a success by omission. */
export function forgetful(result: LaunchResult): string {
  switch (result.status) {
    case 'success':
      return result.accountId;
    case 'exit':
      return 'left';
    default: {
      // @ts-expect-error -- `unconfirmed` is left, not never.
      const unhandled: never = result;
      return unhandled;
    }
  }
}

/** `verified` is gone, and an exit names no account. */
export function gone(result: LaunchResult): void {
  // @ts-expect-error -- removed in 0.2.0: the status says it.
  void result.verified;
  if (result.status === 'exit') {
    // @ts-expect-error -- an exit's account would be the browser's word, never passed on.
    void result.accountId;
  }
}
